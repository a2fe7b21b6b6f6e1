"""A tournament table broken up (its last player moved to another table, TRN-25, TRN-26) is closed. Its snapshot, sent
on a socket opened there afterwards (a page reloaded, reconnected or bookmarked after the ``player_moved`` event), tells
the player moved away where they play now: ``viewer.to_table``, the id of that table (as a command refused there
names it). A player who plays at no table now (disqualified), a player of another table and a spectator get no
``to_table``; nor does anyone at a table in play."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest

from games.models import Table, TableStatus
from poker_site.accounts.roles import SUPPORT_STAFF
from tests.foundation.staff_roles import staff_member
from tests.realtime.conftest import open_socket, run
from tests.tournaments.support import START, register_players, scheduled
from tournaments.models import EntryStatus, TournamentEntry
from tournaments.services import tournament_advance
from tournaments.services.staff import entry_disqualify

pytestmark = pytest.mark.django_db(transaction=True)

ANSWER_SECONDS = 5.0
"""How long the test waits for the snapshot."""


def viewer_in_the_snapshot(table: Table, user: Any | None) -> dict[str, Any]:
    async def scenario() -> dict[str, Any]:
        socket = await open_socket(f"/ws/tables/{table.pk}/", user)
        try:
            message = await socket.receive_until(lambda message: message.get("type") == "snapshot", ANSWER_SECONDS)
            return dict(message["snapshot"]["viewer"])
        finally:
            await socket.close()

    return run(scenario)


def test_the_broken_tables_snapshot_tells_only_the_player_moved_away_where_they_play_now_trn_26() -> None:
    tournament = scheduled(START, table_size=4)
    register_players(tournament, 5, now=START - timedelta(minutes=5))
    tournament_advance(tournament.pk, now=START, randomness=random.Random(3))
    by_table: dict[int, list[TournamentEntry]] = {}
    for entry in TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.PLAYING):
        by_table.setdefault(int(entry.table_id), []).append(entry)
    small, big = sorted(by_table, key=lambda table_id: len(by_table[table_id]))
    disqualified, moved = by_table[small]
    staying = by_table[big][0]
    entry_disqualify(disqualified, actor=staff_member(SUPPORT_STAFF), reason="Collusion", forfeit_prize=False)
    # One player left at the small table, three at the big one, four seats each: the small table is broken.
    tournament_advance(tournament.pk, now=START + timedelta(seconds=2), randomness=random.Random(3))
    broken, playing = Table.objects.get(pk=small), Table.objects.get(pk=big)
    assert broken.status == TableStatus.CLOSED
    assert TournamentEntry.objects.get(pk=moved.pk).table_id == playing.pk

    assert viewer_in_the_snapshot(broken, moved.user)["to_table"] == playing.pk
    assert "to_table" not in viewer_in_the_snapshot(broken, disqualified.user)
    assert "to_table" not in viewer_in_the_snapshot(broken, staying.user)
    assert "to_table" not in viewer_in_the_snapshot(broken, None)
    assert "to_table" not in viewer_in_the_snapshot(playing, moved.user)
