"""CASH-17 with table actors (issue 27, step 3): sit-out limits stay with the ticker, which removes the seats whose
limit passed durably even while the table's owner holds a hand in memory (a seat sitting out is not dealt in, so the
hand does not need it). The seat the actor still holds in memory must not come back at the hand's end: the hand ends
with its settlement, the removed player's stack is back in their balance, the seat stays empty, the table's log has
no gap or number used twice, and the ledger reconciles — whether or not a command made the actor read its seats
again in between."""

from __future__ import annotations

import functools
import random
from datetime import timedelta

import pytest
from django.core.management import call_command

from games.models import Hand, HandEvent, HandStatus, Seat, SeatStatus
from games.runtime import ticks
from games.runtime.actor import DealNext, TableActor, TableCommand
from games.runtime.owner import command_run
from games.runtime.play import PlayerAction
from games.runtime.sitting_out import seat_sit_out
from tests.tables.command_twins import Clock
from tests.tables.support import cash, open_table, player, seat_players

pytestmark = pytest.mark.django_db(transaction=True)

BUY_IN = 1_000


@pytest.mark.parametrize("seats_read_again", [False, True], ids=["held-seats-stale", "held-seats-read-again"])
def test_the_ticker_removes_a_sitting_out_seat_mid_hand_and_the_actors_hand_end_leaves_it_removed(
    clock: Clock, monkeypatch: pytest.MonkeyPatch, seats_read_again: bool
) -> None:
    monkeypatch.setattr(ticks, "startup_recovery_pending", False)
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(4)]
    seat_players(table, users, BUY_IN)
    away = users[3]
    seat_sit_out(away, table, now=clock.now)
    deadline = Seat.objects.get(table=table, user=away).sit_out_deadline
    assert deadline is not None
    cash_before = cash(away)

    actor = TableActor(table.pk, shuffler=lambda: random.Random(12))
    clock.advance(5)
    assert actor.handle(DealNext(), clock.now).hand_started is not None
    live = actor.live
    assert live is not None
    assert 4 in live.seats
    assert str(4) not in live.hand.participants
    clock.now = deadline + timedelta(seconds=1)

    ticks.cash_tables_tick(clock.now)

    removed = Seat.objects.get(table=table, number=4)
    assert removed.user_id is None
    assert removed.status == SeatStatus.EMPTY
    assert cash(away) == cash_before + BUY_IN
    assert actor.live is live
    assert live.hand.status == HandStatus.RUNNING
    if seats_read_again:
        sitting = users[0]
        command = TableCommand(
            sitting.pk, "sit_out", functools.partial(command_run, table.pk, sitting.pk, "sit_out", {})
        )
        assert actor.handle(command, clock.advance(1)).command_refused is None
        assert live.seats[4].user_id is None
    while actor.live is not None:
        legal = live.state.legal_actions()
        assert legal is not None
        assert live.hand.acting_seat is not None
        acting_user = next(user for user in users if user.pk == live.seats[live.hand.acting_seat].user_id)
        outcome = actor.handle(PlayerAction(acting_user.pk, "check" if legal.check else "call"), clock.advance(1))
        assert outcome.refused is None, outcome.refused

    hand = Hand.objects.get(pk=live.hand.pk)
    assert hand.status == HandStatus.FINISHED
    assert hand.settlement_id is not None
    removed = Seat.objects.get(table=table, number=4)
    assert removed.user_id is None
    assert removed.status == SeatStatus.EMPTY
    assert cash(away) == cash_before + BUY_IN
    numbers = list(HandEvent.objects.filter(table=table).order_by("sequence").values_list("sequence", flat=True))
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
    call_command("wallet_reconcile")
