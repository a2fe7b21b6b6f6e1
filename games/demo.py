"""Demo data for the cash tables: the catalogue's stakes and a few open tables per game type (idempotent)."""

from __future__ import annotations

from collections.abc import Callable

from games.cash.catalog import seed_stakes
from games.cash.seating import table_open_locked
from games.models import GameType, Table, TableStatus

DEMO_TABLES_PER_GAME = 2
"""Open tables per game type, at its lowest enabled stake, then the next one."""


def seed_demo(write: Callable[[str], None]) -> None:
    """Seed the stakes, then make sure each game type has a few open tables (idempotent)."""
    from django.utils import timezone

    now = timezone.now()
    created = seed_stakes()
    opened = 0
    for game_type in GameType.objects.filter(enabled=True).order_by("display_order"):
        stakes = [
            stake
            for stake in game_type.stakes.order_by("display_order")
            if stake.terms.filter(effective_from__lte=now).exists() and stake.terms_at(now).enabled
        ][:DEMO_TABLES_PER_GAME]
        for stake in stakes:
            if not Table.objects.filter(stake=stake, status=TableStatus.OPEN).exists():
                table_open_locked(stake, None, now)
                opened += 1
    write(f"Cash tables: {created} catalogue rows added, {opened} demo tables opened.")
