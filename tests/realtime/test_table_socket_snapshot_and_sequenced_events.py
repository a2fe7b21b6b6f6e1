"""A table socket starts with a snapshot, then relays every committed event once, in sequence order."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from tests.realtime.conftest import make_table, open_socket, run
from tests.realtime.events_helper import append_events, public

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_spectator_gets_a_snapshot_on_connect() -> None:
    table = make_table(name="Aldebaran")

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/")
        snapshot = await socket.receive()
        assert snapshot["type"] == "snapshot"
        assert snapshot["table_id"] == table.pk
        assert snapshot["sequence"] == table.last_sequence  # the table_opened event
        assert snapshot["snapshot"]["table"]["name"] == "Aldebaran"
        assert snapshot["snapshot"]["viewer"]["seat"] is None
        await socket.close()

    run(scenario)


def test_committed_events_arrive_numbered_and_in_order() -> None:
    table = make_table()

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/")
        await socket.receive()
        await database_sync_to_async(append_events)(
            table.pk, public("seat_taken", seat=1), public("seat_taken", seat=2)
        )
        await database_sync_to_async(append_events)(table.pk, public("sat_out", seat=2))
        received = []
        while len(received) < 3:
            message = await socket.receive_until(lambda m: m["type"] == "events")
            received.extend(message["events"])
        base = table.last_sequence
        assert [event["sequence"] for event in received] == [base + 1, base + 2, base + 3]
        assert [event["type"] for event in received] == ["seat_taken", "seat_taken", "sat_out"]
        assert await socket.nothing_more()
        await socket.close()

    run(scenario)


def test_a_socket_that_connects_later_starts_from_the_snapshot_sequence() -> None:
    table = make_table()
    base = table.last_sequence
    append_events(table.pk, public("seat_taken", seat=1), public("seat_taken", seat=2))

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/")
        snapshot = await socket.receive()
        assert snapshot["sequence"] == base + 2
        await database_sync_to_async(append_events)(table.pk, public("seat_taken", seat=3))
        message = await socket.receive_until(lambda m: m["type"] == "events")
        assert [event["sequence"] for event in message["events"]] == [base + 3]
        await socket.close()

    run(scenario)


def test_an_unknown_table_answers_with_an_error_and_closes() -> None:
    async def scenario() -> None:
        socket = await open_socket("/ws/tables/987654/")
        error = await socket.receive()
        assert error["type"] == "error"
        assert error["code"] == "table_not_found"
        output = await socket.communicator.receive_output(5)
        assert output == {"type": "websocket.close", "code": 4404}

    run(scenario)


def test_ping_is_answered_with_pong() -> None:
    table = make_table()

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/")
        await socket.receive()
        await socket.send({"type": "ping", "request_id": "p1"})
        assert await socket.receive() == {"type": "pong", "request_id": "p1"}
        await socket.close()

    run(scenario)


def test_a_socket_idle_longer_than_the_channel_layers_blocking_read_still_gets_events() -> None:
    """Regression: with redis-py 8's default 5 s socket timeout an idle consumer died after 5 s (settings fix)."""
    import asyncio

    table = make_table()

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/")
        await socket.receive()
        await asyncio.sleep(7)
        assert await socket.nothing_more(0.1)  # still open: no close frame, no error
        await database_sync_to_async(append_events)(table.pk, public("seat_taken", seat=1))
        message = await socket.receive_until(lambda m: m["type"] == "events")
        assert message["events"][0]["type"] == "seat_taken"
        await socket.close()

    run(scenario)
