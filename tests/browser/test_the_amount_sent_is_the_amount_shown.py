"""The bet or raise a player sends is always the amount the box and the button show: a snapshot that arrives while the
player chooses (the turn arriving in two messages, your_turn then the fresh snapshot) never resets the chosen amount,
and an amount that changes between pressing and releasing the button is not sent. Requirements: LOB-04, ENG-09
(bet and raise amounts are "to" totals)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Table
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import FrameRecorder, log_in, my_turn, sent_actions, wait_live, wait_until
from tests.browser.setup import heads_up_table, player, running_hand, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


@pytest.fixture
def dealt(site: Any) -> Table:
    table = heads_up_table()
    seat(player("alice"), table, 1000, number=1)
    seat(player("bob"), table, 1000, number=4)
    running_hand(table)
    return table


def shown_amount(page: Any) -> int:
    return round(float(page.locator("#bet-amount").input_value()) * 100)


def redraw_with_a_fresh_snapshot(page: Any) -> None:
    """The same decision arrives again as a snapshot whose hand differs in what the page had followed from events (the
    current bet the your_turn path did not know yet): the race the player hit."""
    page.evaluate(
        """() => {
        const app = window.tableApp;
        const copy = JSON.parse(JSON.stringify(app.state.snapshot));
        copy.hand.current_bet = (copy.hand.current_bet || 0) + 1;
        app.onMessage({type: "snapshot", snapshot: copy, sequence: app.state.sequence});
        copy.hand.current_bet -= 1;
        app.onMessage({type: "snapshot", snapshot: copy, sequence: app.state.sequence});
    }"""
    )


def test_a_pot_sized_raise_sends_the_amount_in_the_box_even_when_a_snapshot_arrives_meanwhile(
    dealt: Table, pages: Pages
) -> None:
    acting = running_hand(dealt).acting_seat
    page = pages.new()
    recorder = FrameRecorder(page)
    log_in(page, "alice" if acting == 1 else "bob")
    page.goto(f"/games/tables/{dealt.pk}/")
    wait_live(page)
    my_turn(page)
    page.locator("[data-preset=pot]").click()
    chosen = shown_amount(page)
    assert chosen == 30  # small blind facing €0.10: call €0.05 into a €0.15 pot, then raise the €0.20 pot: to €0.30
    redraw_with_a_fresh_snapshot(page)
    assert shown_amount(page) == chosen, "a snapshot reset the amount the player chose"
    button = page.locator("#action-buttons [data-act=raise]")
    assert button.get_attribute("data-amount") == str(chosen)
    assert "0.30" in str(button.text_content())
    button.click()
    wait_until(page, "document.querySelectorAll('#action-buttons [data-act]:not([hidden])').length === 0")
    sent = sent_actions(recorder)
    assert [(frame["action"], frame["amount"]) for frame in sent] == [("raise", chosen)]


def test_an_amount_that_changes_while_the_button_is_pressed_is_not_sent(dealt: Table, pages: Pages) -> None:
    acting = running_hand(dealt).acting_seat
    page = pages.new()
    recorder = FrameRecorder(page)
    log_in(page, "alice" if acting == 1 else "bob")
    page.goto(f"/games/tables/{dealt.pk}/")
    wait_live(page)
    my_turn(page)
    page.locator("[data-preset=half]").click()
    page.locator("[data-preset=pot]").click()
    box = page.locator("#action-buttons [data-act=raise]").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.evaluate(
        """() => { const input = document.getElementById('bet-amount'); input.value = '0.40';
                   input.dispatchEvent(new Event('input')); }"""
    )
    page.mouse.up()
    page.wait_for_selector("#action-notices .notice-error")
    assert "changed" in str(page.locator("#action-notices").text_content())
    assert sent_actions(recorder) == []
    page.locator("#action-buttons [data-act=raise]").click()
    wait_until(page, "document.querySelectorAll('#action-buttons [data-act]:not([hidden])').length === 0")
    assert [(frame["action"], frame["amount"]) for frame in sent_actions(recorder)] == [("raise", 40)]
