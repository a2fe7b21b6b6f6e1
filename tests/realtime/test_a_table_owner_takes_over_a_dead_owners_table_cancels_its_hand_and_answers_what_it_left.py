"""Takeover in one process (issue 27, steps 3 and 5): an owner died mid-hand, holding its lease, after reading a
player's action from the table's stream and before answering it. When its lease expires a live ``TableOwner``
acquires the table with a later epoch, cancels the hand in progress with every stack back to its start-of-hand amount
(CASH-23, TRN-33) — the action the dead owner had applied is written at the number its hand log gave it, before the
cancellation, and the one it left pending is not —, answers the pending action with ``table_taken_over`` (its sender
still waits), and deals on; ``wallet_reconcile`` passes."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
import redis
from django.conf import settings as django_settings
from django.core.management import call_command
from django.utils import timezone

from games.models import Hand, HandEvent, HandStatus, Seat, Table
from games.runtime import inbox
from games.runtime.actor import DealNext, TableActor
from games.runtime.owner import TAKEN_OVER
from games.runtime.play import PlayerAction
from games.runtime.recovery import table_take_over
from tests.realtime.table_owner import table_owner_running, wait_for
from tests.tables.support import open_table, player, seat_players, stack

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_live_owner_takes_the_table_over_rolls_the_hand_back_answers_the_pending_action_and_deals(
    settings: Any,
) -> None:
    settings.TABLE_ACTORS = True
    settings.TABLE_LEASE_MILLISECONDS = 1_000
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(3)]
    seat_players(table, users, 1_000)
    by_seat = {seat.number: seat.user for seat in Seat.objects.filter(table=table, user__isnull=False)}
    client = redis.Redis.from_url(django_settings.REDIS_URL)
    store = inbox.lease_store(client)

    # The owner that will die: acquires the table, deals, applies an action in memory.
    lease = store.acquire(table.pk, "dead-owner")
    assert lease is not None
    table_take_over(table.pk, lease.epoch)
    dead = TableActor(table.pk, shuffler=lambda: random.Random(11), owner_epoch=lease.epoch)
    hand = dead.handle(DealNext(), timezone.now()).hand_started
    assert hand is not None
    assert dead.live is not None
    acting = dead.live.hand.acting_seat
    assert acting is not None
    applied = dead.handle(PlayerAction(by_seat[acting].pk, "call"), timezone.now())
    assert applied.refused is None
    # It reads the next player's action from the stream, and dies before answering it.
    stream = inbox.stream_key(table.pk)
    client.xgroup_create(stream, inbox.STREAM_GROUP, id="0", mkstream=True)
    next_to_act = dead.live.hand.acting_seat
    assert next_to_act is not None
    pending = inbox.InboxMessage(
        table.pk, "pending-request", by_seat[next_to_act].pk, "act", {"action": "fold"}, time.time() + 60
    )
    client.xadd(stream, pending.encoded())  # type: ignore[arg-type]
    assert client.xreadgroup(inbox.STREAM_GROUP, "dead-owner", {stream: ">"}, count=1)
    del dead

    with table_owner_running("survivor"):
        answer = client.blpop([inbox.reply_key("pending-request")], timeout=30)
        assert answer is not None
        reply = inbox.Reply.decoded(answer[1])
        assert (reply.ok, reply.code) == (False, TAKEN_OVER)
        cancelled = Hand.objects.get(pk=hand.pk)
        assert cancelled.status == HandStatus.CANCELLED
        cancellation = HandEvent.objects.get(hand=hand, kind="hand_cancelled")
        actions = HandEvent.objects.filter(hand=hand, kind="action_taken")
        assert [(row.sequence, row.payload["seat"]) for row in actions] == [(applied.sequences[0], acting)]
        assert cancellation.sequence > max(applied.sequences)
        assert [stack(table, user) for user in users] == [1_000, 1_000, 1_000]
        assert Table.objects.get(pk=table.pk).owner_epoch == lease.epoch + 1
        assert store.owner_of(table.pk) == "survivor"
        assert not client.xpending(stream, inbox.STREAM_GROUP)["pending"]
        wait_for(
            lambda: Hand.objects.filter(table=table, status=HandStatus.RUNNING).exclude(pk=hand.pk).exists(),
            "the survivor's deal",
        )
    client.close()
    call_command("wallet_reconcile")
