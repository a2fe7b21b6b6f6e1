"""A table actor (issue 27, step 3, ``games.runtime.actor``) holds one table's hand in memory and applies its messages
in the order they arrived: the deal and the end are durable transactions, the actions in between touch no database;
a refused message changes nothing; the acting player's clock is the actor's; a process that dies mid-hand leaves the
start-of-hand stacks, which the recovery restores (CASH-23)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest

from games.models import ClockPhase, Hand, HandEvent, HandStatus, Seat
from games.runtime.actor import DealNext, TableActor
from games.runtime.errors import NotYourTurn
from games.runtime.play import PlayerAction
from games.runtime.recovery import hand_cancel
from tests.tables.support import START, money_in_table_accounts, open_table, player, seat_players, stack

pytestmark = pytest.mark.django_db


def test_an_actor_deals_applies_the_actions_in_arrival_order_and_ends_the_hand_durably(
    django_assert_num_queries: Any,
) -> None:
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(3)]
    seat_players(table, users, 1_000)
    money_before = money_in_table_accounts()
    actor = TableActor(table.pk, shuffler=lambda: random.Random(3))
    now = START + timedelta(minutes=1)

    actor.post(DealNext(), now)
    (dealt,) = actor.drain()
    hand = dealt.hand_started
    assert hand is not None
    assert actor.live is not None
    assert Hand.objects.get(pk=hand.pk).status == HandStatus.RUNNING
    durable_after_deal = HandEvent.objects.filter(table=table).count()

    by_seat = {seat.number: seat.user for seat in Seat.objects.filter(table=table, user__isnull=False)}
    first = actor.live.hand.acting_seat
    assert first is not None
    waiting = next(number for number in by_seat if number != first)
    # Three messages arrive: someone out of turn, the player to act raising, then the same out-of-turn fold again.
    actor.post(PlayerAction(by_seat[waiting].pk, "fold"), now)
    actor.post(PlayerAction(by_seat[first].pk, "raise_to", 60), now + timedelta(seconds=1))
    with django_assert_num_queries(0):
        refused, raised = actor.drain()
    assert isinstance(refused.refused, NotYourTurn)
    assert not refused.changed
    assert refused.events == ()
    assert raised.refused is None
    assert raised.events[0].kind == "action_taken"
    assert raised.events[0].payload["resolved"] == "raise"
    assert raised.events[-1].kind == "turn"
    assert HandEvent.objects.filter(table=table).count() == durable_after_deal  # nothing written during the hand

    # The next player's clock runs out: the actor's clock gives them their timebank (TB-04), no database write.
    deadline = actor.deadline()
    assert deadline is not None
    assert actor.clock(deadline - timedelta(milliseconds=1)) is None
    switched = actor.clock(deadline)
    assert switched is not None
    assert actor.live.hand.clock_phase == ClockPhase.TIMEBANK

    # Everyone else folds: the last fold ends the hand in one transaction, with every event of the hand in order.
    ended = None
    moment = deadline
    while actor.live is not None:
        moment += timedelta(seconds=1)
        seat = actor.live.hand.acting_seat
        assert seat is not None
        actor.post(PlayerAction(by_seat[seat].pk, "fold"), moment)
        (ended,) = actor.drain()
        assert ended.refused is None
    assert ended is not None
    assert ended.hand_ended is not None
    assert ended.hand_ended.pk == hand.pk
    finished = Hand.objects.get(pk=hand.pk)
    assert finished.status == HandStatus.FINISHED
    sequences = list(HandEvent.objects.filter(table=table).order_by("sequence").values_list("sequence", flat=True))
    assert sequences == list(range(sequences[0], sequences[0] + len(sequences)))
    kinds = list(HandEvent.objects.filter(hand=hand).order_by("sequence").values_list("kind", flat=True))
    assert kinds.count("action_taken") == 3  # the raise and two folds, written at the hand's end
    assert kinds[-1] == "hand_settled"
    assert money_in_table_accounts() == money_before  # no rake without a flop; the winner took the blinds
    assert stack(table, by_seat[first]) > 1_000


def test_a_process_that_dies_mid_hand_leaves_the_start_of_hand_stacks_for_the_recovery_cash_23() -> None:
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(3)]
    seat_players(table, users, 1_000)
    actor = TableActor(table.pk, shuffler=lambda: random.Random(4))
    now = START + timedelta(minutes=1)
    dealt = actor.handle(DealNext(), now)
    assert dealt.hand_started is not None
    assert actor.live is not None
    by_seat = {seat.number: seat.user for seat in Seat.objects.filter(table=table, user__isnull=False)}
    seat = actor.live.hand.acting_seat
    assert seat is not None
    shoved = actor.handle(PlayerAction(by_seat[seat].pk, "all_in"), now)
    assert shoved.changed
    del actor  # the owner dies: the actions applied in memory are only in the hand log

    assert hand_cancel(dealt.hand_started.pk, now=now + timedelta(seconds=5))
    assert Hand.objects.get(pk=dealt.hand_started.pk).status == HandStatus.CANCELLED
    assert [stack(table, user) for user in users] == [1_000, 1_000, 1_000]
    # The recovery keeps the logged action in the cancelled hand's record, at its number, before the cancellation.
    actions = HandEvent.objects.filter(hand=dealt.hand_started, kind="action_taken")
    assert [row.sequence for row in actions] == [shoved.sequences[0]]
    assert HandEvent.objects.get(hand=dealt.hand_started, kind="hand_cancelled").sequence > max(shoved.sequences)
