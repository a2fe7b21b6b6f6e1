"""Demo tournaments (idempotent): a turbo multi-table tournament a few minutes after start-up and one every half hour
after it for the next hours (the "Turbo €1" series), two Sit & Gos that open the next one as they start (FEE-01,
FEE-02 prices), a 5-handed Sit & Go satellite whose pool buys one seat in the next turbo (TRN-37; a seat it cannot
give as a registration is a ticket for the series), a 5-handed progressive bounty Sit & Go (TRN-41, TRN-42), and a
phased tournament (TRN-45): a Phase 2 a few hours ahead fed by two Phase 1 flights starting soon, with 2-minute
levels, each ending after its level 6 — a new set once the last one's Phase 2 has started or is over; and, every hour,
a re-buy tournament with an add-on (TRN-39, FEE-03) and a re-entry tournament (TRN-40), each its own series."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

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
PHASED = "Main Event €10"
"""The demo phased tournament's name: its Phase 2 is "Main Event €10 – Phase 2", its flights "… – Flight A" and "B"."""
PHASE_TWO_AHEAD = timedelta(hours=3)
FLIGHTS_AHEAD = (timedelta(minutes=10), timedelta(minutes=40))
FLIGHT_FINAL_LEVEL = 6
"""The flights' last level: with 2-minute levels a flight plays 12 minutes, then its survivors go to Phase 2."""
REBUY_SERIES = "Re-buy €1"
REENTRY_SERIES = "Re-entry €4"
HOURLY = timedelta(hours=1)
HOURLY_AHEAD = 2
"""How many of each hourly demo tournament (re-buy, re-entry) are kept ahead."""
REBUY_FIRST_START = timedelta(minutes=15)
REENTRY_FIRST_START = timedelta(minutes=45)


def seed_demo(write: Callable[[str], None]) -> None:
    now = timezone.now()
    live = (TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING)
    series, _ = TournamentSeries.objects.get_or_create(
        name=TURBO_SERIES, defaults={"description": "The demo turbos, every half hour."}
    )
    created = _series_keep_ahead(
        series,
        "Turbo €1 – {start:%H:%M} UTC",
        now=now,
        first_start=FIRST_START,
        every=EVERY,
        ahead=SCHEDULED_AHEAD,
        buy_in=MULTI_TABLE_PRICE_PRESETS[0].prize_contribution_cents,
        fee=MULTI_TABLE_PRICE_PRESETS[0].fee_cents,
        guarantee=5_000,
        late_registration_levels=2,
        synchronized_breaks=True,
    )
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
    created += _phased_tournament_seed(now)
    created += _hourly_series_seed(now)
    write(f"Tournaments: {created} demo tournaments scheduled or opened.")


def _phased_tournament_seed(now: datetime) -> int:
    """TRN-45: a Phase 2 ``PHASE_TWO_AHEAD`` from now with two flights starting soon, unless a demo Phase 2 is still
    to start; returns how many tournaments were created."""
    phase_two_name = f"{PHASED} – Phase 2"
    waiting = (TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING)
    if Tournament.objects.filter(name=phase_two_name, is_phase_two=True, status__in=waiting).exists():
        return 0
    price = MULTI_TABLE_PRICE_PRESETS[2]  # €9 + €1: the flights' buy-ins form Phase 2's prize pool
    phase_two = tournament_create(
        name=phase_two_name,
        kind=TournamentKind.SCHEDULED,
        starts_at=(now + PHASE_TWO_AHEAD).replace(second=0, microsecond=0),
        buy_in=0,
        fee=0,
        is_phase_two=True,
        table_size=6,
        structure=TURBO_MULTI_TABLE_STRUCTURE,
    )
    for letter, ahead in zip("AB", FLIGHTS_AHEAD, strict=True):
        tournament_create(
            name=f"{PHASED} – Flight {letter}",
            kind=TournamentKind.SCHEDULED,
            starts_at=(now + ahead).replace(second=0, microsecond=0),
            buy_in=price.prize_contribution_cents,
            fee=price.fee_cents,
            table_size=6,
            late_registration_levels=2,
            structure=TURBO_MULTI_TABLE_STRUCTURE,
            phase_two=phase_two,
            final_level=FLIGHT_FINAL_LEVEL,
        )
    return 1 + len(FLIGHTS_AHEAD)


def _hourly_series_seed(now: datetime) -> int:
    """Keep ``HOURLY_AHEAD`` tournaments of each hourly demo series scheduled: a re-buy tournament with an add-on
    (TRN-39: re-buys for the first three levels while at or below the starting stack, at most three, with a fee on
    each, FEE-03) and a re-entry tournament (TRN-40: two re-entries within late registration). Returns how many
    tournaments were created."""
    created = 0
    rebuy_price = MULTI_TABLE_PRICE_PRESETS[0]  # €0.90 + €0.10
    reentry_price = MULTI_TABLE_PRICE_PRESETS[1]  # €3.60 + €0.40
    stack = TURBO_MULTI_TABLE_STRUCTURE.starting_stack
    plans: tuple[tuple[str, str, timedelta, dict[str, Any]], ...] = (
        (
            REBUY_SERIES,
            "Re-buy €1 – {start:%H:%M} UTC",
            REBUY_FIRST_START,
            {
                "buy_in": rebuy_price.prize_contribution_cents,
                "fee": rebuy_price.fee_cents,
                "rebuy_levels": 3,
                "rebuy_maximum": 3,
                "rebuy_stack_threshold": stack,
                "rebuy_buy_in": rebuy_price.prize_contribution_cents,
                "rebuy_fee": rebuy_price.fee_cents,
                "rebuy_chips": stack,
                "add_on_allowed": True,
                "add_on_buy_in": rebuy_price.prize_contribution_cents,
                "add_on_fee": rebuy_price.fee_cents,
                "add_on_chips": stack,
            },
        ),
        (
            REENTRY_SERIES,
            "Re-entry €4 – {start:%H:%M} UTC",
            REENTRY_FIRST_START,
            {
                "buy_in": reentry_price.prize_contribution_cents,
                "fee": reentry_price.fee_cents,
                "late_registration_levels": 3,
                "re_entries_maximum": 2,
            },
        ),
    )
    for series_name, title, first_start, terms in plans:
        series, _ = TournamentSeries.objects.get_or_create(
            name=series_name, defaults={"description": f"The demo {series_name} tournaments, every hour."}
        )
        created += _series_keep_ahead(
            series, title, now=now, first_start=first_start, every=HOURLY, ahead=HOURLY_AHEAD, **terms
        )
    return created


def _series_keep_ahead(
    series: TournamentSeries,
    title: str,
    *,
    now: datetime,
    first_start: timedelta,
    every: timedelta,
    ahead: int,
    **terms: Any,
) -> int:
    """Keep ``ahead`` scheduled six-handed turbo tournaments of ``series`` still to start, ``every`` apart after the
    last one (the first ``first_start`` from now), named by ``title`` (``{start}``: the start); returns how many were
    created."""
    upcoming = list(
        Tournament.objects.filter(
            series=series, status__in=(TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING), starts_at__gt=now
        ).order_by("starts_at")
    )
    last = upcoming[-1].starts_at if upcoming else None
    start = last + every if last is not None else now + first_start
    for _ in range(ahead - len(upcoming)):
        start = start.replace(second=0, microsecond=0)
        tournament_create(
            name=title.format(start=start),
            kind=TournamentKind.SCHEDULED,
            starts_at=start,
            table_size=6,
            structure=TURBO_MULTI_TABLE_STRUCTURE,
            series=series,
            **terms,
        )
        start += every
    return max(0, ahead - len(upcoming))
