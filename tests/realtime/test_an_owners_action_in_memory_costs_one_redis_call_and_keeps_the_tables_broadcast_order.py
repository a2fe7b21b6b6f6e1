"""A table owner's Redis work for a player's action in a hand held in memory is one call (issue 27): the script that
numbers and logs the action's events also publishes their broadcast and answers the player (reply and ``XACK``),
instead of the append, a publish through the process's publisher thread and a reply pipeline. The broadcast still
reaches the sockets in order: while something this process published at the table waits in its publisher's queue, the
action's broadcast is queued behind it instead."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
import redis

from games.models import Seat, Table
from games.runtime import commands, realtime
from games.runtime.broadcasts import table_channel
from games.runtime.owner import TableOwner
from games.runtime.protocol import ClientMessage
from poker_site.core import publish
from poker_site.core.redis_clients import blocking_client
from tests.realtime.table_owner import table_owner_running, wait_for
from tests.tables.support import open_table, player, seat_players

pytestmark = pytest.mark.django_db(transaction=True)

READS = {"XREADGROUP", "XAUTOCLAIM", "XPENDING"}
"""The owner's reading of its tables' streams, which goes on beside the actions."""


def _table_with_a_hand(owner: TableOwner, table: Table) -> tuple[dict[int, Any], Callable[[], int | None]]:
    by_seat = {seat.number: seat.user for seat in Seat.objects.filter(table=table, user__isnull=False)}
    wait_for(lambda: Table.objects.get(pk=table.pk).current_hand_id, "the owner's first deal")

    def acting_seat() -> int | None:
        owned = owner.tables.get(table.pk)
        live = owned.actor.live if owned is not None else None
        return live.hand.acting_seat if live is not None and not live.state.is_complete else None

    wait_for(acting_seat, "the first player to act")
    return by_seat, acting_seat


def _act(by_seat: dict[int, Any], acting_seat: Callable[[], int | None], table: Table, action: str) -> None:
    seat = acting_seat()
    assert seat is not None
    assert commands.execute(by_seat[seat], table, ClientMessage("act", {"action": action})) == {}


def _listening_from_now(table: Table) -> redis.client.PubSub:
    """A subscriber to the table's broadcasts that receives nothing published before (the deal's):
    everything this process queued so far is sent first."""
    assert publish.flush(30)
    listener = blocking_client().pubsub(ignore_subscribe_messages=True)
    listener.subscribe(table_channel(table.pk))
    return listener


def _messages(listener: redis.client.PubSub, count: int, seconds: float = 30.0) -> list[str]:
    """The next ``count`` messages published on the listener's channel (the subscription's confirmation skipped)."""
    received: list[str] = []
    deadline = time.monotonic() + seconds
    while len(received) < count and time.monotonic() < deadline:
        message = listener.get_message(timeout=0.2)
        if message is not None:
            received.append(message["data"].decode())
    assert len(received) == count, f"{len(received)} of {count} messages within {seconds} s: {received}"
    return received


def _is_an_action_taken(data: str) -> bool:
    if not data.startswith("{"):
        return False
    payload = json.loads(data)
    return payload.get("kind") == "events" and any(event["type"] == "action_taken" for event in payload["public"])


def _message_where(listener: redis.client.PubSub, wanted: Callable[[str], bool], seconds: float = 30.0) -> str:
    """The first message on the listener's channel that is ``wanted`` (those before it skipped)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = listener.get_message(timeout=0.2)
        if message is not None and wanted(message["data"].decode()):
            return str(message["data"].decode())
    raise AssertionError(f"no such message within {seconds} s")


def test_an_action_is_logged_published_and_answered_in_one_redis_call(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.TABLE_ACTORS = True
    table = open_table("holdem", "NL10")
    seat_players(table, [player() for _ in range(3)], 1_000)
    queued: list[str] = []
    queue_as_before = realtime.publish_to_redis
    monkeypatch.setattr(
        realtime, "publish_to_redis", lambda channel, data: (queued.append(channel), queue_as_before(channel, data))
    )

    with table_owner_running() as owner:
        by_seat, acting_seat = _table_with_a_hand(owner, table)
        listener = _listening_from_now(table)
        _act(by_seat, acting_seat, table, "call")  # the first loads the script into this client's cache
        # Its answer can reach us before its broadcast is queued (when the deal's was still queued, the broadcast goes
        # through the publisher after the answer): wait until it has gone out, so the measured action finds nothing
        # of this table queued.
        _message_where(listener, _is_an_action_taken)
        assert publish.flush(30)
        sent: list[str] = []
        pipelines: list[object] = []
        execute_as_before, pipeline_as_before = owner.redis.execute_command, owner.redis.pipeline

        async def execute_command(*arguments: Any, **options: Any) -> Any:
            sent.append(str(arguments[0]).upper())
            return await execute_as_before(*arguments, **options)

        def pipeline(*arguments: Any, **options: Any) -> Any:
            pipelines.append(arguments)
            return pipeline_as_before(*arguments, **options)

        monkeypatch.setattr(owner.redis, "execute_command", execute_command)
        monkeypatch.setattr(owner.redis, "pipeline", pipeline)
        queued.clear()

        _act(by_seat, acting_seat, table, "call")

        (broadcast,) = _messages(listener, 1)
        assert [command for command in sent if command not in READS] == ["EVALSHA"]
        assert pipelines == []  # no reply pipeline ...
        assert table_channel(table.pk) not in queued  # ... and nothing through the publisher thread
        payload = json.loads(broadcast)
        assert payload["kind"] == "events"
        assert payload["public"][0]["type"] == "action_taken"
        assert payload["first_sequence"] == payload["public"][0]["sequence"]
    listener.close()


def test_an_actions_broadcast_waits_behind_what_the_process_still_has_queued_for_the_table(settings: Any) -> None:
    settings.TABLE_ACTORS = True
    table = open_table("holdem", "NL10")
    seat_players(table, [player() for _ in range(3)], 1_000)
    gate = threading.Event()

    async def held() -> None:
        gate.wait(60)  # the publisher's thread is busy (a slow Redis, a burst of other tables' messages)

    with table_owner_running() as owner:
        by_seat, acting_seat = _table_with_a_hand(owner, table)
        listener = _listening_from_now(table)
        publish.publisher().submit(held)
        publish.publish_to_redis(table_channel(table.pk), "queued before the action")
        try:
            _act(by_seat, acting_seat, table, "call")  # answered though the publisher is held
        finally:
            gate.set()
        first, second = _messages(listener, 2)
        assert first == "queued before the action"
        assert json.loads(second)["public"][0]["type"] == "action_taken"
    listener.close()
