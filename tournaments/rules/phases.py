"""Phased tournaments (TRN-45, ET-13): several Phase 1 tournaments (flights) feed one Phase 2.

Pure decisions, no database:

* :func:`flight_stops_dealing` — a flight deals no new hand once its final level is reached (seed 002: "Phase 1 ends at
  a certain blind level"); the hands in play are finished first.
* :func:`flight_over` — the flight is over once its final level is reached (or one player holds every chip), no hand
  is in play and every knocked-out player has their place.
* :func:`stack_to_carry` / :func:`stacks_to_carry` — which stack each survivor takes to Phase 2: a player who survives
  several flights takes only the biggest stack, the stacks are never added together (ET-13: "only the biggest chip
  count is registered (chips are not added together)"). Equal stacks: the one already carried stays.
* :func:`flight_definition_problems` — what makes a flight's definition unfit for its Phase 2 (the back office's
  validation).

**Decisions** (the seeds say nothing more): "ends at level N" is read as the brief states it — dealing stops when
level N starts, so level N - 1 is the last level played; 004's "peale määratud mängutaset" ("after the set level")
agrees when the set level is the last one played. Flights pay no prizes: seed 002 has "all the remaining players will
play for the tournament prizes" in Phase 2, so a flight's whole prize pool goes to Phase 2. A player knocked out of a
flight before its end gets nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Survivor:
    """A player still holding chips when a flight ends: ``player`` (id), their flight ``entry`` (id), ``chips``."""

    player: int
    entry: int
    chips: int


@dataclass(frozen=True)
class Carried:
    """The stack a player takes to Phase 2 and the flight entry it comes from."""

    player: int
    entry: int
    chips: int


def flight_stops_dealing(current_level: int, final_level: int) -> bool:
    """Whether a flight at ``current_level`` deals no new hand: its final level has been reached."""
    return current_level >= final_level


def flight_over(
    *, current_level: int, final_level: int, players_left: int, hands_in_play: int, places_pending: int
) -> bool:
    """Whether the flight ends now: its final level reached (or at most one player left), no hand in play and no
    knocked-out player waiting for a place."""
    if hands_in_play or places_pending:
        return False
    return players_left <= 1 or flight_stops_dealing(current_level, final_level)


def stack_to_carry(already: Carried | None, survivor: Survivor) -> Carried | None:
    """The stack ``survivor`` takes to Phase 2 given the one ``already`` carried from an earlier flight: the bigger of
    the two, never their sum. ``None``: the stack already carried stays."""
    if survivor.chips <= 0:
        return None
    if already is not None and already.chips >= survivor.chips:
        return None
    return Carried(survivor.player, survivor.entry, survivor.chips)


def stacks_to_carry(survivors: Iterable[Survivor], already: dict[int, Carried] | None = None) -> dict[int, Carried]:
    """Every player's stack for Phase 2 after these survivors (of one or several flights) join the stacks ``already``
    carried: the biggest per player. Returns only the players whose carried stack is new or changed."""
    current = dict(already or {})
    changed: dict[int, Carried] = {}
    for survivor in sorted(survivors, key=lambda item: (item.player, item.entry)):
        carried = stack_to_carry(current.get(survivor.player), survivor)
        if carried is not None:
            current[survivor.player] = carried
            changed[survivor.player] = carried
    return changed


@dataclass(frozen=True)
class FlightFacts:
    """What the back office checks of a flight and of the Phase 2 it feeds."""

    kind: str
    variant: str
    starts_at: datetime | None
    final_level: int | None
    levels: int
    guarantee: int
    added_prize_money: int
    satellite: bool
    is_phase_two: bool
    late_registration_levels: int = 0


@dataclass(frozen=True)
class PhaseTwoFacts:
    kind: str
    variant: str
    starts_at: datetime | None
    is_phase_two: bool
    status: str


def flight_definition_problems(flight: FlightFacts, phase_two: PhaseTwoFacts) -> list[tuple[str, str]]:
    """The problems of a flight feeding ``phase_two``, each ``(field, message)``; empty when it is fit."""
    problems: list[tuple[str, str]] = []
    if not phase_two.is_phase_two:
        problems.append(("phase_two", "Flights feed a tournament marked as Phase 2 of a phased tournament."))
    if phase_two.status in ("running", "finished", "cancelled"):
        problems.append(("phase_two", "This Phase 2 has already started or is over: no flight can be added to it."))
    if flight.is_phase_two:
        problems.append(("is_phase_two", "A tournament is either a Phase 1 flight or a Phase 2, not both."))
    if flight.kind != "scheduled" or phase_two.kind != "scheduled":
        problems.append(("kind", "Flights and their Phase 2 are scheduled multi-table tournaments."))
    if flight.variant != phase_two.variant:
        problems.append(("variant", "A flight plays the same game as its Phase 2."))
    if flight.starts_at is not None and phase_two.starts_at is not None and flight.starts_at >= phase_two.starts_at:
        problems.append(("starts_at", "A flight starts before its Phase 2."))
    if flight.final_level is None:
        problems.append(("final_level", "Give the level at which the flight ends."))
    elif flight.final_level < 2:
        problems.append(("final_level", "A flight ends at level 2 or later: level 1 must be played."))
    elif flight.levels and flight.final_level > flight.levels:
        problems.append(("final_level", f"The flight has {flight.levels} levels: it cannot end at a later one."))
    if flight.final_level is not None and flight.late_registration_levels >= flight.final_level:
        problems.append(
            ("late_registration_levels", "Late registration of a flight closes before the level at which it ends.")
        )
    if flight.guarantee or flight.added_prize_money:
        problems.append(("guarantee", "A flight pays no prizes: put a guarantee or added money on the Phase 2."))
    if flight.satellite:
        problems.append(("satellite_target", "A flight pays no prizes, so it cannot be a satellite."))
    return problems
