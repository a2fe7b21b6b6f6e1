"""Tournament breaks (TRN-30, AMB-41, TRN-02 break settings).

A break has three moments:

1. **Due** (:func:`next_break_due`): from then on no table deals a new hand.
   * Synchronized breaks (TRN-30): at 55 minutes past every hour, in UTC (the same instant in every zone whose offset
     is whole hours). Seed example: a tournament starting at 07:25 breaks at 07:55, 08:55, 09:55, ...
   * Otherwise, when the tournament's definition asks for it, after every N levels (the catalog names "break settings"
     without a rule; a break after every N levels is the configurable rule offered here). Without either setting the
     tournament takes no breaks.
   * First-level exception (TRN-30, AMB-41, for every tournament): no break is taken while the tournament is in its
     first level; a :55 that falls in level 1 is skipped (start 07:50 with 10-minute levels: no break at 07:55, the
     first at 08:55).
2. **Start** (:func:`break_starts_at`): when the last table finishes the hand it was playing (tables that finish early
   wait, so their break is slightly longer).
3. **End** (:func:`break_pause`): the configured length after the start (AMB-41: default 5 minutes). The level clock
   stands still from start to end: record the returned :class:`~tournaments.rules.levels.Pause` in the clock.

Standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

from tournaments.rules.common import RuleError, require_utc, require_whole
from tournaments.rules.levels import LevelClock, Pause

SYNCHRONIZED_BREAK_MINUTE: Final[int] = 55
SYNCHRONIZED_BREAK_PHRASE: Final[str] = "The tournament goes on break at 55 minutes past the hour"
"""The lobby text that identifies tournaments with synchronized breaks (TRN-30, LOB-03)."""
DEFAULT_BREAK_SECONDS: Final[int] = 5 * 60


@dataclass(frozen=True, slots=True)
class BreakPolicy:
    """A tournament's break settings: synchronized breaks at :55 (TRN-30), or a break after every ``every_levels``
    levels, or neither (no breaks); ``length_seconds`` counts from the moment the last table finishes its hand."""

    synchronized: bool = False
    every_levels: int | None = None
    length_seconds: int = DEFAULT_BREAK_SECONDS

    def __post_init__(self) -> None:
        require_whole(self.length_seconds, "break length (seconds)", minimum=1)
        if self.every_levels is not None:
            require_whole(self.every_levels, "levels between breaks", minimum=1)
            if self.synchronized:
                raise RuleError("a tournament has either synchronized breaks or a break every N levels, not both")

    @property
    def takes_breaks(self) -> bool:
        return self.synchronized or self.every_levels is not None


def next_synchronized_minute(moment: datetime) -> datetime:
    """The first instant at or after ``moment`` that is 55 minutes past an hour (UTC)."""
    utc = require_utc(moment, "moment").astimezone(UTC)
    candidate = utc.replace(minute=SYNCHRONIZED_BREAK_MINUTE, second=0, microsecond=0)
    return candidate if candidate >= utc else candidate + timedelta(hours=1)


def next_break_due(policy: BreakPolicy, clock: LevelClock, after: datetime) -> datetime | None:
    """When the next break is due, at or after ``after`` (assuming no pause besides those recorded in ``clock``).

    ``None`` when the tournament takes no (further) breaks, or while an open pause keeps it in level 1 (the first
    break cannot be placed yet). Ask again after every break ends, with ``after`` = the end of that break.
    """
    require_utc(after, "after")
    if policy.synchronized:
        first_level_ends = clock.moment_of(clock.level_end(1))
        if first_level_ends is None:
            return None
        return next_synchronized_minute(max(after, first_level_ends))
    if policy.every_levels is None:
        return None
    # Breaks follow the end of level N, 2N, ... while a next level exists (the last level never ends).
    for number in range(policy.every_levels, len(clock.structure.levels), policy.every_levels):
        due = clock.moment_of(clock.level_end(number))
        if due is None:
            return None
        if due >= after:
            return due
    return None


def break_starts_at(due: datetime, hands_finished_at: Iterable[datetime]) -> datetime:
    """TRN-30: the break starts when the last table finishes the hand it was playing when the break fell due.

    ``hands_finished_at``: for each table that was in a hand at ``due``, when that hand finished (tables between
    hands need not be listed)."""
    start = require_utc(due, "break due")
    for finished in hands_finished_at:
        start = max(start, require_utc(finished, "hand finish"))
    return start


def break_pause(policy: BreakPolicy, started_at: datetime) -> Pause:
    """The pause a break starting at ``started_at`` puts in the level clock (AMB-41: it lasts the configured length
    from the moment the last table finished its hand)."""
    start = require_utc(started_at, "break start")
    return Pause(start, start + timedelta(seconds=policy.length_seconds))


def planned_breaks(policy: BreakPolicy, clock: LevelClock, count: int) -> tuple[Pause, ...]:
    """The next ``count`` breaks (or fewer, if the tournament takes fewer) after the last recorded pause, assuming each
    starts the moment it is due and lasts the policy length: the schedule the lobby shows (LOB-03)."""
    require_whole(count, "number of breaks")
    breaks: list[Pause] = []
    after = clock.start
    if clock.pauses:
        last = clock.pauses[-1]
        if last.end is None:
            return ()
        after = last.end
    while len(breaks) < count:
        due = next_break_due(policy, clock, after)
        if due is None:
            break
        pause = break_pause(policy, due)
        breaks.append(pause)
        clock = clock.with_pause(pause)
        after = pause.end or due
    return tuple(breaks)
