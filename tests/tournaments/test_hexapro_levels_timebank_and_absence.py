"""The game a drawn multiplier makes: blind structure with its starting stack and level time (HEX-11..HEX-13,
HEX-26..HEX-28), the last level held (HEX-14, AMB-52) and new levels from the next hand (AMB-65), the timebank rows
(HEX-15, HEX-29, TB-02, TB-06, AMB-31), and absence: sitting out and disconnection (HEX-16, TB-07, TRN-19)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tournaments.rules.common import RuleError
from tournaments.rules.hexapro import (
    HEXAPRO,
    HEXAPRO_EXTREME,
    HexaProProduct,
    TurnAllowance,
    blind_structure,
    sitting_out_needs_review,
    timebank,
    turn_allowance,
)
from tournaments.rules.levels import BlindLevel, LevelClock
from tournaments.rules.timebank import TimebankRule, hexapro_timebank

START = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)
BELOW_25X = TimebankRule(10, 5, 5, 20)
FROM_25X = TimebankRule(30, 5, 5, 60)


def test_hex_12_hex_13_a_1_5x_game_plays_the_28_levels_from_500_chips_one_minute_each() -> None:
    structure = blind_structure(HEXAPRO, 15)
    assert structure.starting_stack == 500
    assert len(structure.levels) == 28
    assert structure.level(1) == BlindLevel(10, 20, 0, 60)
    assert structure.level(2) == BlindLevel(15, 30, 4, 60)


def test_hex_13_a_1000x_game_has_four_minute_levels() -> None:
    assert {level.duration_seconds for level in blind_structure(HEXAPRO, 10_000).levels} == {240}


def test_hex_26_hex_27_hex_28_an_extreme_1x_game_starts_with_100_chips_and_one_minute_levels_without_antes() -> None:
    structure = blind_structure(HEXAPRO_EXTREME, 10)
    assert structure.starting_stack == 100
    assert len(structure.levels) == 19
    assert structure.level(4) == BlindLevel(30, 60, 0, 60)
    assert blind_structure(HEXAPRO_EXTREME, 200).level(1) == BlindLevel(10, 20, 0, 120)
    assert blind_structure(HEXAPRO_EXTREME, 1_250).starting_stack == 500


def test_hex_14_amb_52_the_last_hexapro_level_stays_in_force_until_the_game_ends() -> None:
    """A 1.5x game: 28 one-minute levels; after 28 minutes (and hours later) level 28 (2,000/4,000, ante 500) holds."""
    clock = LevelClock(START, blind_structure(HEXAPRO, 15))
    assert clock.reading(START + timedelta(minutes=27, seconds=59)).number == 28
    for later in (timedelta(minutes=28), timedelta(hours=5)):
        reading = clock.reading(START + later)
        assert (reading.number, reading.level, reading.remaining) == (28, BlindLevel(2_000, 4_000, 500, 60), None)
    assert blind_structure(HEXAPRO, 15).level(40) == BlindLevel(2_000, 4_000, 500, 60)


def test_hex_14_amb_52_the_last_extreme_level_19_stays_in_force() -> None:
    clock = LevelClock(START, blind_structure(HEXAPRO_EXTREME, 10_000))  # 19 three-minute levels
    reading = clock.reading(START + timedelta(minutes=19 * 3 + 30))
    assert (reading.number, reading.level.big_blind, reading.remaining) == (19, 1_400, None)


def test_amb_65_a_hexapro_level_applies_from_the_first_hand_dealt_after_its_timer_expires() -> None:
    clock = LevelClock(START, blind_structure(HEXAPRO, 30))  # two-minute levels
    assert clock.blinds_for_hand_dealt_at(START + timedelta(minutes=1, seconds=59)).big_blind == 20
    assert clock.blinds_for_hand_dealt_at(START + timedelta(minutes=2)).big_blind == 30


@pytest.mark.parametrize(
    ("product", "multiplier_tenths", "row"),
    [
        (HEXAPRO, 15, BELOW_25X),
        (HEXAPRO, 30, BELOW_25X),
        (HEXAPRO, 50, BELOW_25X),
        (HEXAPRO, 100, BELOW_25X),
        (HEXAPRO, 250, FROM_25X),
        (HEXAPRO, 1_000, FROM_25X),
        (HEXAPRO, 10_000, FROM_25X),
        (HEXAPRO_EXTREME, 10, BELOW_25X),
        (HEXAPRO_EXTREME, 30, BELOW_25X),
        (HEXAPRO_EXTREME, 40, BELOW_25X),
        (HEXAPRO_EXTREME, 100, BELOW_25X),
        (HEXAPRO_EXTREME, 200, BELOW_25X),
        (HEXAPRO_EXTREME, 1_250, FROM_25X),
        (HEXAPRO_EXTREME, 10_000, FROM_25X),
    ],
)
def test_hex_15_hex_29_tb_02_tb_06_amb_31_the_timebank_row_of_each_multiplier(
    product: HexaProProduct, multiplier_tenths: int, row: TimebankRule
) -> None:
    """Below 25x: 10 s, +5 s every 5th hand, cap 20 s; 25x or higher: 30 s, +5 s every 5th hand, cap 60 s. Extreme
    uses the HexaPro rows (1x–20x below, 125x and 1000x from 25x)."""
    assert timebank(product, multiplier_tenths) == row


@pytest.mark.parametrize("product", [HEXAPRO, HEXAPRO_EXTREME])
def test_tb_02_each_stored_row_is_the_timebank_rules_row_for_its_multiplier(product: HexaProProduct) -> None:
    for row in product.multipliers:
        assert row.timebank == hexapro_timebank(row.multiplier)


def test_tb_03_a_25x_game_adds_5_seconds_after_every_5th_hand_dealt_in_up_to_60() -> None:
    """Derived: 30 s, 8 s used in hand 2 → 22 s; after hand 5 → 27 s; ... capped at 60 s."""
    rule = timebank(HEXAPRO, 250)
    balance = rule.first_hand_seconds * 1000
    seen = {}
    for hand in range(1, 51):
        if hand == 2:
            balance -= 8_000
        balance = rule.balance_after_hand(balance, hand)
        seen[hand] = balance // 1000
    assert (seen[2], seen[4], seen[5], seen[10], seen[35], seen[40], seen[50]) == (22, 22, 27, 32, 57, 60, 60)


def test_hex_16_a_sitting_out_player_is_dealt_in_and_acted_for_at_once() -> None:
    for connected in (True, False):
        allowance = turn_allowance(HEXAPRO, connected=connected, sitting_out=True)
        assert allowance == TurnAllowance(0, timebank_runs=False, sit_out_after_hand=False)


def test_hex_16_tb_07_a_disconnected_player_gets_decision_time_plus_20_seconds_then_sits_out_after_the_hand() -> None:
    allowance = turn_allowance(HEXAPRO, connected=False, sitting_out=False)
    assert allowance == TurnAllowance(30, timebank_runs=False, sit_out_after_hand=True)


def test_hex_16_a_connected_player_has_the_decision_time_then_the_timebank() -> None:
    assert turn_allowance(HEXAPRO_EXTREME, connected=True, sitting_out=False) == TurnAllowance(10, True, False)


def test_hex_16_one_player_may_sit_out_two_at_once_are_flagged_for_review() -> None:
    assert not sitting_out_needs_review([])
    assert not sitting_out_needs_review([7])
    assert not sitting_out_needs_review([7, 7])
    assert sitting_out_needs_review([7, 8])


def test_a_structure_for_a_multiplier_the_product_does_not_have_is_refused() -> None:
    with pytest.raises(RuleError, match="no 2x multiplier"):
        blind_structure(HEXAPRO, 20)
    with pytest.raises(RuleError):
        timebank(HEXAPRO_EXTREME, 15)
