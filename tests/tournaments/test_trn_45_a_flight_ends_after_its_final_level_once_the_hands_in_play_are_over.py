"""TRN-45, the pure rule of a flight's end (seed 004: "Etapp 1 lõppeb peale määratud mängutaset" — Phase 1 ends after
the set level): the final level is the last level played, so no new hand is dealt once its time is up — also when it
is the structure's last level, which a flight does not hold in force; the flight is over then — or when one player
holds every chip — but only once no hand is in play and every knocked-out player has a place."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tournaments.rules.levels import LevelClock, Pause, structure_from_rows
from tournaments.rules.phases import flight_over, flight_stops_dealing

START = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
FOUR_LEVELS = structure_from_rows("four", 1_000, [(10, 20, 0), (20, 40, 0), (50, 100, 10), (100, 200, 20)], 300)


def test_a_flight_deals_through_its_final_level_and_stops_when_its_time_is_up_trn_45() -> None:
    clock = LevelClock(START, FOUR_LEVELS)
    level_three_ends = START + timedelta(minutes=15)
    assert not flight_stops_dealing(clock, START, 3)
    assert not flight_stops_dealing(clock, START + timedelta(minutes=10), 3)  # level 3 is played
    assert not flight_stops_dealing(clock, level_three_ends - timedelta(seconds=1), 3)
    assert flight_stops_dealing(clock, level_three_ends, 3)  # level 4 would begin
    assert flight_stops_dealing(clock, level_three_ends + timedelta(minutes=7), 3)  # a late coordination still stops


def test_a_flight_ending_after_its_first_level_plays_level_one_only_trn_45() -> None:
    clock = LevelClock(START, FOUR_LEVELS)
    assert not flight_stops_dealing(clock, START + timedelta(minutes=4, seconds=59), 1)
    assert flight_stops_dealing(clock, START + timedelta(minutes=5), 1)


def test_a_flight_ending_after_its_structures_last_level_ends_when_that_level_is_over_trn_45() -> None:
    clock = LevelClock(START, FOUR_LEVELS)
    assert clock.reading(START + timedelta(hours=1)).number == 4  # a tournament played to the end holds level 4
    assert not flight_stops_dealing(clock, START + timedelta(minutes=19), 4)
    assert flight_stops_dealing(clock, START + timedelta(minutes=20), 4)  # the flight does not
    assert flight_stops_dealing(clock, START + timedelta(minutes=20), 9)  # a final level beyond it counts as the last


def test_a_break_stops_the_flights_clock_too_trn_45() -> None:
    clock = LevelClock(START, FOUR_LEVELS, (Pause(START + timedelta(minutes=5), START + timedelta(minutes=15)),))
    assert not flight_stops_dealing(clock, START + timedelta(minutes=19), 2)  # ten minutes of break, not of play
    assert flight_stops_dealing(clock, START + timedelta(minutes=20), 2)


def test_a_flight_is_over_after_its_final_level_once_the_hands_in_play_are_finished_trn_45() -> None:
    def over(final_level_over: bool, players: int = 10, hands: int = 0, pending: int = 0) -> bool:
        return flight_over(
            final_level_over=final_level_over, players_left=players, hands_in_play=hands, places_pending=pending
        )

    assert not over(False)
    assert over(True)
    assert not over(True, hands=1)  # the hand in progress at a table is finished first
    assert not over(True, pending=2)  # a knocked-out player gets a place first
    assert over(False, players=1)  # one player holds every chip: nothing left to play in this flight
    assert not over(False, players=1, pending=1)
