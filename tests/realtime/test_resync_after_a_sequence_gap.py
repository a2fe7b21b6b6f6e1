"""A client that misses sequence numbers gets them back: the server fills its own gaps, and ``resync`` answers."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.runtime import realtime
from tests.realtime.conftest import make_table, open_socket, run
from tests.realtime.events_helper import append_events, public

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_lost_broadcast_is_filled_in_before_newer_events(monkeypatch: pytest.MonkeyPatch) -> None:
    table = make_table()

    def append_without_broadcast() -> None:
        with monkeypatch.context() as patch:
            patch.setattr(realtime, "table_events_committed", lambda *arguments: None)
            append_events(table.pk, public("seat_taken", seat=2), public("seat_taken", seat=3))

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/")
        await socket.receive()
        await database_sync_to_async(append_events)(table.pk, public("seat_taken", seat=1))
        first = await socket.receive_until(lambda m: m["type"] == "events")
        base = table.last_sequence
        assert [event["sequence"] for event in first["events"]] == [base + 1]
        await database_sync_to_async(append_without_broadcast)()  # events 2 and 3 are never broadcast
        await database_sync_to_async(append_events)(table.pk, public("sat_out", seat=1))
        caught_up = await socket.receive_until(lambda m: m["type"] == "events")
        assert [event["sequence"] for event in caught_up["events"]] == [base + 2, base + 3, base + 4]
        assert await socket.nothing_more()
        await socket.close()

    run(scenario)


def test_resync_returns_the_events_after_the_given_sequence() -> None:
    table = make_table()
    base = table.last_sequence
    append_events(table.pk, *(public("seat_taken", seat=seat) for seat in (1, 2, 3, 4)))

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/")
        assert (await socket.receive())["sequence"] == base + 4
        await socket.send({"type": "resync", "since": base + 1, "request_id": "gap-1"})
        answer = await socket.receive()
        assert answer["type"] == "events"
        assert answer["resync"] is True
        assert answer["request_id"] == "gap-1"
        assert [event["sequence"] for event in answer["events"]] == [base + 2, base + 3, base + 4]
        await socket.close()

    run(scenario)


def test_resync_from_a_sequence_never_sent_answers_with_a_snapshot() -> None:
    table = make_table()
    base = table.last_sequence
    append_events(table.pk, public("seat_taken", seat=1))

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/")
        await socket.receive()
        await socket.send({"type": "resync", "since": 500})
        answer = await socket.receive()
        assert answer["type"] == "snapshot"
        assert answer["sequence"] == base + 1
        await socket.close()

    run(scenario)


def test_resync_over_too_many_events_answers_with_a_snapshot() -> None:
    table = make_table()
    base = table.last_sequence
    append_events(table.pk, *(public("note", index=index) for index in range(realtime.MAXIMUM_EVENTS_PER_MESSAGE + 5)))

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/")
        snapshot = await socket.receive()
        await socket.send({"type": "resync", "since": 0})
        answer = await socket.receive()
        assert answer["type"] == "snapshot"
        assert answer["sequence"] == snapshot["sequence"] == base + realtime.MAXIMUM_EVENTS_PER_MESSAGE + 5
        await socket.close()

    run(scenario)
