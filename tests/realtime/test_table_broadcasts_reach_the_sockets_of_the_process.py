"""Cash-table broadcasts go from the committing process to each server loop's one subscription, which hands every
socket on the table the view meant for it (games.runtime.broadcasts): the spectators' frame is encoded once by the
publisher,
sockets of other tables get nothing, and a lost subscription is taken up again with every socket catching up."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import redis
from channels.db import database_sync_to_async
from django.conf import settings

from games.runtime import broadcasts, consumers
from games.runtime.broadcasts import TableBroadcasts, table_broadcasts, table_channel
from tests.realtime.conftest import make_table, open_socket, run
from tests.realtime.events_helper import append_events, hole_cards, public

pytestmark = pytest.mark.django_db(transaction=True)


def test_spectators_get_the_events_frame_the_publisher_encoded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    table = make_table()
    published_frames: list[str] = []
    consumer_encoded_events: list[str] = []
    original_frame, original_encode = broadcasts.events_frame, consumers.encode

    def counting_frame(table_id: int, events: Any) -> str:
        published_frames.append(original_frame(table_id, events))
        return published_frames[-1]

    def counting_encode(message: dict[str, Any]) -> str:
        if message.get("type") == "events":
            consumer_encoded_events.append(original_encode(message))
        return original_encode(message)

    monkeypatch.setattr(broadcasts, "events_frame", counting_frame)
    monkeypatch.setattr(consumers, "encode", counting_encode)

    async def scenario() -> None:
        sockets = [await open_socket(f"/ws/tables/{table.pk}/") for _ in range(3)]
        for socket in sockets:
            assert (await socket.receive())["type"] == "snapshot"
        await database_sync_to_async(append_events)(
            table.pk, public("seat_taken", seat=1), public("seat_taken", seat=2)
        )
        frames = []
        for socket in sockets:
            message = await socket.receive_until(lambda m: m["type"] == "events")
            assert [event["sequence"] for event in message["events"]] == [
                table.last_sequence + 1,
                table.last_sequence + 2,
            ]
            frames.append(socket.received[-1])
        assert frames[0] == frames[1] == frames[2]
        assert json.loads(frames[0])["table_id"] == table.pk
        assert published_frames == [frames[0]]
        assert consumer_encoded_events == []
        for socket in sockets:
            await socket.close()

    run(scenario)


def test_a_socket_on_another_table_receives_none_of_its_broadcasts() -> None:
    table, other = make_table(name="Played"), make_table(name="Watched")

    async def scenario() -> None:
        watcher = await open_socket(f"/ws/tables/{other.pk}/")
        assert (await watcher.receive())["type"] == "snapshot"
        player_side = await open_socket(f"/ws/tables/{table.pk}/")
        assert (await player_side.receive())["type"] == "snapshot"
        await database_sync_to_async(append_events)(table.pk, public("seat_taken", seat=3))
        assert (await player_side.receive_until(lambda m: m["type"] == "events"))["table_id"] == table.pk
        assert await watcher.nothing_more(0.5)
        await watcher.close()
        await player_side.close()

    run(scenario)


def test_an_owner_gets_their_private_view_and_the_others_the_spectator_view(django_user_model: Any) -> None:
    table = make_table()
    owner = django_user_model.objects.create_user(username="owner", password="a long password 1")

    async def scenario() -> None:
        owner_socket = await open_socket(f"/ws/tables/{table.pk}/", owner)
        spectator = await open_socket(f"/ws/tables/{table.pk}/")
        for socket in (owner_socket, spectator):
            assert (await socket.receive())["type"] == "snapshot"
        await database_sync_to_async(append_events)(
            table.pk, hole_cards(1, owner.pk, ["As", "Kd"]), public("blinds_posted", seat=2)
        )
        mine = await owner_socket.receive_until(lambda m: m["type"] == "events")
        theirs = await spectator.receive_until(lambda m: m["type"] == "events")
        assert [event["sequence"] for event in mine["events"]] == [event["sequence"] for event in theirs["events"]]
        assert mine["events"][0]["cards"] == ["As", "Kd"]
        assert "cards" not in theirs["events"][0]
        assert "As" not in spectator.received[-1]
        assert await owner_socket.nothing_more(0.3)  # one copy of the range, not the spectator copy as well
        await owner_socket.close()
        await spectator.close()

    run(scenario)


def test_a_broadcast_for_a_table_without_sockets_here_is_dropped_undecoded() -> None:
    async def scenario() -> None:
        channel = table_channel(987654).encode()
        assert TableBroadcasts().dispatch(channel, b"not even json") == 0
        assert TableBroadcasts().dispatch(b"someone-else:channel", b"{}") == 0

    run(scenario)


def kill_the_subscription() -> int:
    """Close every table-broadcast subscription of this test run from the Redis side; returns how many."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    killed = 0
    for entry in client.client_list():
        if entry.get("name") == TableBroadcasts.client_name():
            killed += int(client.client_kill_filter(_id=entry["id"]))
    return killed


