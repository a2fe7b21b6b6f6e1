"""TRN-26 in the browser: a player moved away from a tournament table that was then broken up, whose page never got the
``player_moved`` event (no page open at the move; the same as a page reloaded, reconnected or bookmarked since), opens
the old table's page and is taken to the table where they play now: the closed table's snapshot names it
(``viewer.to_table``) and the page goes there as it does on ``player_moved``. The player socket's banner would only
offer that table from another table's page, never open it by itself, so the landing is the table page's doing."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Table, TableStatus
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import LAPTOP, log_in, wait_until
from tests.tournaments.browser.support import (
    coordinated_until,
    disqualified_between_hands,
    started_at_tables_of_three_and_two,
)
from tournaments.models import Tournament, TournamentEntry

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


def the_small_table_is_broken_up(tournament: Tournament, leaving: TournamentEntry, small: int) -> None:
    """Disqualify ``leaving`` (a player of the table of two): one player left there and three at the other table, four
    seats each, so the small table is broken up and its last player moved to the other table."""
    disqualified_between_hands(leaving)
    coordinated_until(
        tournament,
        lambda: Table.objects.get(pk=small).status == TableStatus.CLOSED,
        never="the small table was never broken up",
    )


def test_a_moved_player_opening_the_closed_table_they_left_lands_at_their_new_table_trn_26(
    site: Any, pages: Pages
) -> None:
    tournament, small, big, by_table = started_at_tables_of_three_and_two("Broken Freezeout", table_size=4)
    leaving, moved = by_table[small]

    the_small_table_is_broken_up(tournament, leaving, small)

    assert TournamentEntry.objects.get(pk=moved.pk).table_id == big
    page = pages.new(**LAPTOP)
    log_in(page, moved.user.username)
    page.goto(f"/games/tables/{small}/")
    page.wait_for_url(f"**/games/tables/{big}/", timeout=30_000)
    wait_until(page, "document.getElementById('table-app').getAttribute('data-connection') === 'live'")
    pages.screenshot(page, "moved-player-landed-at-the-new-table")
