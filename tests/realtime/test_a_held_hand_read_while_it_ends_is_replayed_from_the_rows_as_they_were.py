"""A reader of a hand held in memory by a table actor (a socket's turn or snapshot: ``views.hand_in_play_now``) reads
the hand log in Redis, then the table and its hand, then the hand's durable engine events: three reads, not one
snapshot. When the hand ends between them, its end writes the logged events as rows too; the reader must replay
only the rows up to the table's sequence as it read it, not the logged actions twice ("the log contains an illegal
action: the hand is over", which closed the socket: found by ``bench_tables.py``, issue 27)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest

from games.models import Hand, HandStatus, Seat, Table
from games.runtime import views
from games.runtime.actor import DealNext, TableActor
from games.runtime.play import PlayerAction
from tests.tables.support import START, open_table, player, seat_players

pytestmark = pytest.mark.django_db


def move(actor: TableActor, users_by_seat: dict[int, Any], now: Any) -> bool:
    """The player to act checks or calls; True when that ended the hand."""
    live = actor.live
    assert live is not None
    legal = live.state.legal_actions()
    assert legal is not None
    assert live.hand.acting_seat is not None
    outcome = actor.handle(
        PlayerAction(users_by_seat[live.hand.acting_seat].pk, "check" if legal.check else "call"), now
    )
    assert outcome.refused is None
    return outcome.hand_ended is not None


def test_a_hand_that_ends_between_the_reads_is_replayed_as_it_stood_at_the_first_read() -> None:
    table = open_table("holdem", "NL10")
    seat_players(table, [player() for _ in range(3)], 1_000)
    by_seat = {seat.number: seat.user for seat in Seat.objects.filter(table=table, user__isnull=False)}
    actor = TableActor(table.pk, shuffler=lambda: random.Random(5))
    now = START + timedelta(minutes=1)
    assert actor.handle(DealNext(), now).hand_started is not None
    for _ in range(3):  # into the flop: the hand's actions are in the hand log only
        now += timedelta(seconds=1)
        assert not move(actor, by_seat, now)
    live = actor.live
    assert live is not None
    expected_actor, expected_stacks = live.state.actor, dict(live.state.stacks)

    # The reader's first two reads: the hand log, then the table with its running hand.
    logged = views._logged_rows_after(table.pk, 0)
    as_read = Table.objects.select_related("current_hand").get(pk=table.pk)
    hand = as_read.current_hand
    assert hand is not None
    assert hand.status == HandStatus.RUNNING
    # The hand ends before the reader's third read: its events become rows.
    while not move(actor, by_seat, now):
        now += timedelta(seconds=1)
    assert Hand.objects.get(pk=hand.pk).status == HandStatus.FINISHED

    state = views._hand_so_far(hand, views._held_hand_tail(as_read, hand, logged), as_read.last_sequence)

    assert state.actor == expected_actor
    assert dict(state.stacks) == expected_stacks
