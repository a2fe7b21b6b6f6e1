"""CASH-07 / CASH-21: a player new at a table that has dealt waits for the big blind or posts one now. The button says
"Post a big blind now": they have never been away. "I'm back: post a big blind now" is for a player sitting out, who
comes back with it (CASH-16; QA report F, finding 9)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_live, wait_until
from tests.browser.setup import heads_up_table, in_thread, player, running_hand, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

BUTTON = "document.getElementById('sit-in-post')"


def test_a_new_player_posts_a_big_blind_and_a_player_sitting_out_comes_back(site: Any, pages: Pages) -> None:
    table = heads_up_table()
    seat(player("alice"), table, 1000, number=1)
    seat(player("bob"), table, 1000, number=4)
    running_hand(table)  # the table has dealt: a new player waits for the big blind (CASH-07)
    carol = player("carol")

    page = pages.new(width=1366, height=800)
    log_in(page, "carol")
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    in_thread(lambda: seat(carol, table, 1000, number=2))
    wait_until(page, f"!{BUTTON}.hidden")
    assert page.locator("#sit-in-post").text_content() == "Post a big blind now"
    assert "I'm back" not in str(page.locator("#seat-controls").text_content())

    page.locator("#toggle-sit-out").check()
    wait_until(page, f'{BUTTON}.textContent === "I\'m back: post a big blind now"')
    assert page.locator("#sit-in-post").is_visible()
