"""Demo tournaments (idempotent): a turbo multi-table tournament a few minutes after start-up and one every half hour
after it for the next hours (the "Turbo €1" series), two Sit & Gos that open the next one as they start (FEE-01,
FEE-02 prices), and a 5-handed Sit & Go satellite whose pool buys one seat in the next turbo (TRN-37; a seat it cannot
give as a registration is a ticket for the series), and a 5-handed progressive bounty Sit & Go (TRN-41, TRN-42)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.utils import timezone

from tournaments.models import BountyKind, Tournament, TournamentKind, TournamentSeries, TournamentStatus
from tournaments.rules.fees import MULTI_TABLE_PRICE_PRESETS, sit_and_go_price
from tournaments.rules.levels import TURBO_MULTI_TABLE_STRUCTURE, TURBO_SIT_AND_GO_STRUCTURE
from tournaments.services.catalog import tournament_create

FIRST_START = timedelta(minutes=5)
EVERY = timedelta(minutes=30)
SCHEDULED_AHEAD = 6
"""How many scheduled demo tournaments are kept ahead."""
TURBO_SERIES = "Turbo €1"
SATELLITE = "Satellite to the Turbo €1"
BOUNTY_SIT_AND_GO = "Progressive Bounty Sit & Go 5-handed €1 + €1"


def seed_demo(write: Callable[[str], None]) -> None:
    now = timezone.now()
    live = (TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING)
    upcoming = list(
        Tournament.objects.filter(kind=TournamentKind.SCHEDULED, status__in=live, starts_at__gt=now).order_by(
            "starts_at"
        )
    )
    created = 0
    series, _ = TournamentSeries.objects.get_or_create(
        name=TURBO_SERIES, defaults={"description": "The demo turbos, every half hour."}
    )
    start = upcoming[-1].starts_at + EVERY if upcoming and upcoming[-1].starts_at else now + FIRST_START
    for _ in range(SCHEDULED_AHEAD - len(upcoming)):
        assert start is not None
        tournament_create(
            name=f"Turbo €1 – {start:%H:%M} UTC",
            kind=TournamentKind.SCHEDULED,
            starts_at=start.replace(second=0, microsecond=0),
            buy_in=MULTI_TABLE_PRICE_PRESETS[0].prize_contribution_cents,
            fee=MULTI_TABLE_PRICE_PRESETS[0].fee_cents,
            guarantee=5_000,
            table_size=6,
            late_registration_levels=2,
            synchronized_breaks=True,
            structure=TURBO_MULTI_TABLE_STRUCTURE,
            series=series,
        )
        start += EVERY
        created += 1
    sit_and_gos = [
        ("Sit & Go 5-handed €1", 5, sit_and_go_price(5, 100)),
        ("Heads-up Sit & Go €2", 2, sit_and_go_price(2, 200)),
    ]
    for name, seats, price in sit_and_gos:
        if not Tournament.objects.filter(name=name, status=TournamentStatus.REGISTERING).exists():
            tournament_create(
                name=name,
                kind=TournamentKind.SIT_AND_GO,
                seats_to_start=seats,
                table_size=seats,
                buy_in=price.prize_contribution_cents,
                fee=price.fee_cents,
                reopens=True,
                structure=TURBO_SIT_AND_GO_STRUCTURE,
            )
            created += 1
    if not Tournament.objects.filter(name=BOUNTY_SIT_AND_GO, status=TournamentStatus.REGISTERING).exists():
        price = sit_and_go_price(5, 100)
        tournament_create(  # €1 buy-in + €1 bounty + the fee; 50/50 progressive (AMB-18)
            name=BOUNTY_SIT_AND_GO,
            kind=TournamentKind.SIT_AND_GO,
            seats_to_start=5,
            table_size=5,
            buy_in=price.prize_contribution_cents,
            fee=price.fee_cents,
            bounty_kind=BountyKind.PROGRESSIVE,
            bounty=100,
            reopens=True,
            structure=TURBO_SIT_AND_GO_STRUCTURE,
        )
        created += 1
    next_turbo = (
        Tournament.objects.filter(series=series, status__in=live, starts_at__gt=now + FIRST_START)
        .order_by("starts_at")
        .first()
    )
    if next_turbo is not None and not Tournament.objects.filter(name=SATELLITE, status__in=live).exists():
        tournament_create(  # 5 x (€0.20 + €0.02): a €1.00 pool, one seat in the next turbo (TRN-37)
            name=SATELLITE,
            kind=TournamentKind.SIT_AND_GO,
            seats_to_start=5,
            table_size=5,
            buy_in=next_turbo.entry_price // 5,
            fee=2,
            end_when_prizes_identical=True,
            satellite_target=next_turbo,
            structure=TURBO_SIT_AND_GO_STRUCTURE,
        )
        created += 1
    write(f"Tournaments: {created} demo tournaments scheduled or opened.")
