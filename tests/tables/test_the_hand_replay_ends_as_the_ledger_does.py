"""A hand's replay ends with the stacks the ledger holds: after the rake for a settled hand (RAKE-07, RAKE-08), back at
the start for a cancelled one (CASH-23), with no chips left in the middle."""

from __future__ import annotations

import pytest

from games.models import Hand, HandPlayer
from games.runtime.history import hand_replay
from games.runtime.recovery import hand_cancel
from games.services import hand_act
from tests.tables.support import START, acting_user, check_or_call_down, deal, open_table, player, seat_players

pytestmark = pytest.mark.django_db


def _end_stacks(hand: Hand) -> dict[int, int]:
    return {row.seat_number: int(row.end_stack or 0) for row in HandPlayer.objects.filter(hand=hand)}


def test_rake_07_the_replay_takes_the_rake_and_ends_on_the_settled_stacks() -> None:
    table = open_table()
    users = [player() for _ in range(3)]
    seat_players(table, users, 1000)
    hand = deal(table)
    check_or_call_down(table)
    hand.refresh_from_db()
    assert hand.rake > 0

    steps = hand_replay(hand, users[0])["steps"]

    raked = [step for step in steps if step["kind"] == "hand_settled"]
    assert len(raked) == 1
    assert raked[0]["rake"] == hand.rake
    assert sum(raked[0]["rake_per_pot"]) == hand.rake
    final = steps[-1]
    assert final["kind"] == "result"
    assert final["stacks"] == _end_stacks(hand)
    assert sum(final["stacks"].values()) == 3 * 1000 - hand.rake
    assert final["pot"] == 0


def test_cash_23_the_replay_of_a_cancelled_hand_ends_with_every_stack_back_and_nothing_in_the_pot() -> None:
    table = open_table()
    users = [player() for _ in range(3)]
    seat_players(table, users, 1000)
    hand = deal(table)
    hand_act(table, acting_user(table), "raise_to", 30, now=START)
    assert hand_cancel(hand.pk, reason="Dealer error, cancelled by support", now=START)
    hand.refresh_from_db()

    steps = hand_replay(hand, users[0])["steps"]

    cancelled = [step for step in steps if step["kind"] == "hand_cancelled"]
    assert [step["reason"] for step in cancelled] == ["Dealer error, cancelled by support"]
    final = steps[-1]
    assert final["stacks"] == {seat: 1000 for seat in final["stacks"]}
    assert final["stacks"] == _end_stacks(hand)
    assert (final["pot"], final["bets"], final["pots"]) == (0, {}, [])
