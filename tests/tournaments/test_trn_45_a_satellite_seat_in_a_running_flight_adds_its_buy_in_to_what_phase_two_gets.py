"""TRN-45 with TRN-37 / AMB-54: a satellite winner seated in a running flight after its registration closed adds the
seat's buy-in to the flight's prize pool — which still pays no prize and goes whole to Phase 2 when the flight ends."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db import transaction

from tests.tournaments.phases_support import flight, phase_two, play_flight, register
from tests.tournaments.support import START, fresh, player
from tournaments.services import money, tournaments_advance_all
from tournaments.services.registration import registration_take_locked
from tournaments.services.running import tournament_lock

pytestmark = pytest.mark.django_db


def test_a_satellite_seat_in_a_running_flight_goes_to_phase_two_with_the_flights_pool_trn_45_trn_37() -> None:
    target = phase_two()
    first = flight(target, START + timedelta(minutes=30), buy_in=1_000, fee=100)
    register(first, [player(cash=100_000) for _ in range(4)])
    assert first.starts_at is not None
    tournaments_advance_all(now=first.starts_at)
    assert fresh(first).registration_closed_at is not None
    winner = player(cash=100_000)
    with transaction.atomic():
        locked = tournament_lock(first.pk)
        registration_take_locked(
            locked, winner, first.starts_at + timedelta(seconds=30), random.Random(1), after_late_registration=True
        )
    seated = fresh(first)
    assert seated.prize_pool == 5_000
    assert seated.prizes == []  # a flight pays no prizes, also after a late seat
    play_flight(first)
    assert money.prize_pool_account(target).balance == 5_000
    assert fresh(target).carried_prize_money == 5_000
