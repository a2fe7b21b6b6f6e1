"""Demo data: one open UTH table with limits (Ante €1–€500, Trips €1–€100), its first round due at once."""

from __future__ import annotations

from collections.abc import Callable

from django.utils import timezone

from games.uth.models import UthTable

DEMO_TABLE_NAME = "Ultimate Texas Hold'em — Aurora"


def seed_demo(write: Callable[[str], None]) -> None:
    table, created = UthTable.objects.get_or_create(
        name=DEMO_TABLE_NAME,
        defaults={
            "ante_minimum": 100,
            "ante_maximum": 50_000,
            "trips_minimum": 100,
            "trips_maximum": 10_000,
            "chip_values": [100, 500, 1_000, 2_500, 10_000],
            "betting_seconds": 15,
            "decision_seconds": 10,
            "result_seconds": 6,
            "next_round_at": timezone.now(),
        },
    )
    if (
        not created
        and table.is_open
        and table.next_round_at is None
        and not table.rounds.exclude(phase__in=("settled", "cancelled")).exists()
    ):
        table.next_round_at = timezone.now()
        table.save(update_fields=["next_round_at"])
    write(f'Ultimate Texas Hold\'em: table "{table.name}" at /uth/{table.pk}/ (Ante €1–€500, Trips €1–€100)')
