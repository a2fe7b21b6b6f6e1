"""One round trip per action of a hand held in memory (issue 27; ``games.runtime.hand_log``
``hand_log_append_and_send_async``): the script that numbers and logs the action's events also publishes their
broadcast and answers the action (the reply on the sender's key, the ``XACK`` of its inbox entry). The broadcast was
made before the call for the numbers the caller expects; when the log hands out others (a durable append at the
table took a number meanwhile) it is not sent, and the caller publishes the rows as numbered. A fenced append (a later
owner has the table) logs, publishes and answers nothing."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
import redis
import redis.asyncio as redis_asyncio
from django.conf import settings

from games.runtime import inbox
from games.runtime.broadcasts import table_channel
from games.runtime.errors import OwnershipLost
from games.runtime.events import NewEvent
from games.runtime.hand_log import (
    LoggedEvent,
    Sent,
    hand_log_append,
    hand_log_append_and_send_async,
    hand_log_reserve,
    hand_log_rows_after,
)
from poker_site.core.redis_clients import blocking_client

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
_table_ids = itertools.count(930_000_001)


@pytest.fixture
def listener() -> Iterator[redis.client.PubSub]:
    subscriber = blocking_client().pubsub(ignore_subscribe_messages=True)
    yield subscriber
    subscriber.close()


def _inbox_entry(table_id: int) -> inbox.InboxMessage:
    """An ``act`` entry of the table's stream, read by the owners' group (pending until acknowledged)."""
    client = blocking_client()
    stream = inbox.stream_key(table_id)
    client.xgroup_create(stream, inbox.STREAM_GROUP, id="0", mkstream=True)
    sent = inbox.InboxMessage(table_id, f"request-{table_id}", 5, "act", {"action": "call"}, expires_at=2e9)
    client.xadd(stream, sent.encoded())
    ((_stream, ((entry_id, data),)),) = client.xreadgroup(inbox.STREAM_GROUP, "owner", {stream: ">"})  # type: ignore[misc]
    return inbox.InboxMessage.decoded(table_id, entry_id, data)


def _next_message(listener: redis.client.PubSub, seconds: float) -> Any:
    """The next published message within ``seconds`` (None: none); the subscription's confirmation is skipped."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        message = listener.get_message(timeout=left)
        if message is not None:
            return message
    return None


def _broadcast(table_id: int) -> Any:
    def made(rows: list[LoggedEvent]) -> tuple[str, str]:
        return table_channel(table_id), json.dumps([row.sequence for row in rows])

    return made


def _send(table_id: int, floor: int, events: list[NewEvent], **options: Any) -> Sent:
    async def send() -> Sent:
        client = redis_asyncio.Redis.from_url(settings.REDIS_URL)
        try:
            return await hand_log_append_and_send_async(client, table_id, floor, events, NOW, **options)
        finally:
            await client.aclose()

    return asyncio.run(send())


def _pending(table_id: int) -> int:
    return int(blocking_client().xpending(inbox.stream_key(table_id), inbox.STREAM_GROUP)["pending"])


def test_the_events_are_logged_published_and_answered_in_the_one_call(listener: redis.client.PubSub) -> None:
    table_id = next(_table_ids)
    message = _inbox_entry(table_id)
    listener.subscribe(table_channel(table_id))
    answer = inbox.answer_to(message, inbox.Reply(True))

    sent = _send(
        table_id,
        40,
        [NewEvent("action_taken", {"seat": 1}), NewEvent("turn", {"seat": 2})],
        expected_first=41,
        broadcast=_broadcast(table_id),
        answer=answer,
    )

    assert (sent.broadcast_sent, sent.answered) == (True, True)
    assert [row.sequence for row in sent.rows] == [41, 42]
    assert [(row.sequence, row.kind) for row in hand_log_rows_after(table_id, 0)] == [
        (41, "action_taken"),
        (42, "turn"),
    ]
    published = _next_message(listener, 5)
    assert published is not None
    assert json.loads(published["data"]) == [41, 42]  # the broadcast made for the numbers the log handed out
    assert 0 < blocking_client().ttl(answer.reply_key) <= inbox.REPLY_KEEP_SECONDS
    assert inbox.Reply.decoded(blocking_client().lpop(answer.reply_key)) == inbox.Reply(True)  # type: ignore[arg-type]
    assert _pending(table_id) == 0  # the entry was acknowledged


def test_a_number_taken_meanwhile_keeps_the_broadcast_back_for_the_caller_and_still_logs_and_answers(
    listener: redis.client.PubSub,
) -> None:
    table_id = next(_table_ids)
    message = _inbox_entry(table_id)
    listener.subscribe(table_channel(table_id))
    hand_log_append(table_id, 40, [NewEvent("turn")], NOW)  # 41, as the caller knows
    assert hand_log_reserve(table_id, 40, 1) == 42  # a chat line written durably during the hand

    sent = _send(
        table_id,
        40,
        [NewEvent("action_taken")],
        expected_first=42,
        broadcast=_broadcast(table_id),
        answer=inbox.answer_to(message, inbox.Reply(True)),
    )

    assert (sent.broadcast_sent, sent.answered) == (False, True)
    assert [row.sequence for row in sent.rows] == [43]  # the caller publishes these, as numbered
    assert _next_message(listener, 0.5) is None
    assert [row.sequence for row in hand_log_rows_after(table_id, 0)] == [41, 43]
    assert _pending(table_id) == 0


def test_without_a_broadcast_or_an_answer_it_is_the_plain_append() -> None:
    table_id = next(_table_ids)

    sent = _send(table_id, 7, [NewEvent("turn")], expected_first=8, broadcast=None, answer=None)

    assert (sent.broadcast_sent, sent.answered) == (False, False)
    assert [row.sequence for row in sent.rows] == [8]
    assert [row.sequence for row in hand_log_rows_after(table_id, 0)] == [8]


def test_a_fenced_append_publishes_and_answers_nothing(listener: redis.client.PubSub) -> None:
    table_id = next(_table_ids)
    message = _inbox_entry(table_id)
    store = inbox.lease_store(blocking_client())
    first = store.acquire(table_id, "first")
    assert first is not None
    store.release(first)
    assert store.acquire(table_id, "second") is not None  # taken over: the first owner's epoch is stale
    listener.subscribe(table_channel(table_id))
    answer = inbox.answer_to(message, inbox.Reply(True))

    with pytest.raises(OwnershipLost):
        _send(
            table_id,
            40,
            [NewEvent("action_taken")],
            expected_first=41,
            broadcast=_broadcast(table_id),
            answer=answer,
            owner_epoch=first.epoch,
        )

    assert hand_log_rows_after(table_id, 0) == []
    assert _next_message(listener, 0.5) is None
    assert blocking_client().llen(answer.reply_key) == 0
    assert _pending(table_id) == 1  # left for the next owner to refuse ("taken over")
