"""TRN-08 / AMB-28 late registration, TRN-10 / TRN-14 unregistration, TRN-15 minimum entrants, TRN-35 Sit & Go start
and the lobby's registration phase (LOB-02)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tournaments.rules.breaks import BreakPolicy, break_pause
from tournaments.rules.common import RuleError
from tournaments.rules.levels import DEFAULT_MULTI_TABLE_STRUCTURE, LevelClock, Pause
from tournaments.rules.registration import (
    RegistrationPhase,
    RegistrationWindow,
    late_registration_closes_at,
    late_registration_open,
    may_re_enter,
    may_start,
    may_unregister,
    registration_phase,
    sit_and_go_full,
    unregistration_close_time,
)


def at(hour: int, minute: int, second: int = 0) -> datetime:
    return datetime(2024, 3, 1, hour, minute, second, tzinfo=UTC)


CLOCK = LevelClock(at(12, 0), DEFAULT_MULTI_TABLE_STRUCTURE)  # 10-minute levels
WINDOW = RegistrationWindow(
    opens_at=at(10, 0),
    starts_at=at(12, 0),
    late_registration_levels=4,
    unregistration_closes_at=unregistration_close_time(at(12, 0), 5),
)


def still_open(clock: LevelClock, moment: datetime, remaining: int = 100, paid: int = 15) -> bool:
    return late_registration_open(
        clock, moment, late_registration_levels=4, remaining_players=remaining, paid_places=paid
    )


def test_trn_08_seed_example_four_levels_of_late_registration_close_when_level_4_finishes() -> None:
    assert still_open(CLOCK, at(12, 39, 59))
    assert not still_open(CLOCK, at(12, 40))
    assert late_registration_closes_at(CLOCK, 4) == at(12, 40)


def test_amb_28_a_break_inside_the_last_late_level_keeps_registration_open_until_that_level_ends() -> None:
    with_break = CLOCK.with_pause(Pause(at(12, 35), at(12, 40)))
    assert still_open(with_break, at(12, 42))
    assert late_registration_closes_at(with_break, 4) == at(12, 45)


def test_amb_28_registration_closes_before_a_break_that_follows_the_last_late_level() -> None:
    with_break = CLOCK.with_pause(break_pause(BreakPolicy(every_levels=4), at(12, 40)))
    assert not still_open(with_break, at(12, 42))  # during the break that follows level 4


def test_amb_28_late_registration_closes_early_when_the_remaining_players_are_no_more_than_the_paid_places() -> None:
    assert still_open(CLOCK, at(12, 15), remaining=16, paid=15)
    assert not still_open(CLOCK, at(12, 15), remaining=15, paid=15)


def test_a_tournament_without_late_registration_closes_at_the_start() -> None:
    assert not late_registration_open(CLOCK, at(12, 0), late_registration_levels=0, remaining_players=50, paid_places=5)
    assert late_registration_closes_at(CLOCK, 0) is None


def test_lob_02_the_registration_phase_from_announcement_to_close() -> None:
    def phase(moment: datetime, clock: LevelClock | None, remaining: int = 100) -> RegistrationPhase:
        return registration_phase(WINDOW, moment, clock=clock, remaining_players=remaining, paid_places=15)

    assert phase(at(9, 59), None) is RegistrationPhase.ANNOUNCED
    assert phase(at(10, 0), None) is RegistrationPhase.OPEN
    assert phase(at(12, 7), None) is RegistrationPhase.OPEN  # start delayed (TRN-01): still open
    assert phase(at(12, 7), CLOCK) is RegistrationPhase.LATE
    assert phase(at(12, 7), CLOCK, remaining=15) is RegistrationPhase.CLOSED
    assert phase(at(12, 40), CLOCK) is RegistrationPhase.CLOSED


def test_trn_10_trn_14_unregistration_is_allowed_until_its_close_time_and_never_after_the_start() -> None:
    assert WINDOW.unregistration_closes_at == at(11, 55)
    assert may_unregister(WINDOW, at(11, 54, 59), started=False)
    assert not may_unregister(WINDOW, at(11, 55), started=False)
    assert not may_unregister(WINDOW, at(11, 0), started=True)


def test_trn_10_a_tournament_may_allow_no_unregistration_at_all() -> None:
    no_unregistration = RegistrationWindow(opens_at=at(10, 0), starts_at=at(12, 0))
    assert not may_unregister(no_unregistration, at(10, 1), started=False)


def test_trn_15_a_tournament_below_its_minimum_of_entrants_does_not_start() -> None:
    assert not may_start(9, 10)
    assert may_start(10, 10)
    assert not may_start(1, 0)  # never with fewer than two players
    assert may_start(2, 0)


def test_trn_35_a_sit_and_go_starts_when_all_its_seats_are_filled() -> None:
    assert not sit_and_go_full(4, 5)
    assert sit_and_go_full(5, 5)
    with pytest.raises(RuleError):
        sit_and_go_full(6, 5)


def test_an_impossible_window_is_refused() -> None:
    with pytest.raises(RuleError):
        RegistrationWindow(opens_at=at(13, 0), starts_at=at(12, 0))
    with pytest.raises(RuleError):
        RegistrationWindow(opens_at=at(10, 0), starts_at=at(12, 0), late_registration_levels=-1)


def test_trn_40_an_eliminated_player_may_re_enter_within_late_registration_and_the_allowed_number() -> None:
    assert may_re_enter(0, 2, late_registration_is_open=True)
    assert may_re_enter(1, 2, late_registration_is_open=True)
    assert not may_re_enter(2, 2, late_registration_is_open=True)
    assert not may_re_enter(0, 2, late_registration_is_open=False)
    assert not may_re_enter(0, 0, late_registration_is_open=True)  # a freezeout
