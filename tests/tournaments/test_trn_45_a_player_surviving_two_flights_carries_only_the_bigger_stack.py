"""TRN-45 / ET-13: a player may play several Phase 1 flights; surviving more than one, only the biggest stack goes to
Phase 2 — the stacks are not added together — whichever flight ends first."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.tournaments.phases_support import flight, phase_two, play_flight, register
from tests.tournaments.support import START, player
from tournaments.models import EntryStatus, TournamentEntry
from tournaments.rules.phases import Carried, Survivor, stack_to_carry, stacks_to_carry

pytestmark = pytest.mark.django_db


def test_the_bigger_stack_is_carried_whichever_flight_ends_first_never_the_sum_trn_45_et_13() -> None:
    smaller_first = stack_to_carry(Carried(7, 1, 5_000), Survivor(7, 2, 8_000))
    assert smaller_first == Carried(7, 2, 8_000)
    assert stack_to_carry(Carried(7, 1, 8_000), Survivor(7, 2, 5_000)) is None  # the bigger one stays
    assert stack_to_carry(Carried(7, 1, 8_000), Survivor(7, 2, 8_000)) is None  # equal: the one carried stays
    assert stack_to_carry(None, Survivor(7, 2, 0)) is None  # no chips, nothing to carry
    together = stacks_to_carry([Survivor(7, 1, 5_000), Survivor(8, 2, 3_000), Survivor(7, 3, 9_000)])
    assert together == {7: Carried(7, 3, 9_000), 8: Carried(8, 2, 3_000)}


def test_a_player_surviving_two_flights_is_in_phase_two_once_with_the_bigger_of_the_two_stacks_trn_45() -> None:
    target = phase_two()
    early = flight(target, START + timedelta(minutes=30))
    late = flight(target, START + timedelta(minutes=60))
    both = [player(cash=100_000) for _ in range(6)]
    register(early, both + [player(cash=100_000) for _ in range(4)])
    register(late, both + [player(cash=100_000) for _ in range(4)])

    play_flight(early, seed=3)
    after_early = {
        entry.user_id: entry.carried_chips
        for entry in TournamentEntry.objects.filter(tournament=target, status=EntryStatus.REGISTERED)
    }
    play_flight(late, seed=11)

    early_stacks = {
        entry.user_id: entry for entry in TournamentEntry.objects.filter(tournament=early, status=EntryStatus.QUALIFIED)
    }
    late_stacks = {
        entry.user_id: entry for entry in TournamentEntry.objects.filter(tournament=late, status=EntryStatus.QUALIFIED)
    }
    carried = {
        entry.user_id: entry
        for entry in TournamentEntry.objects.filter(tournament=target, status=EntryStatus.REGISTERED)
    }
    survived_both = set(early_stacks) & set(late_stacks)
    assert survived_both, "some players survive both flights"
    assert set(carried) == set(early_stacks) | set(late_stacks)  # one Phase 2 entry per player
    for user_id in survived_both:
        first, second = early_stacks[user_id], late_stacks[user_id]
        bigger = first if (first.carried_chips or 0) >= (second.carried_chips or 0) else second
        assert carried[user_id].carried_chips == max(first.carried_chips or 0, second.carried_chips or 0)
        assert carried[user_id].carried_chips != (first.carried_chips or 0) + (second.carried_chips or 0)
        assert carried[user_id].carried_from_id == bigger.pk
        assert after_early[user_id] == first.carried_chips  # after the first flight it carried that stack
    for user_id in set(carried) - survived_both:
        only = early_stacks.get(user_id) or late_stacks[user_id]
        assert carried[user_id].carried_chips == only.carried_chips
    assert TournamentEntry.objects.filter(tournament=target).count() == len(carried)
