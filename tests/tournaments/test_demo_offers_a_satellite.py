"""The demo data (``manage.py seed_demo``) offers a satellite into the next demo turbo (TRN-37), once."""

from __future__ import annotations

import pytest

from tournaments.definitions import payouts_for
from tournaments.demo import SATELLITE, TURBO_SERIES, seed_demo
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_the_demo_satellite_buys_one_seat_in_the_next_turbo_of_its_series() -> None:
    lines: list[str] = []
    seed_demo(lines.append)
    seed_demo(lines.append)
    (satellite,) = Tournament.objects.filter(name=SATELLITE)
    target = satellite.satellite_target
    assert target is not None
    assert target.series is not None
    assert target.series.name == TURBO_SERIES
    full = payouts_for(satellite, 5, 5 * satellite.buy_in, provisional=False)
    assert full.prizes == (target.entry_price,)
