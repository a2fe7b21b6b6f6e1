"""ENG-23 / ENG-22: the part of a bet nobody has called is not a side pot. At the table it is shown as "Uncalled bet
€x (name)" beside the main pot while it stands, and when it goes back the hand log and the replayer say "Uncalled bet
of €x returned to name" (they said "Side pot 1" and "€x returned to name")."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Hand
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_live, wait_until
from tests.browser.setup import (
    act,
    act_until_seat_acts,
    heads_up_table,
    in_thread,
    legal_actions,
    player,
    seat,
    wait_until_ended,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


def test_eng_23_an_uncalled_all_in_is_shown_as_an_uncalled_bet_and_its_return_is_logged_so(
    site: Any, pages: Pages
) -> None:
    table = heads_up_table()
    users = {1: player("alice"), 4: player("bob")}
    seat(users[1], table, 600, number=1)
    seat(users[4], table, 1_000, number=4)
    page = pages.new(width=1366, height=800)
    log_in(page, "alice")
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)

    hand = in_thread(lambda: act_until_seat_acts(table, users, 4))
    legal = in_thread(lambda: legal_actions(table, users[4]))
    assert legal is not None
    assert legal["raise_range"] is not None
    in_thread(lambda: act(table, users[4], "raise_to", legal["raise_range"][1]))  # bob: all-in for €10.00

    wait_until(page, "document.querySelector('#pots .pot-uncalled') !== null")
    pots = page.locator("#pots").inner_text()
    assert "Uncalled bet" in pots, pots
    assert "(bob)" in pots, pots
    assert "Side pot" not in pots, pots
    pages.screenshot(page, "uncalled-bet-at-the-table")

    in_thread(lambda: act(table, users[1], "call"))  # alice calls all-in for €6.00: €4.00 of bob's bet goes back
    wait_until_ended(Hand.objects.get(pk=hand.pk))
    returned = "Uncalled bet of €4.00 returned to bob"
    wait_until(page, f"document.getElementById('action-log').textContent.includes('{returned}')")
    assert "Side pot" not in str(page.locator("#action-log").text_content())

    page.goto(f"/games/hands/{hand.pk}/")
    steps = page.locator("#replay-steps")
    steps.wait_for()
    assert returned in str(steps.text_content())
