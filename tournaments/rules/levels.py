"""Blind/ante structures and the level clock (TRN-02, TRN-30, AMB-41, AMB-65, ENG-08).

A :class:`BlindStructure` is the list of levels a tournament plays (small blind, big blind, ante per dealt-in player,
duration); breaks are not levels. The :class:`LevelClock` turns the tournament's start, the level durations and the
recorded pauses (breaks, operator pauses) into "which level is current and when does it end":

* the clock runs from the start and stands still during every recorded :class:`Pause` (AMB-41: level clocks pause
  during breaks);
* levels follow each other on the clock; a level interval is half-open, so at the exact moment a level's time is up
  the next level is current;
* after the last level of the structure that level stays in force until the tournament ends (the same decision as
  AMB-52 for HexaPro; the catalog gives none for other tournaments);
* AMB-65: a new level applies from the first hand dealt after its timer expires. A hand keeps the level that was
  current when it was dealt (:meth:`LevelClock.blinds_for_hand_dealt_at`), however long it lasts.

The catalog gives blind structures only for HexaPro (HEX-12). The defaults below for multi-table tournaments and Sit &
Gos are therefore conventional structures (documented per constant), stored as data the back-office can copy and edit
(catalog section 0.3).

Standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from tournaments.rules.common import RuleError, require_utc, require_whole


@dataclass(frozen=True, slots=True)
class BlindLevel:
    """One level: blinds and the ante each dealt-in player posts (0 = none, ENG-08), and its length in seconds."""

    small_blind: int
    big_blind: int
    ante: int
    duration_seconds: int

    def __post_init__(self) -> None:
        require_whole(self.small_blind, "small blind", minimum=1)
        require_whole(self.big_blind, "big blind", minimum=1)
        require_whole(self.ante, "ante")
        require_whole(self.duration_seconds, "level duration (seconds)", minimum=1)
        if self.small_blind > self.big_blind:
            raise RuleError(f"the small blind {self.small_blind} is larger than the big blind {self.big_blind}")


@dataclass(frozen=True, slots=True)
class BlindStructure:
    """A named structure: the starting stack and the levels in playing order (level 1 first)."""

    name: str
    starting_stack: int
    levels: tuple[BlindLevel, ...]

    def __post_init__(self) -> None:
        require_whole(self.starting_stack, "starting stack", minimum=1)
        if not self.levels or not all(isinstance(level, BlindLevel) for level in self.levels):
            raise RuleError("a blind structure needs at least one BlindLevel")

    def level(self, number: int) -> BlindLevel:
        """Level ``number`` (1-based); past the last level, the last level (it stays in force)."""
        require_whole(number, "level number", minimum=1)
        return self.levels[min(number, len(self.levels)) - 1]

    def with_level_duration(self, seconds: int, name: str | None = None) -> BlindStructure:
        """The same blinds with every level lasting ``seconds`` (e.g. a turbo variant)."""
        levels = tuple(replace(level, duration_seconds=seconds) for level in self.levels)
        return BlindStructure(name or self.name, self.starting_stack, levels)


@dataclass(frozen=True, slots=True)
class Pause:
    """An interval during which the level clock stands still (a break, or an operator pause). ``end`` is ``None``
    while the pause lasts."""

    start: datetime
    end: datetime | None = None

    def __post_init__(self) -> None:
        require_utc(self.start, "pause start")
        if self.end is not None and require_utc(self.end, "pause end") < self.start:
            raise RuleError(f"a pause cannot end ({self.end}) before it starts ({self.start})")


@dataclass(frozen=True, slots=True)
class LevelReading:
    """The clock read at one moment.

    * ``number``: the current level (1-based); ``level``: its blinds (past the structure's end, the last level).
    * ``remaining``: clock time left in the level; ``None`` when the last level is in force for good.
    * ``ends_at``: when the level's timer expires if no further pause is recorded; ``None`` while the clock is paused
      (the end is not known yet) or when ``remaining`` is ``None``.
    * ``paused``: the moment falls inside a recorded pause.
    """

    number: int
    level: BlindLevel
    remaining: timedelta | None
    ends_at: datetime | None
    paused: bool


@dataclass(frozen=True, slots=True)
class LevelClock:
    """The level clock of a started tournament (see the module docstring).

    ``pauses`` are in time order, do not overlap, start at or after ``start``, and only the last may be open.
    """

    start: datetime
    structure: BlindStructure
    pauses: tuple[Pause, ...] = ()

    def __post_init__(self) -> None:
        require_utc(self.start, "tournament start")
        if not isinstance(self.structure, BlindStructure):
            raise RuleError("the level clock needs a BlindStructure")
        previous_end: datetime = self.start
        for index, pause in enumerate(self.pauses):
            if not isinstance(pause, Pause):
                raise RuleError(f"pause {index + 1} is not a Pause: {pause!r}")
            if pause.start < previous_end:
                raise RuleError(f"pause {index + 1} starts at {pause.start}, before the clock is running again")
            if pause.end is None:
                if index != len(self.pauses) - 1:
                    raise RuleError("only the last pause may still be open")
                break
            previous_end = pause.end

    def with_pause(self, pause: Pause) -> LevelClock:
        """This clock with one more pause recorded (it must come after the recorded ones)."""
        return LevelClock(self.start, self.structure, (*self.pauses, pause))

    def elapsed(self, moment: datetime) -> timedelta:
        """Clock time at ``moment``: time since the start minus the paused time before ``moment`` (zero before
        the start)."""
        require_utc(moment, "moment")
        if moment <= self.start:
            return timedelta(0)
        paused = timedelta(0)
        for pause in self.pauses:
            if pause.start >= moment:
                break
            paused += min(moment, pause.end or moment) - pause.start
        return moment - self.start - paused

    def paused_at(self, moment: datetime) -> bool:
        """True when ``moment`` falls inside a recorded pause (half-open: a pause ending at ``moment`` is over)."""
        return any(pause.start <= moment and (pause.end is None or moment < pause.end) for pause in self.pauses)

    def moment_of(self, elapsed: timedelta) -> datetime | None:
        """The first moment the clock shows ``elapsed``, if no pause beyond the recorded ones happens; ``None`` when
        an open pause stops the clock before it gets there."""
        if elapsed <= timedelta(0):
            return self.start
        running_from = self.start
        remaining = elapsed
        for pause in self.pauses:
            stretch = pause.start - running_from
            if remaining <= stretch:
                return running_from + remaining
            remaining -= stretch
            if pause.end is None:
                return None
            running_from = pause.end
        return running_from + remaining

    def level_end(self, number: int) -> timedelta:
        """Clock time at which level ``number`` ends (the sum of the durations of levels 1..``number``)."""
        require_whole(number, "level number", minimum=1)
        if number > len(self.structure.levels):
            raise RuleError(f"the structure has {len(self.structure.levels)} levels, not {number}")
        return timedelta(seconds=sum(level.duration_seconds for level in self.structure.levels[:number]))

    def level_number_at_elapsed(self, elapsed: timedelta) -> int:
        """The level current when the clock shows ``elapsed``."""
        boundary = timedelta(0)
        for number, level in enumerate(self.structure.levels, start=1):
            boundary += timedelta(seconds=level.duration_seconds)
            if elapsed < boundary:
                return number
        return len(self.structure.levels)

    def reading(self, moment: datetime) -> LevelReading:
        """Which level is current at ``moment`` and when it ends."""
        elapsed = self.elapsed(moment)
        number = self.level_number_at_elapsed(elapsed)
        paused = self.paused_at(moment)
        level_end = self.level_end(number)
        if elapsed >= level_end:  # past the last level: it stays in force
            return LevelReading(number, self.structure.level(number), None, None, paused)
        ends_at = None if paused else self.moment_of(level_end)
        return LevelReading(number, self.structure.level(number), level_end - elapsed, ends_at, paused)

    def blinds_for_hand_dealt_at(self, dealt_at: datetime) -> BlindLevel:
        """AMB-65: the level a hand plays is the level current when it was dealt; a level whose timer expires during
        the hand applies from the next hand dealt."""
        return self.reading(dealt_at).level


def _levels(rows: Iterable[tuple[int, int, int]], duration_seconds: int) -> tuple[BlindLevel, ...]:
    return tuple(BlindLevel(small, big, ante, duration_seconds) for small, big, ante in rows)


def structure_from_rows(
    name: str, starting_stack: int, rows: Sequence[tuple[int, int, int]], duration_seconds: int
) -> BlindStructure:
    """A structure from ``(small blind, big blind, ante)`` rows that all last ``duration_seconds``."""
    return BlindStructure(name, starting_stack, _levels(rows, duration_seconds))


# Conventional multi-table structure (the catalog has none): 10,000 chips, 10-minute levels from 50/100, antes of
# about 1/8 to 1/10 of the big blind from level 4, 30 levels.
MULTI_TABLE_LEVEL_ROWS: tuple[tuple[int, int, int], ...] = (
    (50, 100, 0),
    (75, 150, 0),
    (100, 200, 0),
    (125, 250, 25),
    (150, 300, 40),
    (200, 400, 50),
    (250, 500, 60),
    (300, 600, 75),
    (400, 800, 100),
    (500, 1_000, 125),
    (600, 1_200, 150),
    (800, 1_600, 200),
    (1_000, 2_000, 250),
    (1_250, 2_500, 300),
    (1_500, 3_000, 400),
    (2_000, 4_000, 500),
    (2_500, 5_000, 600),
    (3_000, 6_000, 750),
    (4_000, 8_000, 1_000),
    (5_000, 10_000, 1_250),
    (6_000, 12_000, 1_500),
    (8_000, 16_000, 2_000),
    (10_000, 20_000, 2_500),
    (12_500, 25_000, 3_000),
    (15_000, 30_000, 4_000),
    (20_000, 40_000, 5_000),
    (25_000, 50_000, 6_000),
    (30_000, 60_000, 7_500),
    (40_000, 80_000, 10_000),
    (50_000, 100_000, 12_500),
)

# Conventional Sit & Go structure (the catalog has none besides HexaPro): 1,500 chips, 5-minute levels from 10/20,
# antes from level 7.
SIT_AND_GO_LEVEL_ROWS: tuple[tuple[int, int, int], ...] = (
    (10, 20, 0),
    (15, 30, 0),
    (25, 50, 0),
    (50, 100, 0),
    (75, 150, 0),
    (100, 200, 0),
    (100, 200, 25),
    (200, 400, 25),
    (300, 600, 50),
    (400, 800, 50),
    (600, 1_200, 75),
    (800, 1_600, 100),
    (1_000, 2_000, 125),
    (1_500, 3_000, 150),
    (2_000, 4_000, 200),
    (3_000, 6_000, 300),
)

DEFAULT_MULTI_TABLE_STRUCTURE = structure_from_rows(
    "Multi-table (10-minute levels)", 10_000, MULTI_TABLE_LEVEL_ROWS, 600
)
DEFAULT_SIT_AND_GO_STRUCTURE = structure_from_rows("Sit & Go (5-minute levels)", 1_500, SIT_AND_GO_LEVEL_ROWS, 300)
TURBO_MULTI_TABLE_STRUCTURE = DEFAULT_MULTI_TABLE_STRUCTURE.with_level_duration(
    120, "Multi-table turbo (2-minute levels)"
)
TURBO_SIT_AND_GO_STRUCTURE = DEFAULT_SIT_AND_GO_STRUCTURE.with_level_duration(60, "Sit & Go turbo (1-minute levels)")
