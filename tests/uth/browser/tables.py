"""The UTH table a browser test plays at (the limits and clocks the tests share, each test naming what it changes), and
the waits its pages share."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games.uth.models import UthTable
from tests.browser.flows import wait_until

SHARED: dict[str, Any] = {
    "ante_minimum": 500,
    "ante_maximum": 10_000,
    "trips_minimum": 100,
    "trips_maximum": 2_500,
    "chip_values": [100, 500, 2_500],
    "betting_seconds": 12,
    "decision_seconds": 20,
    "result_seconds": 30,
}


def a_uth_table(name: str, **changed: Any) -> UthTable:
    """A new UTH table called ``name`` whose first round opens now, with :data:`SHARED`'s limits and clocks but for
    ``changed``."""
    return UthTable.objects.create(name=name, next_round_at=timezone.now(), **{**SHARED, **changed})


def wait_for_betting_time(page: Any, seconds_needed: int, timeout: int = 40_000) -> None:
    """Wait (up to ``timeout`` milliseconds) for a betting time with at least ``seconds_needed`` seconds left (an
    unused one starts again)."""
    wait_until(
        page,
        "(() => { const light = document.getElementById('uth-light').dataset.light;"
        " const left = parseInt(document.getElementById('uth-timer').textContent, 10);"
        f" return light === 'green' && left >= {seconds_needed}; }})()",
        timeout=timeout,
    )
