"""Phased tournaments (TRN-45, ET-13): several Phase 1 tournaments (flights) feed one Phase 2.

Pure decisions, no database:

* :func:`flight_stops_dealing` — a flight deals no new hand once its final level is over (seed 004: "Etapp 1 lõppeb
  peale määratud mängutaset", Phase 1 ends *after* the set level): the final level is the last level played; the
  hands in play when its time is up are finished first.
* :func:`flight_over` — the flight is over once its final level is over (or one player holds every chip), no hand is
  in play and every knocked-out player has their place.
* :func:`stack_to_carry` / :func:`stacks_to_carry` — which stack each survivor takes to Phase 2: a player who survives
  several flights takes only the biggest stack, the stacks are never added together (ET-13: "only the biggest chip
  count is registered (chips are not added together)"). Equal stacks: the one already carried stays.
* :func:`flight_definition_problems` — what makes a flight's definition unfit for its Phase 2 (the back office's
  validation).

**Decisions** (the seeds say nothing more): seed 002's "ends at a certain blind level" is read with seed 004's "ends
after the set level": level N is played in full and dealing stops when its time is up (when level N + 1 would begin).
The flight's final level is one of its structure's levels; when it is the structure's last level, the flight still
ends when that level's time is up — a flight does not hold its last level in force the way a tournament played to the
end does (``tournaments.rules.levels``). A final level of 1 is allowed (a one-level flight). Late registration closes
before the flight ends: at the latest at the end of level N - 1, so nobody buys a starting stack straight into Phase 2
at the last moment. Flights pay no prizes: seed 002 has "all the remaining players will
play for the tournament prizes" in Phase 2, so a flight's whole prize pool goes to Phase 2. A player knocked out of a
flight before its end gets nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from tournaments.rules.levels import LevelClock


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


def flight_stops_dealing(clock: LevelClock, moment: datetime, final_level: int) -> bool:
    """Whether a flight whose level clock is ``clock`` deals no new hand at ``moment``: its final level is over (its
    time is up, also when it is the structure's last level; a final level beyond the structure counts as its last)."""
    last = min(max(final_level, 1), len(clock.structure.levels))
    return clock.elapsed(moment) >= clock.level_end(last)


def flight_over(*, final_level_over: bool, players_left: int, hands_in_play: int, places_pending: int) -> bool:
    """Whether the flight ends now: its final level over (``flight_stops_dealing``) or at most one player left, no
    hand in play and no knocked-out player waiting for a place."""
    if hands_in_play or places_pending:
        return False
    return players_left <= 1 or final_level_over


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
        problems.append(("final_level", "Give the level after which the flight ends."))
    elif flight.final_level < 1:
        problems.append(("final_level", "A flight ends after one of its levels: level 1 or later."))
    elif flight.levels and flight.final_level > flight.levels:
        problems.append(("final_level", f"The flight has {flight.levels} levels: it cannot end after a later one."))
    if flight.final_level is not None and flight.late_registration_levels >= flight.final_level:
        problems.append(
            (
                "late_registration_levels",
                "Late registration of a flight closes before the flight ends: at the latest after the level before "
                "its final level.",
            )
        )
    if flight.guarantee or flight.added_prize_money:
        problems.append(("guarantee", "A flight pays no prizes: put a guarantee or added money on the Phase 2."))
    if flight.satellite:
        problems.append(("satellite_target", "A flight pays no prizes, so it cannot be a satellite."))
    return problems
