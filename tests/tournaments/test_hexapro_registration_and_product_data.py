"""HEX-03 registration: the total buy-in of N games and the prize-pool range of the confirmation dialogue; bad input
(too little balance, zero, negative or absurd game counts, a buy-in not offered) is refused with a clear message.
HEX-30 / AMB-19: a further variant is one more product value; impossible product data is refused."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from tournaments.rules.common import RuleError
from tournaments.rules.hexapro import (
    DEFAULT_PRODUCTS,
    HEXAPRO,
    HEXAPRO_EXTREME,
    BuyInLevel,
    HexaProProduct,
    MultiplierRow,
    expected_multiplier,
    game_prizes,
    payout_split_cents,
    prize_pool_range_cents,
    product_by_code,
    rake_equivalent,
    registration_total_cents,
    stated_rake_equivalent,
)
from tournaments.rules.timebank import TimebankRule


def test_hex_03_the_total_buy_in_is_the_buy_in_times_the_games() -> None:
    """000's confirmation dialogue: four €25 games → "Total Buy-in: €100"."""
    assert registration_total_cents(HEXAPRO, 2_500, 4, balance_cents=10_000) == 10_000
    assert registration_total_cents(HEXAPRO_EXTREME, 20, 20, balance_cents=400) == 400


def test_hex_03_the_confirmation_shows_the_prize_pool_range_of_the_buy_in() -> None:
    """000's lobby: "€25,000 TEXAS HOLD'EM €25" — the largest pool of a €25 HexaPro."""
    assert prize_pool_range_cents(HEXAPRO, 2_500) == (3_750, 2_500_000)
    assert prize_pool_range_cents(HEXAPRO_EXTREME, 20) == (20, 20_000)


def test_hex_03_too_little_balance_for_the_chosen_games_is_refused() -> None:
    with pytest.raises(RuleError, match=r"3 × €10\.00 = €30\.00 is more than the balance of €29\.99"):
        registration_total_cents(HEXAPRO, 1_000, 3, balance_cents=2_999)


@pytest.mark.parametrize("games", [0, -1, 21, 10**9, True, 2.0, "3", None])
def test_hex_03_zero_negative_absurd_or_non_whole_game_counts_are_refused(games: Any) -> None:
    with pytest.raises(RuleError, match="number of games is a whole number from 1 to 20"):
        registration_total_cents(HEXAPRO, 100, games, balance_cents=10**12)


@pytest.mark.parametrize("buy_in", [300, 0, -100, 20])
def test_hex_03_a_buy_in_that_is_not_offered_is_refused_with_the_offered_ones(buy_in: int) -> None:
    with pytest.raises(RuleError) as refused:
        registration_total_cents(HEXAPRO, buy_in, 1, balance_cents=10**6)
    if buy_in > 0:
        assert str(refused.value).endswith("offered: €1.00, €2.00, €5.00, €10.00, €25.00, €50.00, €100.00")


def test_a_negative_balance_is_refused() -> None:
    with pytest.raises(RuleError):
        registration_total_cents(HEXAPRO, 100, 1, balance_cents=-1)


def test_products_are_found_by_code() -> None:
    assert product_by_code(DEFAULT_PRODUCTS, "hexapro_extreme") is HEXAPRO_EXTREME
    with pytest.raises(RuleError, match="there are hexapro, hexapro_extreme"):
        product_by_code(DEFAULT_PRODUCTS, "hexapro_banzai")


def test_hex_30_amb_19_a_further_variant_is_data_and_every_function_works_on_it() -> None:
    """An invented variant: four seats, 2x or 20x, €4 buy-in."""
    variant = HexaProProduct(
        code="hexapro_invented",
        name="HexaPro Invented",
        buy_ins=(BuyInLevel(400, 27),),
        multipliers=(
            MultiplierRow(200, 1, (70, 20, 10), 1_000, 300, TimebankRule(10, 5, 5, 20)),
            MultiplierRow(20, 9, (100,), 800, 120, TimebankRule(10, 5, 5, 20)),
        ),
        blind_rows=((25, 50, 0), (50, 100, 10)),
        stated_rake_equivalent_percent=Decimal("5"),
        seats=4,
    )
    assert expected_multiplier(variant) == Fraction(38, 10)  # (20 × 1 + 2 × 9) / 10
    assert rake_equivalent(variant) == stated_rake_equivalent(variant) == Fraction(5, 100)
    assert payout_split_cents(variant, 400, 200) == (5_600, 1_600, 800)
    assert [prize.cents for prize in game_prizes(variant, 400, 200, (1, 2, 3, 4))] == [5_600, 1_600, 800, 0]


def row(**changes: Any) -> MultiplierRow:
    return dataclasses.replace(HEXAPRO.multipliers[0], **changes)


@pytest.mark.parametrize(
    "changes",
    [
        {"multiplier_tenths": 0},
        {"weight": 0},
        {"payout_percentages": (80, 12)},
        {"payout_percentages": (8, 12, 80)},
        {"payout_percentages": ()},
        {"payout_percentages": [100]},
        {"starting_stack": 0},
        {"level_seconds": 0},
        {"timebank": (10, 5, 5, 20)},
    ],
)
def test_impossible_multiplier_rows_are_refused(changes: dict[str, Any]) -> None:
    with pytest.raises(RuleError):
        row(**changes)


@pytest.mark.parametrize(
    "changes",
    [
        {"code": ""},
        {"buy_ins": ()},
        {"buy_ins": (BuyInLevel(200, 14), BuyInLevel(100, 7))},  # not increasing
        {"buy_ins": (BuyInLevel(125, 9),)},  # 1.5x of €1.25 is 187.5 cents
        {"multipliers": tuple(reversed(HEXAPRO.multipliers))},  # largest first
        {"multipliers": (HEXAPRO.multipliers[0], HEXAPRO.multipliers[0])},
        {"seats": 2},  # 80/12/8 pays three places
        {"blind_rows": ()},
        {"blind_rows": ((20, 10, 0),)},
        {"blind_rows": ((10, 20),)},
        {"stated_rake_equivalent_percent": 6.853},
        {"maximum_games_per_registration": 0},
    ],
)
def test_impossible_products_are_refused(changes: dict[str, Any]) -> None:
    with pytest.raises(RuleError):
        dataclasses.replace(HEXAPRO, **changes)


def test_a_fee_component_above_its_buy_in_is_refused() -> None:
    with pytest.raises(RuleError):
        BuyInLevel(100, 101)
