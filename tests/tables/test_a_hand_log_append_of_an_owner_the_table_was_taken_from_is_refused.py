"""Fencing of the hand log (issue 27; ``games.runtime.hand_log``): an owner's append carries its epoch, and once a later
owner has acquired the table (a higher epoch in Redis: ``games.runtime.leases``) the append is refused with
``OwnershipLost``, numbering and logging nothing — an owner paused past its lease cannot publish its cancelled hand's
events or leave them in the log among its successor's (CASH-23). At the owner's own epoch, or without an epoch in
Redis, the append goes ahead. A table actor of the old owner applies nothing visible: nothing is logged or published,
whether it applies the action in a database thread (``handle``) or on its owner's event loop (``act_in_memory``)."""

from __future__ import annotations

import asyncio
import functools
import itertools
import random
import time
from datetime import UTC, datetime, timedelta

import pytest
import redis.asyncio as redis_asyncio
from django.conf import settings

from games.models import Seat
from games.runtime import inbox
from games.runtime.actor import DealNext, TableActor
from games.runtime.broadcasts import table_channel
from games.runtime.errors import OwnershipLost
from games.runtime.events import NewEvent
from games.runtime.hand_log import (
    counter_key,
    hand_log_append,
    hand_log_append_and_send_async,
    hand_log_append_async,
    hand_log_rows_after,
)
from games.runtime.play import PlayerAction
from games.runtime.recovery import table_take_over
from poker_site.core.redis_clients import blocking_client
from tests.tables.support import START, open_table, player, seat_players

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
_table_ids = itertools.count(910_000_001)


def test_an_append_under_an_older_epoch_than_the_tables_is_refused_and_logs_nothing() -> None:
    table_id = next(_table_ids)
    store = inbox.lease_store(blocking_client())
    first = store.acquire(table_id, "first")
    assert first is not None
    assert [
        row.sequence for row in hand_log_append(table_id, 10, [NewEvent("turn")], NOW, owner_epoch=first.epoch)
    ] == [11]
    store.release(first)
    second = store.acquire(table_id, "second")  # the table was taken over: its epoch moved on
    assert second is not None
    assert second.epoch == first.epoch + 1

    with pytest.raises(OwnershipLost) as lost:
        hand_log_append(table_id, 10, [NewEvent("action_taken"), NewEvent("turn")], NOW, owner_epoch=first.epoch)
    assert (lost.value.epoch, lost.value.current) == (first.epoch, second.epoch)
    assert [row.sequence for row in hand_log_rows_after(table_id, 0)] == [11]
    assert blocking_client().get(counter_key(table_id)) == b"11"

    appended = hand_log_append(table_id, 10, [NewEvent("turn")], NOW, owner_epoch=second.epoch)
    assert [row.sequence for row in appended] == [12]


def test_without_an_epoch_in_redis_or_an_owner_the_append_is_not_fenced() -> None:
    table_id = next(_table_ids)
    assert [row.sequence for row in hand_log_append(table_id, 0, [NewEvent("turn")], NOW, owner_epoch=7)] == [1]
    assert [row.sequence for row in hand_log_append(table_id, 0, [NewEvent("turn")], NOW)] == [2]


def test_an_append_from_an_event_loop_is_fenced_the_same_way() -> None:
    table_id = next(_table_ids)
    store = inbox.lease_store(blocking_client())
    first = store.acquire(table_id, "first")
    assert first is not None

    async def appends() -> tuple[list[int], OwnershipLost]:
        client = redis_asyncio.Redis.from_url(settings.REDIS_URL)
        try:
            rows = await hand_log_append_async(client, table_id, 10, [NewEvent("turn")], NOW, owner_epoch=first.epoch)
            store.release(first)
            assert store.acquire(table_id, "second") is not None
            with pytest.raises(OwnershipLost) as lost:
                await hand_log_append_async(client, table_id, 10, [NewEvent("fold")], NOW, owner_epoch=first.epoch)
            return [row.sequence for row in rows], lost.value
        finally:
            await client.aclose()

    sequences, lost = asyncio.run(appends())
    assert sequences == [11]
    assert (lost.epoch, lost.current) == (first.epoch, first.epoch + 1)
    assert [row.sequence for row in hand_log_rows_after(table_id, 0)] == [11]


