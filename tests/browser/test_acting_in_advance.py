"""Acting in advance: while another player is to act, a player may tick "Check/Fold", "Check" or "Call any". When
their turn comes the choice is carried out on the legal actions of that turn — check/fold checks when checking is
legal and folds otherwise, call any calls (a call carries no amount, so nothing stale is sent) — and a bet or raise
after "Check" was ticked cancels it, so nothing is sent that the player did not choose for the situation they saw.
Requirements: LOB-04 (table controls), ENG-09 (legal actions)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Table
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import FrameRecorder, log_in, my_turn, sent_actions, wait_live, wait_until
from tests.browser.setup import act, heads_up_table, in_thread, player, running_hand, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


@pytest.fixture
def dealt(site: Any) -> tuple[Table, dict[int, Any]]:
    table = heads_up_table()
    users = {1: player("alice"), 4: player("bob")}
    seat(users[1], table, 1000, number=1)
    seat(users[4], table, 1000, number=4)
    running_hand(table)
    return table, users


def waiting_player_page(pages: Pages, table: Table, users: dict[int, Any]) -> tuple[Any, FrameRecorder, int, int]:
    """The page of the player who is not to act (the big blind before the flop), and both seat numbers."""
    acting = running_hand(table).acting_seat
    assert acting is not None
    waiting = next(number for number in users if number != acting)
    page = pages.new()
    recorder = FrameRecorder(page)
    log_in(page, users[waiting].username)
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    page.wait_for_selector("#advance-actions:not([hidden])")
    return page, recorder, acting, waiting


def raise_for(table: Table, user: Any, amount: int) -> None:
    in_thread(lambda: act(table, user, "raise_to", amount))


def test_check_fold_folds_when_a_raise_comes(dealt: tuple[Table, dict[int, Any]], pages: Pages) -> None:
    table, users = dealt
    page, recorder, acting, _waiting = waiting_player_page(pages, table, users)
    page.get_by_label("Check/Fold").check()
    raise_for(table, users[acting], 30)
    page.wait_for_selector("#results li")  # the fold ended the hand
    assert [frame["action"] for frame in sent_actions(recorder)] == ["fold"]
    assert all("amount" not in frame for frame in sent_actions(recorder))


def test_a_raise_cancels_a_ticked_check_and_nothing_is_sent(dealt: tuple[Table, dict[int, Any]], pages: Pages) -> None:
    table, users = dealt
    page, recorder, acting, _waiting = waiting_player_page(pages, table, users)
    page.get_by_label("Check", exact=True).check()
    raise_for(table, users[acting], 30)
    my_turn(page)
    page.wait_for_selector("#action-notices .notice")
    assert "cancelled" in str(page.locator("#action-notices").text_content())
    assert sent_actions(recorder) == []
    assert page.locator("#action-buttons [data-act=call]").is_visible()
    pages.screenshot(page, "check-cancelled")


def test_call_any_calls_the_raise_without_an_amount(dealt: tuple[Table, dict[int, Any]], pages: Pages) -> None:
    table, users = dealt
    page, recorder, acting, _waiting = waiting_player_page(pages, table, users)
    page.locator("[data-advance=call_any]").check()
    raise_for(table, users[acting], 40)
    wait_until(page, "window.tableApp.state.snapshot.hand && window.tableApp.state.snapshot.hand.street === 'flop'")
    assert [frame["action"] for frame in sent_actions(recorder)] == ["call"]
    assert "amount" not in sent_actions(recorder)[0]
    # The seat that raised shows its last action until the street ends; the flop clears the labels.
    assert page.locator("#seats [data-last-action]").count() == 0
