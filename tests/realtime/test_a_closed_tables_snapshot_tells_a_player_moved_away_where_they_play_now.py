"""A tournament table broken up (its last player moved to another table, TRN-25, TRN-26) is closed. Its snapshot, sent
on a socket opened there afterwards (a page reloaded, reconnected or bookmarked after the ``player_moved`` event), tells
the player moved away where they play now: ``viewer.to_table``, the id of that table (as a command refused there
names it). A player who plays at no table now (disqualified), a player of another table and a spectator get no
``to_table``; nor does anyone at a table in play."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Table
from tests.realtime.broken_tournament_table import a_tournament_table_broken_up
from tests.realtime.conftest import open_socket, run

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
    table = a_tournament_table_broken_up()
    broken, playing, moved = table.broken, table.playing, table.moved.user
    disqualified, staying = table.disqualified.user, table.staying.user

    assert viewer_in_the_snapshot(broken, moved)["to_table"] == playing.pk
    assert "to_table" not in viewer_in_the_snapshot(broken, disqualified)
    assert "to_table" not in viewer_in_the_snapshot(broken, staying)
    assert "to_table" not in viewer_in_the_snapshot(broken, None)
    assert "to_table" not in viewer_in_the_snapshot(playing, moved)