def _old_owners_actor_after_a_takeover(*, end_actions_later: bool = False) -> tuple[TableActor, int, list[int]]:
    """An actor dealt a hand under one owner's lease, after another owner took the table over: the actor, the user
    to act in its hand, and the numbers logged so far."""
    table = open_table("holdem", "NL10")
    seat_players(table, [player() for _ in range(3)], 1_000)
    by_seat = {seat.number: seat.user for seat in Seat.objects.filter(table=table, user__isnull=False)}
    store = inbox.lease_store(blocking_client())
    now = START + timedelta(minutes=1)
    old_lease = store.acquire(table.pk, "old")
    assert old_lease is not None
    table_take_over(table.pk, old_lease.epoch, now=now)
    old = TableActor(
        table.pk,
        shuffler=lambda: random.Random(5),
        owner_epoch=old_lease.epoch,
        end_actions_later=end_actions_later,
    )
    assert old.handle(DealNext(), now).hand_started is not None
    assert old.live is not None
    acting = old.live.hand.acting_seat
    assert acting is not None
    logged = [row.sequence for row in hand_log_rows_after(table.pk, 0)]

    # The old owner pauses past its lease; another process acquires the table (epoch + 1) and takes it over.
    assert store.owner_of(table.pk) == "old"
    blocking_client().delete(store.owner_key(table.pk))  # the lease expired
    new_lease = store.acquire(table.pk, "new")
    assert new_lease is not None
    table_take_over(table.pk, new_lease.epoch, now=now + timedelta(seconds=11))
    return old, by_seat[acting].pk, logged


@pytest.mark.django_db
def test_the_old_owners_actor_publishes_nothing_after_a_takeover(announcements: list[tuple[object, ...]]) -> None:
    old, acting_user, logged = _old_owners_actor_after_a_takeover()
    published = len(announcements)

    with pytest.raises(OwnershipLost):  # applied in memory, refused at the log: never seen by anyone
        old.handle(PlayerAction(acting_user, "fold"), START + timedelta(minutes=1, seconds=12))
    assert [row.sequence for row in hand_log_rows_after(old.table_id, 0)] == logged
    assert len(announcements) == published


@pytest.mark.django_db
def test_the_old_owners_actor_publishes_nothing_after_a_takeover_from_its_event_loop_either(
    announcements: list[tuple[object, ...]],
) -> None:
    old, acting_user, logged = _old_owners_actor_after_a_takeover(end_actions_later=True)
    published = len(announcements)
    action = PlayerAction(acting_user, "fold")
    assert old.acts_in_memory(action)
    listener = blocking_client().pubsub(ignore_subscribe_messages=True)
    listener.subscribe(table_channel(old.table_id))
    answer = inbox.Answer(f"{inbox.key_prefix()}:reply:old-owner", '{"ok": true}', 30, "", "", "")

    async def act() -> None:
        client = redis_asyncio.Redis.from_url(settings.REDIS_URL)
        try:
            await old.act_in_memory(
                action,
                START + timedelta(minutes=1, seconds=12),
                functools.partial(hand_log_append_and_send_async, client),
                answer,
            )
        finally:
            await client.aclose()

    try:
        with pytest.raises(OwnershipLost):
            asyncio.run(act())
        assert [row.sequence for row in hand_log_rows_after(old.table_id, 0)] == logged
        assert len(announcements) == published
        deadline = time.monotonic() + 0.5
        while time.monotonic() < deadline:  # the subscription's confirmation is skipped (read as None)
            assert listener.get_message(timeout=0.1) is None  # not sent with the refused append either
        assert blocking_client().llen(answer.reply_key) == 0  # nor answered: the owner answers "taken over"
    finally:
        listener.close()
