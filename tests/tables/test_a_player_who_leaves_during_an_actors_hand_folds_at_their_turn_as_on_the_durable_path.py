"""CASH-08 with table actors (issue 27, step 3): a player who leaves during a hand the table's owner holds in memory
plays no further part in it — they fold at once when it is their turn, otherwise when their turn comes — and leave
with their stack when it ends, exactly as on the per-action durable path: the same events at the same numbers, the
same settlement, seats and stacks, and the ledger reconciles."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.models import Seat
from tests.tables.command_twins import Clock, CommandTwins

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_player_to_act_who_leaves_folds_now_and_one_waiting_folds_at_their_turn(clock: Clock) -> None:
    twins = CommandTwins(clock, players=4, seed=11)
    twins.deal()
    acting = twins.acting_seat()
    assert acting is not None
    waiting = next(number for number in (1, 2, 3, 4) if number != acting and number != (acting % 4) + 1)

    durable, memory = twins.command(waiting, "leave")  # not their turn: they fold when it comes
    assert durable == memory
    assert twins.acting_seat() == acting
    durable, memory = twins.command(acting, "leave")  # their turn: they fold now
    assert durable == memory
    assert twins.acting_seat() != acting
    assert any(event.kind == "action_taken" for event in twins.outcomes[-1].events)  # the fold, applied in memory

    twins.play_to_the_end()

    twins.assert_alike()
    for table in (twins.durable, twins.memory):
        for number in (waiting, acting):
            assert Seat.objects.get(table=table, number=number).user_id is None  # left with the hand's end
    call_command("wallet_reconcile")
