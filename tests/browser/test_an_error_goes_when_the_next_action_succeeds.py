"""A refused action's message does not outlive the player's next successful action (LOB-04 table controls, plain-words
errors): an amount outside the raise range is explained beside the buttons, and the call that follows clears it at
once, instead of leaving it on screen until the player's next turn."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, my_turn, wait_live, wait_until
from tests.browser.setup import act_until_seat_acts, heads_up_table, in_thread, player, running_hand, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

ERRORS = (
    "document.querySelectorAll('#action-notices .notice[data-kind=error], #table-notices .notice[data-kind=error]')"
)


def test_an_action_error_is_cleared_when_the_next_action_succeeds(site: Any, pages: Pages) -> None:
    table = heads_up_table()
    users = {1: player("alice"), 4: player("bob")}
    seat(users[1], table, 1000, number=1)
    seat(users[4], table, 1000, number=4)
    running_hand(table)
    page = pages.new(width=1366, height=800)
    log_in(page, "alice")
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    in_thread(lambda: act_until_seat_acts(table, users, 1))
    my_turn(page)

    page.fill("#bet-amount", "99")  # far above alice's €10.00
    page.locator("#bet-amount").press("Enter")
    wait_until(page, f"{ERRORS}.length === 1")
    assert "between" in str(page.locator("#action-notices").text_content())

    page.locator("[data-act=call]:not([hidden]), [data-act=check]:not([hidden])").first.click()
    wait_until(page, f"{ERRORS}.length === 0")
