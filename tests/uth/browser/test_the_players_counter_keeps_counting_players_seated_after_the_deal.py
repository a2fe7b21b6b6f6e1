"""In headless Chromium against the live site (QA G finding 6): the header's "Players" counts the players seated at
the table; the dealt event's count of hands staked in the game does not overwrite it. With two players seated and
only one betting, the counter still says 2 after the deal, and the hands in this game are shown beside it ("in this
game: 1")."""

from __future__ import annotations

from typing import Any

import pytest

from games.uth.models import UthTable
from games.uth.services import uth_seat_take
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_until
from tests.browser.setup import player
from tests.uth.browser.tables import a_uth_table, wait_for_betting_time

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


@pytest.fixture
def uth_table(site: Any) -> UthTable:
    return a_uth_table("Counted UTH", chip_values=[500, 2_500], betting_seconds=10)


def test_two_players_seated_one_betting_the_counter_says_two_after_the_deal(uth_table: UthTable, pages: Pages) -> None:
    player("alice", cash_cents=10_000)
    uth_seat_take(player("bob", cash_cents=10_000), uth_table.pk)  # seated, never bets
    page = pages.new(width=1366, height=800)
    log_in(page, "alice")
    page.goto(f"/uth/{uth_table.pk}/")
    wait_until(page, "document.getElementById('uth-connection').textContent === 'Connected'")
    assert page.locator("#uth-players").text_content() == "1"
    page.get_by_role("button", name="Take a seat").click()
    wait_until(page, "document.getElementById('uth-players').textContent === '2'")
    wait_for_betting_time(page, 5)
    page.get_by_role("button", name="Ante: place the selected chip").click()
    wait_until(page, "document.querySelector('[data-amount=ante]').textContent === '€5.00'")
    page.locator("[data-decision=play_4x]").wait_for(state="visible", timeout=30_000)  # dealt
    assert page.locator("#uth-players").text_content() == "2"  # not the 1 hand staked
    wait_until(page, "document.getElementById('uth-in-game').textContent === 'in this game: 1'")
