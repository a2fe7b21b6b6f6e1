"""TRN-45: when a flight's final level is over, no table deals a new hand, but a hand in progress is played to its end;
the flight ends — and its players go through to Phase 2 — only after that hand."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model

from games.models import Hand, HandStatus
from games.runtime.engine_state import hand_engine_state
from games.services import hand_act, hand_start
from tests.tournaments.phases_support import check_or_call, flight, phase_two, register
from tests.tournaments.support import START, fresh, open_tables, player
from tournaments.models import EntryStatus, TournamentEntry, TournamentStatus
from tournaments.services import tournaments_advance_all

pytestmark = pytest.mark.django_db


def test_the_hand_in_progress_is_played_out_and_no_new_hand_is_dealt_before_the_flight_ends_trn_45() -> None:
    target = phase_two()
    first = flight(target, START + timedelta(minutes=30), final_level=1, table_size=4)
    register(first, [player(cash=100_000) for _ in range(8)])
    assert first.starts_at is not None
    tournaments_advance_all(now=first.starts_at)
    busy, idle = open_tables(fresh(first))
    just_before = first.starts_at + timedelta(minutes=5) - timedelta(seconds=5)  # level 1, the last, ends at 5 min
    hand = hand_start(busy, now=just_before, shuffler=random.Random(1))
    assert hand is not None

    level_two = first.starts_at + timedelta(minutes=5, seconds=5)
    tournaments_advance_all(now=level_two)
    assert fresh(first).status == TournamentStatus.RUNNING  # the hand at the busy table is still being played
    assert hand_start(idle, now=level_two, shuffler=random.Random(2)) is None  # no new hand after level 1
    assert not Hand.objects.filter(table=idle).exists()

    while hand.status == HandStatus.RUNNING and hand.acting_seat is not None:
        action, amount = check_or_call(hand_engine_state(hand), hand.acting_seat)
        actor = get_user_model().objects.get(pk=hand.participants[str(hand.acting_seat)]["user"])
        hand_act(busy, actor, action, amount, now=level_two)
        hand = Hand.objects.get(pk=hand.pk)
    assert hand.status != HandStatus.RUNNING
    assert hand.level_number == 1
    assert hand_start(busy, now=level_two + timedelta(seconds=3), shuffler=random.Random(3)) is None

    tournaments_advance_all(now=level_two + timedelta(seconds=3))
    assert fresh(first).status == TournamentStatus.FINISHED
    carried = list(
        TournamentEntry.objects.filter(tournament=target, status=EntryStatus.REGISTERED).values_list(
            "carried_chips", flat=True
        )
    )
    assert len(carried) == 8  # nobody can be knocked out by one checked-down hand at 10/20
    assert sum(chips or 0 for chips in carried) == 8 * first.starting_stack
