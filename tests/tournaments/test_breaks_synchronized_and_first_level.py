"""TRN-30 / AMB-41: synchronized breaks at 55 minutes past the hour, the first-level exception for every tournament,
the break starting when the last table finishes its hand and lasting 5 minutes from then, the level clock standing
still meanwhile; and the break-every-N-levels setting for tournaments without synchronized breaks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from tournaments.rules.breaks import (
    SYNCHRONIZED_BREAK_PHRASE,
    BreakPolicy,
    break_pause,
    break_starts_at,
    next_break_due,
    next_synchronized_minute,
    planned_breaks,
)
from tournaments.rules.common import RuleError
from tournaments.rules.levels import DEFAULT_MULTI_TABLE_STRUCTURE, LevelClock, Pause, structure_from_rows

SYNCHRONIZED = BreakPolicy(synchronized=True)


def at(hour: int, minute: int, second: int = 0) -> datetime:
    return datetime(2024, 3, 1, hour, minute, second, tzinfo=UTC)


def test_trn_30_seed_example_a_tournament_starting_at_0725_breaks_at_0755_0855_and_0955() -> None:
    clock = LevelClock(at(7, 25), DEFAULT_MULTI_TABLE_STRUCTURE)
    breaks = planned_breaks(SYNCHRONIZED, clock, 3)
    assert [pause.start for pause in breaks] == [at(7, 55), at(8, 55), at(9, 55)]
    assert [pause.end for pause in breaks] == [at(8, 0), at(9, 0), at(10, 0)]  # AMB-41: 5 minutes by default


def test_trn_30_derived_example_a_tournament_starting_at_0750_is_in_level_1_at_0755_and_first_breaks_at_0855() -> None:
    clock = LevelClock(at(7, 50), DEFAULT_MULTI_TABLE_STRUCTURE)  # 10-minute levels
    assert clock.reading(at(7, 55)).number == 1
    assert next_break_due(SYNCHRONIZED, clock, at(7, 50)) == at(8, 55)


def test_trn_30_a_long_first_level_skips_every_55_it_covers() -> None:
    long_first_level = structure_from_rows("long", 10_000, [(50, 100, 0)], 65 * 60)
    clock = LevelClock(at(7, 30), long_first_level)  # level 1 until 08:35
    assert next_break_due(SYNCHRONIZED, clock, at(7, 30)) == at(8, 55)


def test_amb_41_the_break_starts_when_the_last_table_finishes_its_hand_and_lasts_five_minutes_from_then() -> None:
    started = break_starts_at(at(8, 55), [at(8, 55, 40), at(8, 56, 10), at(8, 55, 5)])
    assert started == at(8, 56, 10)
    assert break_pause(SYNCHRONIZED, started) == Pause(at(8, 56, 10), at(9, 1, 10))
    # Tables between hands at 08:55 are not listed; with none in a hand the break starts on time.
    assert break_starts_at(at(8, 55), []) == at(8, 55)


def test_amb_41_the_level_clock_stands_still_during_the_break() -> None:
    clock = LevelClock(at(8, 0), DEFAULT_MULTI_TABLE_STRUCTURE)
    assert clock.reading(at(8, 55, 0)).ends_at == at(9, 0)  # level 6 would end at 09:00
    paused = clock.with_pause(break_pause(SYNCHRONIZED, at(8, 56, 10)))
    during = paused.reading(at(8, 58))
    assert (during.number, during.paused, during.remaining) == (6, True, timedelta(minutes=3, seconds=50))
    assert paused.reading(at(9, 1, 10)).ends_at == at(9, 5)


def test_after_a_break_the_next_synchronized_break_is_at_the_next_55() -> None:
    clock = LevelClock(at(7, 25), DEFAULT_MULTI_TABLE_STRUCTURE).with_pause(Pause(at(7, 56), at(8, 1)))
    assert next_break_due(SYNCHRONIZED, clock, at(8, 1)) == at(8, 55)


def test_synchronized_breaks_fall_at_55_minutes_past_the_hour_in_utc() -> None:
    assert next_synchronized_minute(at(7, 55)) == at(7, 55)
    assert next_synchronized_minute(at(7, 55, 1)) == at(8, 55)
    tallinn_summer = timezone(timedelta(hours=3))
    assert next_synchronized_minute(datetime(2024, 7, 1, 10, 0, tzinfo=tallinn_summer)) == datetime(
        2024, 7, 1, 7, 55, tzinfo=UTC
    )


def test_a_tournament_still_in_level_1_during_an_open_pause_has_no_break_due_yet() -> None:
    clock = LevelClock(at(7, 50), DEFAULT_MULTI_TABLE_STRUCTURE, (Pause(at(7, 52)),))
    assert next_break_due(SYNCHRONIZED, clock, at(8, 0)) is None


def test_a_break_every_four_levels_follows_the_end_of_levels_4_and_8_on_the_paused_clock() -> None:
    every_four = BreakPolicy(every_levels=4)
    clock = LevelClock(at(12, 0), DEFAULT_MULTI_TABLE_STRUCTURE)
    assert [pause.start for pause in planned_breaks(every_four, clock, 2)] == [at(12, 40), at(13, 25)]


def test_trn_30_the_first_level_exception_holds_for_tournaments_without_synchronized_breaks() -> None:
    # A break after every level still waits for level 1 to end: no break is ever taken in level 1.
    clock = LevelClock(at(12, 0), DEFAULT_MULTI_TABLE_STRUCTURE)
    due = next_break_due(BreakPolicy(every_levels=1), clock, at(12, 0))
    assert due == at(12, 10)
    assert clock.reading(due).number == 2


def test_a_tournament_without_break_settings_takes_no_breaks_and_none_after_the_last_level() -> None:
    clock = LevelClock(at(12, 0), DEFAULT_MULTI_TABLE_STRUCTURE)
    assert next_break_due(BreakPolicy(), clock, at(12, 0)) is None
    assert not BreakPolicy().takes_breaks
    two_levels = LevelClock(at(12, 0), structure_from_rows("two", 1_000, [(10, 20, 0), (20, 40, 0)], 600))
    assert planned_breaks(BreakPolicy(every_levels=1), two_levels, 5) == (Pause(at(12, 10), at(12, 15)),)


def test_the_lobby_phrase_of_synchronized_breaks() -> None:
    assert SYNCHRONIZED_BREAK_PHRASE == "The tournament goes on break at 55 minutes past the hour"


def test_synchronized_breaks_and_breaks_every_n_levels_cannot_both_be_set() -> None:
    with pytest.raises(RuleError):
        BreakPolicy(synchronized=True, every_levels=4)
    with pytest.raises(RuleError):
        BreakPolicy(length_seconds=0)
