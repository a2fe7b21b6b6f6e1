"""Issue 27, step 4 (TB-04): when the acting player's clock switches to their timebank, the ``turn`` event carries no
legal actions and the socket reads them (``readside.turn_of``). During a hand held in memory by a table actor that
read is answered from the hand log in Redis: the player to act now, their legal actions and the timebank's deadline
— not the hand as it was dealt, which is all PostgreSQL holds until the hand ends."""

from __future__ import annotations

import pytest

from games.models import ClockPhase, Hand
from games.runtime import readside
from tests.tables.held_hands import held_hand

pytestmark = pytest.mark.django_db


def test_the_turn_of_the_player_whose_timebank_started_mid_hand_comes_from_the_hand_log_tb_04() -> None:
    held = held_hand(players=3, seed=9)
    held.move()
    live = held.actor.live
    assert live is not None
    durable = Hand.objects.get(pk=live.hand.pk)
    assert durable.acting_seat != live.hand.acting_seat  # PostgreSQL still has the hand as it was dealt
    deadline = held.actor.deadline()
    assert deadline is not None
    switched = held.actor.clock(deadline)
    assert switched is not None
    assert live.hand.clock_phase == ClockPhase.TIMEBANK
    acting = live.hand.acting_seat
    assert acting is not None

    turn = readside.turn_of(held.table, held.by_seat[acting])

    assert turn is not None
    assert turn["hand_id"] == live.hand.pk
    assert turn["seat"] == acting
    assert turn["legal_actions"] == live.state.legal_actions().to_dict()
    assert turn["deadline"] == live.hand.action_deadline.isoformat()
    assert readside.turn_of(held.table, held.by_seat[durable.acting_seat]) is None
