"""The top-up dialog's maximum is live (issue 28): it follows the player's stack while the dialog is open, and a top-up
asked for during a hand is accepted, shown as pending and added when the hand ends (CASH-15: chips are added between
hands; CASH-10: never above the table maximum)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import HandEvent, Seat, Table
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_live, wait_until
from tests.browser.setup import (
    act,
    act_until_seat_acts,
    check_or_call_down,
    heads_up_table,
    in_thread,
    player,
    running_hand,
    seat,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

ROOM = "Number(document.getElementById('top-up-limits').getAttribute('data-room'))"


@pytest.fixture
def played(site: Any) -> tuple[Table, dict[int, Any]]:
    table = heads_up_table()  # NL10: blinds €0.05/€0.10, table maximum €10.00
    users = {1: player("alice"), 4: player("bob")}
    seat(users[1], table, 600, number=1)
    seat(users[4], table, 1000, number=4)
    return table, users


def test_the_top_up_maximum_follows_the_stack_and_a_top_up_in_a_hand_is_added_when_it_ends(
    played: tuple[Table, dict[int, Any]], pages: Pages
) -> None:
    table, users = played
    page = pages.new()
    log_in(page, "alice")
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    running_hand(table)
    wait_until(page, "document.getElementById('hand-info').textContent.includes('#')")  # a hand is drawn

    page.click("#top-up-button")
    page.wait_for_selector("#top-up-dialog[open]")
    wait_until(page, f"{ROOM} > 0")
    before = int(page.evaluate(ROOM))
    assert 400 <= before <= 410  # €10.00 less alice's €6.00 and the blind she may have posted
    assert "when it ends" in str(page.locator("#top-up-limits").text_content())

    # Alice raises to €1.00 while the dialog is open: what she may add grows with the chips she put in.
    in_thread(lambda: act_until_seat_acts(table, users, 1))
    in_thread(lambda: act(table, users[1], "raise_to", 100))
    wait_until(page, f"{ROOM} === 500")
    assert page.locator("#top-up-amount").input_value() == "5.00"  # the suggestion followed the maximum
    pages.screenshot(page, "top-up-dialog-follows-the-stack")

    page.fill("#top-up-amount", "2")
    page.click("#top-up-confirm")
    page.wait_for_selector("#top-up-dialog", state="hidden")
    page.wait_for_selector("#top-up-pending:not([hidden])")
    assert "€2.00" in str(page.locator("#top-up-pending").text_content())
    assert "when this hand ends" in str(page.locator("#table-notices").text_content())
    assert Seat.objects.get(user=users[1]).top_up_after_hand == 200
    pages.screenshot(page, "top-up-pending-during-the-hand")

    hand = in_thread(lambda: check_or_call_down(table, users))
    page.wait_for_selector("#top-up-pending", state="hidden")
    settled = HandEvent.objects.get(hand_id=hand.pk, kind="hand_settled").payload["stacks"]["1"]
    topped_up = HandEvent.objects.get(table=table, kind="seat_topped_up")
    added = min(200, 1_000 - settled)
    assert topped_up.payload["amount"] == added
    wait_until(
        page,
        "(s) => { const e = document.querySelector('.seat[data-seat=\"1\"] .stack');"
        " return e !== null && Number(e.dataset.cents) === s; }",
        arg=settled + added,
    )
    pages.screenshot(page, "top-up-added-after-the-hand")
