"""Payouts by multiplier (HEX-09, HEX-25 and their worked examples), every combination in whole cents, the cent rule
for edited tables, finishing places (HEX-18 with TRN-22), all places credited at game end (HEX-10, AMB-58), and the
payout percentages and fee component in the form the CXL-09 cancellation split takes (HEX-17, AMB-16)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from tournaments.rules.common import RuleError
from tournaments.rules.hexapro import (
    HEXAPRO,
    HEXAPRO_EXTREME,
    HexaProProduct,
    Prize,
    buy_in_level,
    finishing_order,
    game_prizes,
    inexact_payouts,
    payout_percentages,
    payout_split_cents,
    prize_pool_cents,
)


def test_hex_09_derived_examples() -> None:
    """€10 at 25x → €250 → €200 / €30 / €20; €100 at 1000x → €80,000 / €12,000 / €8,000; €5 at 10x → €50 to the
    winner only."""
    assert payout_split_cents(HEXAPRO, 1_000, 250) == (20_000, 3_000, 2_000)
    assert payout_split_cents(HEXAPRO, 10_000, 10_000) == (8_000_000, 1_200_000, 800_000)
    assert payout_split_cents(HEXAPRO, 500, 100) == (5_000,)


def test_hex_09_up_to_10x_the_winner_takes_all_above_it_80_12_8() -> None:
    shares = {row.label: row.payout_percentages for row in HEXAPRO.multipliers}
    assert shares == {
        "1.5x": (100,),
        "3x": (100,),
        "5x": (100,),
        "10x": (100,),
        "25x": (80, 12, 8),  # v2.2 paid 25x winner-takes-all (VD-13); v2.7 governs
        "100x": (80, 12, 8),
        "1000x": (80, 12, 8),
    }


def test_hex_25_derived_examples() -> None:
    """€10 at 125x → €1,250 → €1,000 / €200 / €50; €0.5 at 125x → €62.50 → €50.00 / €10.00 / €2.50; €0.2 at 1000x →
    €200 → €160 / €24 / €16; €1 at 1x → €1 to the winner."""
    assert payout_split_cents(HEXAPRO_EXTREME, 1_000, 1_250) == (100_000, 20_000, 5_000)
    assert payout_split_cents(HEXAPRO_EXTREME, 50, 1_250) == (5_000, 1_000, 250)
    assert payout_split_cents(HEXAPRO_EXTREME, 20, 10_000) == (16_000, 2_400, 1_600)
    assert payout_split_cents(HEXAPRO_EXTREME, 100, 10) == (100,)


def test_hex_25_up_to_20x_the_winner_takes_all_125x_pays_80_16_4_and_1000x_80_12_8() -> None:
    shares = {row.label: row.payout_percentages for row in HEXAPRO_EXTREME.multipliers}
    assert shares == {
        "1x": (100,),
        "3x": (100,),
        "4x": (100,),
        "10x": (100,),
        "20x": (100,),
        "125x": (80, 16, 4),
        "1000x": (80, 12, 8),
    }


@pytest.mark.parametrize("product", [HEXAPRO, HEXAPRO_EXTREME])
def test_hex_09_hex_25_every_buy_in_multiplier_and_share_gives_whole_cents(product: HexaProProduct) -> None:
    assert inexact_payouts(product) == ()
    for level in product.buy_ins:
        for row in product.multipliers:
            pool = prize_pool_cents(product, level.buy_in_cents, row.multiplier_tenths)
            split = payout_split_cents(product, level.buy_in_cents, row.multiplier_tenths)
            assert list(split) == [pool * share // 100 for share in row.payout_percentages]
            assert sum(split) == pool


def test_an_edited_split_that_is_not_whole_cents_still_pays_exactly_the_pool_best_places_first() -> None:
    rows = list(HEXAPRO.multipliers)
    rows[-1] = dataclasses.replace(rows[-1], payout_percentages=(70, 30))  # 1.5x of €1 = 150 cents → 105 / 45
    rows[-2] = dataclasses.replace(rows[-2], payout_percentages=(34, 33, 33))  # 3x of €1 = 300 → 102 / 99 / 99
    edited = dataclasses.replace(HEXAPRO, multipliers=tuple(rows))
    assert payout_split_cents(edited, 100, 15) == (105, 45)
    assert payout_split_cents(edited, 100, 30) == (102, 99, 99)
    shares_of_a_pool_of_7_50 = dataclasses.replace(rows[-1], payout_percentages=(67, 33))
    edited = dataclasses.replace(HEXAPRO, multipliers=(*rows[:-1], shares_of_a_pool_of_7_50))
    assert payout_split_cents(edited, 500, 15) == (503, 247)  # 502.5 + 247.5: the leftover cent to 1st
    assert (500, 15) in inexact_payouts(edited)


def test_hex_18_the_first_player_eliminated_is_third_the_next_second() -> None:
    order = finishing_order([11, 22, 33], [{22: 140}, {33: 300}], random.Random(1))
    assert order == (11, 33, 22)


def test_hex_18_trn_22_two_players_eliminated_in_one_hand_are_ordered_by_their_chips_at_its_start() -> None:
    assert finishing_order([11, 22, 33], [{22: 300, 33: 900}], random.Random(1)) == (11, 33, 22)


def test_hex_18_amb_33_equal_stacks_eliminated_together_are_ordered_at_random() -> None:
    orders = {finishing_order([11, 22, 33], [{22: 500, 33: 500}], random.Random(seed)) for seed in range(40)}
    assert orders == {(11, 22, 33), (11, 33, 22)}


def test_hex_18_a_game_is_over_only_with_one_player_left_and_eliminations_name_its_players() -> None:
    with pytest.raises(RuleError, match="not over"):
        finishing_order([11, 22, 33], [{22: 140}], random.Random(1))
    with pytest.raises(RuleError, match="no player still in the game"):
        finishing_order([11, 22, 33], [{22: 140}, {22: 200}], random.Random(1))
    with pytest.raises(RuleError):
        finishing_order([11, 11, 33], [{11: 140}, {33: 200}], random.Random(1))


def test_hex_10_amb_58_every_place_is_paid_at_once_when_the_game_ends() -> None:
    assert game_prizes(HEXAPRO, 1_000, 250, (33, 11, 22)) == (
        Prize(33, 1, 20_000),
        Prize(11, 2, 3_000),
        Prize(22, 3, 2_000),
    )
    assert game_prizes(HEXAPRO, 1_000, 30, (33, 11, 22)) == (Prize(33, 1, 3_000), Prize(11, 2, 0), Prize(22, 3, 0))


def test_hex_10_the_prizes_need_all_three_distinct_players_placed() -> None:
    for bad in ((33, 11), (33, 11, 11), (1, 2, 3, 4)):
        with pytest.raises(RuleError):
            game_prizes(HEXAPRO, 1_000, 250, bad)


def test_hex_17_cxl_09_amb_16_the_cancellation_split_gets_whole_percentages_and_the_fee_component() -> None:
    """CXL-09's example: €10 at 25x, €175 left after 3 × €25 → ICM over 80/12/8 = €140 / €21 / €14 prizes, and each
    remaining player gets the €0.69 fee component back."""
    percentages = payout_percentages(HEXAPRO, 250)
    assert percentages == (80, 12, 8)
    assert all(type(share) is int for share in percentages)
    assert sum(percentages) == 100
    assert [17_500 * share // 100 for share in percentages] == [14_000, 2_100, 1_400]
    assert buy_in_level(HEXAPRO, 1_000).fee_component_cents == 69
    assert payout_percentages(HEXAPRO, 15) == (100,)
