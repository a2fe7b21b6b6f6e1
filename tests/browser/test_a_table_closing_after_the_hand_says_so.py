"""Support closes a table during a hand: the players see at once that it closes when the hand ends, and a page opened
(or reloaded) afterwards shows the same notice from its snapshot; when the hand ends the table closes (CASH-08 for
the table as a whole; docs/protocol.md `table_closing`)."""

from __future__ import annotations

from typing import Any

import pytest

from games.services import table_close
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_live, wait_until
from tests.browser.setup import check_or_call_down, heads_up_table, in_thread, player, running_hand, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

NOTICE = "#table-closing"


def test_a_table_support_closes_during_a_hand_says_so_live_after_a_reload_and_closes_when_the_hand_ends(
    site: Any, pages: Pages
) -> None:
    table = heads_up_table()
    alice, bob = player("alice"), player("bob")
    seat(alice, table, 1000, number=1)
    seat(bob, table, 1000, number=4)
    running_hand(table)
    page = pages.new()
    log_in(page, "alice")
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    assert page.locator(NOTICE).is_hidden()

    in_thread(lambda: table_close(table, reason="Suspected client bug"))
    page.wait_for_selector(NOTICE, state="visible")
    assert page.locator(NOTICE).text_content() == "This table closes when the hand in play ends."
    pages.screenshot(page, "table-closing")

    page.reload()
    wait_live(page)
    assert page.locator(NOTICE).is_visible()  # from the page's own snapshot: the event came before the reload

    in_thread(lambda: check_or_call_down(table, {1: alice, 4: bob}))
    page.wait_for_selector(NOTICE, state="hidden")
    wait_until(page, "document.querySelectorAll('#seats .seat:not(.empty)').length === 0")