def test_after_the_subscription_is_lost_the_sockets_catch_up_and_broadcasts_resume() -> None:
    table = make_table()

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/")
        assert (await socket.receive())["type"] == "snapshot"
        assert table_broadcasts().subscribed.is_set()

        assert await database_sync_to_async(kill_the_subscription)() == 1
        # Committed while the subscription is down: its broadcast is lost, the socket must read it itself.
        await database_sync_to_async(append_events)(table.pk, public("seat_taken", seat=4))
        caught_up = await socket.receive_until(lambda m: m["type"] == "events", timeout=15)
        assert [event["sequence"] for event in caught_up["events"]] == [table.last_sequence + 1]

        await database_sync_to_async(append_events)(table.pk, public("seat_taken", seat=5))
        live = await socket.receive_until(lambda m: m["type"] == "events", timeout=15)
        assert [event["sequence"] for event in live["events"]] == [table.last_sequence + 2]
        await socket.close()

    run(scenario)


def test_a_broadcast_waits_behind_the_command_the_socket_is_handling(monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket handles its mailbox one message at a time, as Channels did: a broadcast that arrives while a command
    is being handled is sent after that command's reply."""
    table = make_table()
    original_snapshot = consumers.TableConsumer.send_snapshot
    snapshots = 0

    async def slow_snapshot(self: Any, request_id: str | None = None) -> None:
        nonlocal snapshots
        snapshots += 1
        if snapshots == 2:  # the requested one: a broadcast is committed while it is being made
            await database_sync_to_async(append_events)(table.pk, public("seat_taken", seat=6))
            await asyncio.sleep(0.3)
        await original_snapshot(self, request_id)

    monkeypatch.setattr(consumers.TableConsumer, "send_snapshot", slow_snapshot)

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/")
        assert (await socket.receive())["type"] == "snapshot"
        await socket.send({"type": "snapshot", "request_id": "s1"})
        first = await socket.receive()
        assert first["type"] == "snapshot"
        assert first["request_id"] == "s1"
        assert first["sequence"] == table.last_sequence + 1  # the snapshot already holds the new event
        assert await socket.nothing_more(0.5)  # so the broadcast handled after it adds nothing
        await socket.close()

    run(scenario)


def test_a_socket_whose_handler_failed_gets_no_more_broadcasts(monkeypatch: pytest.MonkeyPatch) -> None:
    table = make_table()

    async def failing_table_events(self: Any, message: dict[str, Any]) -> None:
        raise RuntimeError("a handler bug")

    monkeypatch.setattr(consumers.TableConsumer, "table_events", failing_table_events)

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/")
        assert (await socket.receive())["type"] == "snapshot"
        assert len(table_broadcasts().sockets[table.pk]) == 1
        await database_sync_to_async(append_events)(table.pk, public("seat_taken", seat=1))
        for _ in range(100):
            if table.pk not in table_broadcasts().sockets:
                break
            await asyncio.sleep(0.05)
        assert table.pk not in table_broadcasts().sockets

    run(scenario)


class Listener:
    """A stand-in table socket that keeps what it is handed."""

    user_id = None

    def __init__(self) -> None:
        self.delivered: list[dict[str, Any]] = []

    def deliver(self, message: dict[str, Any]) -> None:
        self.delivered.append(message)


def test_each_event_loop_has_its_own_broadcasts_and_closed_loops_are_forgotten() -> None:
    async def current() -> TableBroadcasts:
        instance, listener = table_broadcasts(), Listener()
        await instance.join(1, listener)  # starts the loop's reader, whose task refers to the loop
        instance.leave(1, listener)
        return instance

    async def closed_loops_known() -> int:
        table_broadcasts()
        return sum(loop.is_closed() for loop in broadcasts._by_loop)

    first = run(current)
    assert first is not run(current)
    assert run(closed_loops_known) == 0
