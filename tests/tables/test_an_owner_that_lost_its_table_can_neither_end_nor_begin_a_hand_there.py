"""Fencing (issue 27, step 5): a table owner that was paused past its lease and wakes up after another process took
the table over cannot commit the end of its hand, nor deal a new one: ``recovery.table_take_over`` writes the new
owner's epoch to ``Table.owner_epoch`` and cancels the hand in progress (CASH-23, TRN-33: start-of-hand stacks), and
the old owner's ``hand_end`` / ``hand_begin`` carry its older epoch and are refused under the table lock, writing
nothing."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from games.models import Hand, HandEvent, HandStatus, Seat, Table
from games.runtime.actor import DealNext, TableActor
from games.runtime.errors import OwnershipLost
from games.runtime.play import PlayerAction
from games.runtime.recovery import table_take_over
from tests.tables.support import START, money_in_table_accounts, open_table, player, seat_players, stack

pytestmark = pytest.mark.django_db


def test_the_old_owners_hand_end_is_refused_after_a_takeover_and_the_stacks_stay_at_their_start_cash_23() -> None:
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(3)]
    seat_players(table, users, 1_000)
    money_before = money_in_table_accounts()
    now = START + timedelta(minutes=1)
    assert table_take_over(table.pk, 1, now=now) is None  # the first owner: no hand in progress to cancel
    old = TableActor(table.pk, shuffler=lambda: random.Random(5), owner_epoch=1)
    dealt = old.handle(DealNext(), now)
    hand = dealt.hand_started
    assert hand is not None
    assert old.live is not None
    by_seat = {seat.number: seat.user for seat in Seat.objects.filter(table=table, user__isnull=False)}

    # The old owner pauses; its lease expires; a second process acquires the table with epoch 2 and takes it over.
    assert table_take_over(table.pk, 2, now=now + timedelta(seconds=8)) == hand.pk
    assert Hand.objects.get(pk=hand.pk).status == HandStatus.CANCELLED
    assert Table.objects.get(pk=table.pk).owner_epoch == 2
    events_after_takeover = HandEvent.objects.filter(table=table).count()

    # The old owner wakes up and plays its hand in memory to the end: the end's transaction refuses it.
    moment = now + timedelta(seconds=9)
    first = old.live.hand.acting_seat
    assert first is not None
    assert old.handle(PlayerAction(by_seat[first].pk, "fold"), moment).refused is None  # in memory: nothing to fence
    last = old.live.hand.acting_seat
    assert last is not None
    with pytest.raises(OwnershipLost):  # the second fold of three ends the hand: its end is refused
        old.handle(PlayerAction(by_seat[last].pk, "fold"), moment + timedelta(seconds=1))
    assert Hand.objects.get(pk=hand.pk).status == HandStatus.CANCELLED
    assert HandEvent.objects.filter(table=table).count() == events_after_takeover
    assert not HandEvent.objects.filter(hand=hand, kind="action_taken").exists()
    assert [stack(table, user) for user in users] == [1_000, 1_000, 1_000]
    assert money_in_table_accounts() == money_before

    # Nor can it deal the next hand; the new owner can.
    with pytest.raises(OwnershipLost):
        old.handle(DealNext(), moment)
    assert Table.objects.get(pk=table.pk).current_hand_id is None
    new = TableActor(table.pk, shuffler=lambda: random.Random(6), owner_epoch=2)
    assert new.handle(DealNext(), moment).hand_started is not None


def test_a_takeover_with_an_epoch_no_later_than_the_tables_is_refused() -> None:
    table = open_table("holdem", "NL10")
    assert table_take_over(table.pk, 3, now=START) is None
    with pytest.raises(OwnershipLost):
        table_take_over(table.pk, 3, now=START)
    with pytest.raises(OwnershipLost):
        table_take_over(table.pk, 2, now=START)
    assert Table.objects.get(pk=table.pk).owner_epoch == 3
