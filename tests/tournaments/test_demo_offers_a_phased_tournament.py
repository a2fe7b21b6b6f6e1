"""The demo data (``manage.py seed_demo``) offers a phased tournament (TRN-45), once: a Phase 2 a few hours ahead with
no buy-in of its own, fed by two Phase 1 flights that start soon with short levels and end after a set level — each a
definition the back office accepts; seeding again adds nothing, and the turbos are still kept six ahead."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments.demo import PHASED, SCHEDULED_AHEAD, TURBO_SERIES, seed_demo
from tournaments.models import Tournament, TournamentLevel
from tournaments.services.definition import phases_definition_problems

pytestmark = pytest.mark.django_db


def test_the_demo_offers_a_phase_two_hours_ahead_with_two_flights_starting_soon_trn_45() -> None:
    lines: list[str] = []
    seed_demo(lines.append)
    seed_demo(lines.append)
    now = timezone.now()
    (target,) = Tournament.objects.filter(is_phase_two=True, name__startswith=PHASED)
    assert target.starts_at is not None
    assert now + timedelta(hours=2) < target.starts_at < now + timedelta(hours=4)
    assert target.entry_price == 0
    flights = list(Tournament.objects.filter(phase_two=target).order_by("starts_at"))
    assert len(flights) == 2
    for flight in flights:
        assert flight.starts_at is not None
        assert now < flight.starts_at < now + timedelta(hours=1)
        assert flight.entry_price > 0
        assert flight.final_level is not None
        levels = TournamentLevel.objects.filter(tournament=flight)
        assert levels.count() >= flight.final_level
        assert all(level.duration_seconds <= 300 for level in levels)
        assert flight.late_registration_levels < flight.final_level
        assert phases_definition_problems(lambda name, row=flight: getattr(row, name), flight.pk) == []
    assert Tournament.objects.filter(series__name=TURBO_SERIES).count() == SCHEDULED_AHEAD
