"""A tournament table's snapshot keeps the table's own status beside the tournament's (``tournament_status``): once
the tournament is over its table reads ``closed``, so the page says "This table is closed." instead of waiting for a
next hand (issue 28; the tournament's status had replaced the table's in the snapshot)."""

from __future__ import annotations

import pytest

from games.models import Table, TableStatus
from games.runtime.views import table_snapshot
from tests.tournaments.support import START, fresh, play, register_players, sit_and_go
from tournaments.models import TournamentStatus

pytestmark = pytest.mark.django_db


def test_the_snapshot_of_a_finished_sit_and_gos_table_reads_closed_with_the_tournament_finished() -> None:
    tournament = sit_and_go(seats=2)
    register_players(tournament, 2, now=START)
    table = Table.objects.get(tournament_link__tournament=tournament)
    running = table_snapshot(table, None)["table"]
    assert (running["status"], running["tournament_status"]) == (TableStatus.OPEN, TournamentStatus.RUNNING)

    play(tournament)
    assert fresh(tournament).status == TournamentStatus.FINISHED
    over = table_snapshot(table, None)["table"]
    assert (over["status"], over["tournament_status"]) == (TableStatus.CLOSED, TournamentStatus.FINISHED)
