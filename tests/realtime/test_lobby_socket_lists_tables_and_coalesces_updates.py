"""The lobby socket sends every open table on connect, then coalesced updates (at most one per table per window)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.runtime import realtime
from tests.realtime.conftest import make_table, open_socket, run

pytestmark = pytest.mark.django_db(transaction=True)


def rename(table_id: int, name: str) -> None:
    from games.models import Table

    Table.objects.filter(pk=table_id).update(name=name)


def test_the_lobby_lists_open_tables_with_stakes_on_connect() -> None:
    holdem = make_table("holdem", "NL10", name="Holdem one")
    omaha = make_table("omaha", "PL25", name="Omaha one")

    async def scenario() -> None:
        socket = await open_socket("/ws/lobby/")
        lobby = await socket.receive()
        assert lobby["type"] == "lobby"
        rows = {row["id"]: row for row in lobby["tables"]}
        assert set(rows) == {holdem.pk, omaha.pk}
        assert rows[holdem.pk]["stake"] == "NL10"
        assert rows[holdem.pk]["big_blind"] == 10
        assert rows[holdem.pk]["players"] == 0
        assert rows[holdem.pk]["waiting"] == 0
        assert rows[holdem.pk]["average_pot"] is None
        assert rows[omaha.pk]["game"] == "omaha"
        await socket.close()

    run(scenario)


def test_a_burst_of_changes_is_coalesced_and_ends_with_the_latest_state() -> None:
    table = make_table(name="Before")

    def burst() -> None:
        for index in range(10):
            rename(table.pk, f"Name {index}")
            realtime.lobby_table_changed(table.pk)

    async def scenario() -> None:
        socket = await open_socket("/ws/lobby/")
        await socket.receive()
        await socket.drain(quiet=1.0)  # the re-read one window after connecting
        await database_sync_to_async(burst)()
        updates = await socket.drain(quiet=1.5)
        # Ten changes within about one window: one push, or two if the burst outlasted the window on a busy machine.
        assert 1 <= len(updates) <= 2
        assert all(update["type"] == "lobby_update" for update in updates)
        assert [row["name"] for row in updates[-1]["tables"]] == ["Name 9"]
        await socket.close()

    run(scenario)


def test_a_change_inside_the_window_is_still_pushed_afterwards() -> None:
    table = make_table(name="Before")

    async def scenario() -> None:
        socket = await open_socket("/ws/lobby/")
        await socket.receive()
        await database_sync_to_async(rename)(table.pk, "First")
        await database_sync_to_async(realtime.lobby_table_changed)(table.pk)
        first = await socket.receive(timeout=15)
        assert first["tables"][0]["name"] == "First"
        # The notice window may still be open: this change sends no notice of its own, yet must be pushed.
        await database_sync_to_async(rename)(table.pk, "Second")
        await database_sync_to_async(realtime.lobby_table_changed)(table.pk)
        await asyncio_sleep(0.6)
        await database_sync_to_async(realtime.lobby_table_changed)(table.pk)
        second = await socket.receive(timeout=15)
        assert second["tables"][0]["name"] == "Second"
        await socket.close()

    run(scenario)


async def asyncio_sleep(seconds: float) -> None:
    import asyncio

    await asyncio.sleep(seconds)


def test_a_closed_table_is_announced_as_removed() -> None:
    table = make_table()

    def close_table() -> None:
        from games.models import Table, TableStatus

        Table.objects.filter(pk=table.pk).update(status=TableStatus.CLOSED)
        realtime.lobby_table_changed(table.pk)

    async def scenario() -> None:
        socket = await open_socket("/ws/lobby/")
        await socket.receive()
        await database_sync_to_async(close_table)()
        update = await socket.receive(timeout=15)
        assert update == {"type": "lobby_update", "tables": [], "removed": [table.pk]}
        await socket.close()

    run(scenario)
