"""The level clock (TRN-02, AMB-41, AMB-65): the current level and its end, the clock standing still during pauses,
and a new level applying from the first hand dealt after its timer expires."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tournaments.rules.common import RuleError
from tournaments.rules.levels import (
    DEFAULT_MULTI_TABLE_STRUCTURE,
    BlindStructure,
    LevelClock,
    Pause,
    structure_from_rows,
)

START = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


def at(hour: int, minute: int, second: int = 0) -> datetime:
    return datetime(2024, 3, 1, hour, minute, second, tzinfo=UTC)


def clock(*pauses: Pause, structure: BlindStructure = DEFAULT_MULTI_TABLE_STRUCTURE) -> LevelClock:
    return LevelClock(START, structure, pauses)


def test_the_first_level_runs_from_the_start_for_its_duration() -> None:
    reading = clock().reading(at(12, 4))
    assert (reading.number, reading.level.big_blind, reading.ends_at, reading.paused) == (1, 100, at(12, 10), False)
    assert reading.remaining == timedelta(minutes=6)


def test_at_the_exact_moment_a_level_ends_the_next_level_is_current() -> None:
    assert clock().reading(at(12, 9, 59)).number == 1
    reading = clock().reading(at(12, 10))
    assert (reading.number, reading.ends_at) == (2, at(12, 20))


def test_amb_41_the_clock_stands_still_during_a_break_and_the_level_ends_later() -> None:
    with_break = clock(Pause(at(12, 15), at(12, 20)))
    during = with_break.reading(at(12, 17))
    assert (during.number, during.paused, during.ends_at, during.remaining) == (2, True, None, timedelta(minutes=5))
    after = with_break.reading(at(12, 20))
    assert (after.number, after.paused, after.ends_at) == (2, False, at(12, 25))
    assert with_break.reading(at(12, 25)).number == 3


def test_an_open_pause_keeps_the_clock_stopped_until_it_ends() -> None:
    stopped = clock(Pause(at(12, 15)))
    reading = stopped.reading(at(13, 30))
    assert (reading.number, reading.paused, reading.ends_at) == (2, True, None)
    assert stopped.elapsed(at(13, 30)) == timedelta(minutes=15)
    assert stopped.moment_of(timedelta(minutes=20)) is None
    assert stopped.moment_of(timedelta(minutes=10)) == at(12, 10)


def test_a_level_end_counts_every_recorded_pause_before_it() -> None:
    two_breaks = clock(Pause(at(12, 5), at(12, 10)), Pause(at(12, 30), at(12, 40)))
    assert two_breaks.reading(at(12, 12)).ends_at == at(12, 15)  # level 1 ends 5 minutes of pause late
    assert two_breaks.reading(at(12, 16)).ends_at == at(12, 25)
    assert two_breaks.moment_of(two_breaks.level_end(4)) == at(12, 55)


def test_past_the_last_level_the_last_level_stays_in_force_with_no_end() -> None:
    short = structure_from_rows("two levels", 1_000, [(10, 20, 0), (20, 40, 5)], 60)
    reading = clock(structure=short).reading(at(15, 0))
    assert (reading.number, reading.level.big_blind, reading.remaining, reading.ends_at) == (2, 40, None, None)


def test_amb_65_a_hand_dealt_before_the_timer_expires_keeps_its_level_and_the_next_hand_gets_the_new_one() -> None:
    running = clock()
    # The level-1 timer expires at 12:10 while this hand is played: it stays at 50/100.
    assert running.blinds_for_hand_dealt_at(at(12, 9, 50)).big_blind == 100
    # The first hand dealt after the timer expired plays level 2.
    assert running.blinds_for_hand_dealt_at(at(12, 10, 20)).big_blind == 150


def test_before_the_start_the_clock_shows_zero() -> None:
    assert clock().elapsed(at(11, 0)) == timedelta(0)
    assert clock().reading(at(11, 0)).number == 1


@pytest.mark.parametrize(
    "pauses",
    [
        (Pause(at(12, 10), at(12, 20)), Pause(at(12, 15), at(12, 25))),  # overlapping
        (Pause(at(11, 50), at(12, 5)),),  # before the start
        (Pause(at(12, 10)), Pause(at(12, 30), at(12, 35))),  # an open pause that is not the last
    ],
)
def test_impossible_pauses_are_refused(pauses: tuple[Pause, ...]) -> None:
    with pytest.raises(RuleError):
        clock(*pauses)


def test_naive_times_and_backwards_pauses_are_refused() -> None:
    with pytest.raises(RuleError):
        LevelClock(datetime(2024, 3, 1, 12, 0), DEFAULT_MULTI_TABLE_STRUCTURE)
    with pytest.raises(RuleError):
        Pause(at(12, 20), at(12, 10))
