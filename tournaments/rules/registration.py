"""Registration, late registration, unregistration and the start decision (TRN-08, TRN-10, TRN-14, TRN-15, TRN-35,
TRN-40, LOB-02).

* Registration opens at the definition's opening time and stays open until the tournament starts (a delayed start,
  TRN-01, keeps it open).
* Late registration (TRN-08, AMB-28) is open after the start while the clock is within the first
  ``late_registration_levels`` levels: it closes the moment the last of them ends, before any break that follows it
  (breaks stop the level clock, so a break taken inside that level keeps it open). It closes earlier, for good, as
  soon as the remaining players are no more than the paid places ("payouts begin"). Seed example: 4 levels of late
  registration -> closes when level 4 finishes. Re-entries (TRN-40) use the same window.
* Closing is final: the service records the first "closed" answer (the payout structure stops being provisional then,
  TRN-06) and does not ask again.
* Unregistration (TRN-10, TRN-14) is allowed until the tournament's unregistration close time and never after the
  start; some tournaments allow none (``None``).
* A scheduled tournament starts only with at least its minimum number of entrants (TRN-15, never fewer than two);
  otherwise it is cancelled and refunded (CXL). A Sit & Go starts when all its seats are taken (TRN-35).

Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from tournaments.rules.common import RuleError, require_utc, require_whole
from tournaments.rules.levels import LevelClock

MINIMUM_PLAYERS_TO_PLAY = 2


class RegistrationPhase(StrEnum):
    """What the lobby shows (LOB-02)."""

    ANNOUNCED = "announced"  # registration not open yet
    OPEN = "open"  # before the start
    LATE = "late"  # started, late registration open
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class RegistrationWindow:
    """A scheduled tournament's registration settings.

    * ``opens_at``: when players may register. ``starts_at``: the scheduled start (TRN-01).
    * ``late_registration_levels``: 0 = no late registration (TRN-08).
    * ``unregistration_closes_at``: the last moment to unregister (usually a few minutes before the start, TRN-10);
      ``None`` = this tournament does not allow unregistration.
    """

    opens_at: datetime
    starts_at: datetime
    late_registration_levels: int = 0
    unregistration_closes_at: datetime | None = None

    def __post_init__(self) -> None:
        if require_utc(self.opens_at, "registration opening") > require_utc(self.starts_at, "start"):
            raise RuleError(f"registration opens ({self.opens_at}) after the start ({self.starts_at})")
        require_whole(self.late_registration_levels, "late-registration levels")
        if self.unregistration_closes_at is not None:
            require_utc(self.unregistration_closes_at, "unregistration close")


def unregistration_close_time(starts_at: datetime, minutes_before_start: int) -> datetime:
    """The usual unregistration close: ``minutes_before_start`` minutes before the scheduled start (TRN-10)."""
    require_whole(minutes_before_start, "minutes before the start")
    return require_utc(starts_at, "start") - timedelta(minutes=minutes_before_start)


def late_registration_open(
    clock: LevelClock, moment: datetime, *, late_registration_levels: int, remaining_players: int, paid_places: int
) -> bool:
    """TRN-08 / AMB-28: late registration (and re-entry) is open at ``moment`` for a started tournament.

    Open while the level clock is before the end of level ``late_registration_levels`` (counted at most up to the
    structure's last level) and more players remain than there are paid places."""
    require_whole(late_registration_levels, "late-registration levels")
    require_whole(remaining_players, "remaining players")
    require_whole(paid_places, "paid places")
    if late_registration_levels == 0 or remaining_players <= paid_places:
        return False
    last_level = min(late_registration_levels, len(clock.structure.levels))
    return clock.elapsed(moment) < clock.level_end(last_level)


def late_registration_closes_at(clock: LevelClock, late_registration_levels: int) -> datetime | None:
    """When late registration closes by the clock (the end of the last late-registration level), if no pause beyond
    those recorded happens; ``None`` without late registration or while an open pause stops the clock before that."""
    require_whole(late_registration_levels, "late-registration levels")
    if late_registration_levels == 0:
        return None
    return clock.moment_of(clock.level_end(min(late_registration_levels, len(clock.structure.levels))))


def registration_phase(
    window: RegistrationWindow,
    moment: datetime,
    *,
    clock: LevelClock | None,
    remaining_players: int,
    paid_places: int,
) -> RegistrationPhase:
    """The lobby's registration state at ``moment``; ``clock`` is ``None`` until the tournament has started."""
    require_utc(moment, "moment")
    if clock is None:
        return RegistrationPhase.ANNOUNCED if moment < window.opens_at else RegistrationPhase.OPEN
    if late_registration_open(
        clock,
        moment,
        late_registration_levels=window.late_registration_levels,
        remaining_players=remaining_players,
        paid_places=paid_places,
    ):
        return RegistrationPhase.LATE
    return RegistrationPhase.CLOSED


def may_re_enter(re_entries_used: int, maximum_re_entries: int, *, late_registration_is_open: bool) -> bool:
    """TRN-40: an eliminated player may enter again (a new buy-in and fee) while late registration is open and they
    have re-entries left (``maximum_re_entries`` 0 = a freezeout without re-entry)."""
    require_whole(re_entries_used, "re-entries used")
    require_whole(maximum_re_entries, "re-entries allowed")
    return late_registration_is_open and re_entries_used < maximum_re_entries


def may_unregister(window: RegistrationWindow, moment: datetime, *, started: bool) -> bool:
    """TRN-10 / TRN-14: a registered player may unregister before the close time and before the start."""
    require_utc(moment, "moment")
    return not started and window.unregistration_closes_at is not None and moment < window.unregistration_closes_at


def may_start(entrants: int, minimum_entrants: int) -> bool:
    """TRN-15: a scheduled tournament starts with at least its minimum of entrants (and never with fewer than two);
    otherwise it is cancelled and buy-ins and fees are refunded."""
    require_whole(entrants, "entrants")
    require_whole(minimum_entrants, "minimum entrants")
    return entrants >= max(minimum_entrants, MINIMUM_PLAYERS_TO_PLAY)


def sit_and_go_full(registered: int, seats: int) -> bool:
    """TRN-35: a Sit & Go starts as soon as all its seats are filled."""
    require_whole(seats, "Sit & Go seats", minimum=MINIMUM_PLAYERS_TO_PLAY)
    if require_whole(registered, "registered players") > seats:
        raise RuleError(f"{registered} players registered for a Sit & Go of {seats} seats")
    return registered == seats
