"""Everywhere money is typed, a decimal comma ("50,50", as Estonians write it) is accepted as well as a point: the
cashier's deposit, the buy-in dialog and the bet amount at a cash table (one helper in the pages, Poker.parseMoney,
and the same rule on the server, parse_euros_to_cents)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Seat
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import FrameRecorder, deposit, header_balance, log_in, my_turn, seat_me_from_lobby, wait_until
from tests.browser.setup import act_until_seat_acts, heads_up_table, player, running_hand, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


def test_a_deposit_a_buy_in_and_a_bet_typed_with_a_decimal_comma(site: Any, pages: Pages) -> None:
    table = heads_up_table()
    alice = player("alice", cash_cents=1_000)
    bob = player("bob")
    seat(bob, table, 1_000, number=4)
    page = pages.new(width=1366, height=768)
    log_in(page, "alice")
    deposit(page, "50,50")
    assert header_balance(page) == 1_000 + 5_050

    seat_me_from_lobby(page, table.pk, "5,50")
    wait_until(page, "document.getElementById('header-balance').getAttribute('data-cents') === '5500'")  # €5.50 in play

    frames = FrameRecorder(page)
    page.reload()
    running_hand(table)
    mine = Seat.objects.get(table=table, user=alice).number
    act_until_seat_acts(table, {mine: alice, 4: bob}, mine)  # bob checks or calls if he acts first
    my_turn(page)
    page.locator("#bet-amount").fill("0,40")
    # The button is labelled with the amount the box now holds (the box was read), and that amount is legal.
    wait_until(page, "document.querySelector('#action-buttons [data-act=raise]').getAttribute('data-amount') === '40'")
    assert page.locator("#bet-amount").get_attribute("aria-invalid") == "false"
    page.locator('#action-buttons [data-act="raise"]').click()
    try:
        wait_until(
            page, "document.querySelectorAll('#action-buttons [data-act]:not([hidden])').length === 0", timeout=60_000
        )
    except TimeoutError as timeout:
        refusal = page.locator("#action-notices").text_content()
        raise AssertionError(f"the raise was not applied; the page says: {refusal!r}") from timeout
    raises = [frame for frame in frames.sent if frame.get("type") == "act" and frame.get("action") == "raise"]
    assert raises[-1]["amount"] == 40
