"""Issue 27, step 4: while a table actor holds a hand in memory, PostgreSQL holds the hand as it was dealt. The
per-action durable path must not play that stale copy: an action sent to ``hand_act`` is refused (it goes to the
table's owner) and the ticker's ``hand_timeout`` leaves the clock to the owner (``TableActor.clock``), writing
nothing either way."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import Hand, HandEvent
from games.runtime.errors import NotYourTurn
from games.services import hand_act, hand_timeout
from tests.tables.held_hands import held_hand

pytestmark = pytest.mark.django_db


def test_hand_act_and_hand_timeout_leave_a_hand_held_in_memory_alone() -> None:
    held = held_hand(players=3, seed=4)
    held.move()
    live = held.actor.live
    assert live is not None
    assert live.hand.acting_seat is not None
    durable = Hand.objects.get(pk=live.hand.pk)
    rows = HandEvent.objects.filter(table=held.table).count()

    with pytest.raises(NotYourTurn):
        hand_act(held.table, held.by_seat[live.hand.acting_seat], "call", now=held.now)
    assert durable.action_deadline is not None
    assert not hand_timeout(durable.pk, now=durable.action_deadline + timedelta(hours=1))

    assert HandEvent.objects.filter(table=held.table).count() == rows
    assert Hand.objects.get(pk=durable.pk).version == durable.version
    assert held.move().refused is None  # the actor plays on
