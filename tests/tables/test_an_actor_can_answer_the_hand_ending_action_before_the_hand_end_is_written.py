"""A table actor's owner answers the action that completes a hand as soon as it is applied, logged and published, as
it answers every action of a hand held in memory (``TableActor.end_actions_later``, as the owner loop makes its
actors), and writes the hand's durable end right after (``end_pending``): nothing else reaches the table before the
end is written, and the end is the one it would have written at once — the settlement, the events at the numbers
they were published with, the next deal (issue 27; a crash between the answer and the end rolls the hand back like
any hand in progress, CASH-23)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import Hand, HandEvent, HandStatus
from games.runtime.actor import DealNext
from games.runtime.play import PlayerAction
from tests.tables.held_hands import HeldHand, Published, held_hand, published  # noqa: F401 - the fixture
from tests.tables.support import money_in_table_accounts

pytestmark = pytest.mark.django_db


def _last_action(held: HeldHand) -> PlayerAction:
    """Fold round to the last two players, then return the fold that ends the hand (not yet applied)."""
    while True:
        live = held.actor.live
        assert live is not None
        assert live.hand.acting_seat is not None
        fold = PlayerAction(held.by_seat[live.hand.acting_seat].pk, "fold")
        if len(live.state.live_seats) == 2:
            return fold
        held.now += timedelta(seconds=1)
        assert held.actor.handle(fold, held.now).refused is None


def test_the_hand_ending_action_is_answered_first_and_the_end_written_after_as_it_would_be_at_once(
    published: Published,  # noqa: F811 - the fixture
) -> None:
    held = held_hand(players=3, seed=6)
    money_before = money_in_table_accounts()
    hand_id = held.actor.live.hand.pk if held.actor.live is not None else None
    action = _last_action(held)
    held.now += timedelta(seconds=1)
    held.actor.end_actions_later = True  # as the owner loop makes its actors

    answered = held.actor.handle(action, held.now)

    assert answered.refused is None
    assert answered.hand_ending
    assert answered.hand_ended is None
    assert answered.sequences  # published before the answer
    assert Hand.objects.get(pk=hand_id).status == HandStatus.RUNNING  # not written yet
    assert held.actor.live is None
    assert held.actor.deadline() is None

    ended = held.actor.end_pending()

    assert ended is not None
    assert ended.pk == hand_id
    assert Hand.objects.get(pk=hand_id).status == HandStatus.FINISHED
    logged = [number for _first, _last, rows in published.ranges for number in (row.sequence for row in rows)]
    written = set(HandEvent.objects.filter(hand_id=hand_id).values_list("sequence", flat=True))
    assert set(answered.sequences) <= written
    assert set(logged) <= written | set(range(0, held.durable_before_deal + 1))
    assert money_in_table_accounts() == money_before  # no flop, no rake: the winner took the blinds
    assert held.actor.next_deal_take()[0]
    assert held.actor.end_pending() is None  # ended once


def test_a_message_reaching_the_actor_before_the_pending_end_ends_the_hand_first() -> None:
    held = held_hand(players=3, seed=7)
    hand_id = held.actor.live.hand.pk if held.actor.live is not None else None
    action = _last_action(held)
    held.now += timedelta(seconds=1)
    held.actor.end_actions_later = True  # as the owner loop makes its actors
    assert held.actor.handle(action, held.now).hand_ending

    dealt = held.actor.handle(DealNext(), held.now + timedelta(seconds=10))

    assert Hand.objects.get(pk=hand_id).status == HandStatus.FINISHED
    assert held.actor.ending is None
    assert dealt.hand_started is not None  # the next hand, dealt after the end was written
    assert dealt.hand_started.pk != hand_id
