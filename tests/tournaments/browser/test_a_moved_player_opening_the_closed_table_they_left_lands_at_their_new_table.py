"""TRN-26 in the browser: a player moved away from a tournament table that was then broken up, whose page never got the
``player_moved`` event (no page open at the move; the same as a page reloaded, reconnected or bookmarked since), opens
the old table's page and is taken to the table where they play now: the closed table's snapshot names it
(``viewer.to_table``) and the page goes there as it does on ``player_moved``. The player socket's banner would only
offer that table from another table's page, never open it by itself, so the landing is the table page's doing."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.db import OperationalError
from django.utils import timezone

from games.models import Table, TableStatus
from poker_site.accounts.roles import SUPPORT_STAFF
from tests.browser.conftest import Pages, caused_by_a_deadlock, requires_chromium
from tests.browser.flows import LAPTOP, log_in, wait_until
from tests.browser.setup import player
from tests.foundation.staff_roles import staff_member
from tournaments.models import EntryStatus, Tournament, TournamentEntry
from tournaments.rules.levels import structure_from_rows
from tournaments.services import tournament_advance, tournament_register
from tournaments.services.catalog import tournament_create
from tournaments.services.errors import NotAllowedNow
from tournaments.services.staff import entry_disqualify

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

LEVELS = structure_from_rows("calls", 1_000, [(10, 20, 0), (20, 40, 0), (40, 80, 0)], 300)


def started_at_tables_of_three_and_two() -> tuple[int, int, int, dict[int, list[TournamentEntry]]]:
    """A five-player tournament of four-seat tables, started (a table of three and one of two), dated two minutes back
    so that pages opened now only offer the table: (tournament id, small table, big table, entries by table)."""
    tournament = tournament_create(
        name="Broken Freezeout",
        starts_at=timezone.now() + timedelta(minutes=30),
        table_size=4,
        buy_in=1_000,
        fee=100,
        unregistration_closes_minutes=0,
        structure=LEVELS,
        # Nobody acts at these tables: short clocks bring the pause between hands, when a player may be disqualified,
        # sooner.
        decision_seconds=3,
        timebank_first_hand_seconds=2,
    )
    for name_of_player in ("alice", "bob", "carol", "dave", "erin"):
        tournament_register(player(name_of_player, cash_cents=5_000), tournament)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())
    tournament_advance(tournament.pk)  # unless the beat started it first
    Tournament.objects.filter(pk=tournament.pk).update(started_at=timezone.now() - timedelta(minutes=2))
    by_table: dict[int, list[TournamentEntry]] = {}
    for entry in TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.PLAYING).select_related(
        "user"
    ):
        by_table.setdefault(int(entry.table_id), []).append(entry)
    small, big = sorted(by_table, key=lambda table_id: len(by_table[table_id]))
    return tournament.pk, small, big, by_table


def the_small_table_is_broken_up(tournament_id: int, leaving: TournamentEntry, small: int) -> None:
    """Disqualify ``leaving`` (a player of the table of two): one player left there and three at the other table, four
    seats each, so the small table is broken up and its last player moved to the other table."""
    judge = staff_member(SUPPORT_STAFF)
    deadline = time.monotonic() + 60
    while True:
        try:  # between two hands (the absent players' hands are dealt and folded meanwhile, TRN-04)
            entry_disqualify(leaving, actor=judge, reason="Collusion", forfeit_prize=False)
            break
        except (NotAllowedNow, OperationalError) as refusal:  # a hand in play; or a deadlock with the live site
            if isinstance(refusal, OperationalError) and not caused_by_a_deadlock(refusal):
                raise
            assert time.monotonic() < deadline, "the small table never paused between hands"
            time.sleep(0.2)
    deadline = time.monotonic() + 60
    while Table.objects.get(pk=small).status != TableStatus.CLOSED:
        assert time.monotonic() < deadline, "the small table was never broken up"
        try:
            tournament_advance(tournament_id)
        except OperationalError as error:  # the live site's coordinator and hands run meanwhile
            if not caused_by_a_deadlock(error):
                raise
        time.sleep(0.5)


def test_a_moved_player_opening_the_closed_table_they_left_lands_at_their_new_table_trn_26(
    site: Any, pages: Pages
) -> None:
    tournament_id, small, big, by_table = started_at_tables_of_three_and_two()
    leaving, moved = by_table[small]

    the_small_table_is_broken_up(tournament_id, leaving, small)

    assert TournamentEntry.objects.get(pk=moved.pk).table_id == big
    page = pages.new(**LAPTOP)
    log_in(page, moved.user.username)
    page.goto(f"/games/tables/{small}/")
    page.wait_for_url(f"**/games/tables/{big}/", timeout=30_000)
    wait_until(page, "document.getElementById('table-app').getAttribute('data-connection') === 'live'")
    pages.screenshot(page, "moved-player-landed-at-the-new-table")
