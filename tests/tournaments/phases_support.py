"""Helpers for the phased tournament tests (TRN-45): a Phase 2 with its Phase 1 flights, and a policy that keeps most
players in (everyone checks or calls), so a flight reaches its final level with several survivors."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from games.engine.state import HandState
from tests.tournaments.support import QUICK_LEVELS, START, play
from tournaments.models import Tournament, TournamentKind
from tournaments.services import tournament_register
from tournaments.services.catalog import tournament_create

PHASE_TWO_START = START + timedelta(hours=2)


def phase_two(starts_at: datetime = PHASE_TWO_START, **fields: Any) -> Tournament:
    """A Phase 2: no buy-in of its own (nobody registers for it), its prizes from the flights' prize pools."""
    fields.setdefault("buy_in", 0)
    fields.setdefault("fee", 0)
    fields.setdefault("structure", QUICK_LEVELS)
    fields.setdefault("name", "Main Event – Phase 2")
    return tournament_create(kind=TournamentKind.SCHEDULED, starts_at=starts_at, is_phase_two=True, **fields)


def flight(target: Tournament, starts_at: datetime, *, final_level: int = 2, **fields: Any) -> Tournament:
    """A Phase 1 flight of ``target`` ending after ``final_level``, its last level (QUICK_LEVELS: 5-minute levels)."""
    fields.setdefault("structure", QUICK_LEVELS)
    fields.setdefault("buy_in", 1_000)
    fields.setdefault("fee", 100)
    fields.setdefault("name", f"Main Event – Flight {starts_at:%H:%M}")
    return tournament_create(
        kind=TournamentKind.SCHEDULED, starts_at=starts_at, phase_two=target, final_level=final_level, **fields
    )


def check_or_call(state: HandState, seat: int) -> tuple[str, int | None]:
    """Nobody raises: the player to act checks, or calls the big blind (or an all-in forced by the blinds)."""
    legal = state.legal_actions()
    assert legal is not None
    kinds = set(legal.kinds)
    if "check" in kinds:
        return "check", None
    if "call" in kinds:
        return "call", None
    return "all_in", None


FLIGHT_STEP = timedelta(seconds=60)
"""A hand a minute at each table of a flight: five hands a level of QUICK_LEVELS, enough to move the stacks apart and
reach the final level (every hand is played to showdown action by action through the durable services, so a shorter
step tripled the cost of each flight test for nothing they check; issue 26)."""


def play_flight(flight_: Tournament, seed: int = 7) -> datetime:
    """Play a flight from its start until it ends (after its final level); returns the simulated time then."""
    assert flight_.starts_at is not None
    return play(flight_, start=flight_.starts_at, step=FLIGHT_STEP, policy=check_or_call, seed=seed)


def register(tournament: Tournament, users: list[Any]) -> None:
    for user in users:
        tournament_register(user, tournament, now=START, randomness=random.Random(user.pk))
