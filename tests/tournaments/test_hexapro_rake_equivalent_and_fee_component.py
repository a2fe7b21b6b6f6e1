"""HEX-08 / HEX-24 rake equivalent 6.853 % computed from the tables (SX-13); FEE-06 / AMB-16 the fee component of each
buy-in (€10 → €0.69) and the money of a game: the pool is multiplier × the full buy-in, the house funds or keeps the
difference from the seats' buy-ins."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from fractions import Fraction

import pytest

from tournaments.rules.common import RuleError
from tournaments.rules.fees import EntryPrice
from tournaments.rules.hexapro import (
    HEXAPRO,
    HEXAPRO_EXTREME,
    HexaProProduct,
    default_fee_component_cents,
    entry_price,
    expected_multiplier,
    game_money,
    percent_text,
    rake_equivalent,
    stated_rake_equivalent,
)


def test_hex_08_derived_check_expected_multiplier_279441_in_100000_and_rake_equivalent_6_853_percent() -> None:
    """(1000·1 + 100·5 + 25·100 + 10·4600 + 5·14000 + 3·25000 + 1.5·56294) / 100,000 = 2.79441; 1 − 2.79441/3."""
    assert expected_multiplier(HEXAPRO) == Fraction(279_441, 100_000)
    assert rake_equivalent(HEXAPRO) == Fraction(6_853, 100_000)
    assert percent_text(rake_equivalent(HEXAPRO)) == "6.853 %"


def test_hex_24_derived_check_extreme_has_the_same_expected_multiplier_and_rake_equivalent() -> None:
    """(1000·1 + 125·202 + 20·100 + 10·3550 + 4·12000 + 3·41772 + 1·42375) / 100,000 = 2.79441."""
    assert expected_multiplier(HEXAPRO_EXTREME) == Fraction(279_441, 100_000)
    assert percent_text(rake_equivalent(HEXAPRO_EXTREME)) == "6.853 %"


@pytest.mark.parametrize("product", [HEXAPRO, HEXAPRO_EXTREME])
def test_hex_08_hex_24_the_computed_rake_equivalent_is_exactly_the_stated_one(product: HexaProProduct) -> None:
    assert product.stated_rake_equivalent_percent == Decimal("6.853")
    assert rake_equivalent(product) == stated_rake_equivalent(product)


def test_the_rake_equivalent_follows_the_stored_weights_not_a_typed_in_figure() -> None:
    rows = list(HEXAPRO.multipliers)
    rows[-1] = dataclasses.replace(rows[-1], weight=rows[-1].weight + 1)  # one more 1.5x ticket in 100,001
    edited = dataclasses.replace(HEXAPRO, multipliers=tuple(rows))
    assert expected_multiplier(edited) == Fraction(279_441 * 10 + 15, 100_001 * 10)
    assert rake_equivalent(edited) != stated_rake_equivalent(edited)


def test_fee_06_amb_16_the_fee_component_of_a_10_euro_buy_in_is_69_cents() -> None:
    assert default_fee_component_cents(1_000, Decimal("6.853")) == 69
    assert entry_price(HEXAPRO, 1_000) == EntryPrice(931, 69)


@pytest.mark.parametrize(
    ("buy_in_cents", "fee_cents"),
    [
        (20, 1),
        (50, 3),
        (100, 7),
        (200, 14),
        (500, 34),
        (1_000, 69),
        (2_000, 137),
        (2_500, 171),
        (5_000, 343),
        (10_000, 685),
    ],
)
def test_fee_06_each_buy_in_stores_6_853_percent_of_it_rounded_to_the_cent(buy_in_cents: int, fee_cents: int) -> None:
    """e.g. €0.50 × 6.853 % = 3.4265 cents → 3; €50 → 342.65 → 343 (half up)."""
    products = [product for product in (HEXAPRO, HEXAPRO_EXTREME) if buy_in_cents in _buy_ins(product)]
    assert products
    for product in products:
        assert _buy_ins(product)[buy_in_cents] == fee_cents
        assert entry_price(product, buy_in_cents).total_cents == buy_in_cents


def _buy_ins(product: HexaProProduct) -> dict[int, int]:
    return {level.buy_in_cents: level.fee_component_cents for level in product.buy_ins}


def test_fee_06_the_fee_component_rounds_half_up() -> None:
    assert default_fee_component_cents(200, Decimal("0.25")) == 1  # 0.5 cents
    assert default_fee_component_cents(199, Decimal("0.25")) == 0  # 0.4975 cents


def test_fee_06_a_rake_equivalent_must_be_a_decimal_percentage() -> None:
    for bad in (0.06853, Decimal("-1"), Decimal("100")):
        with pytest.raises(RuleError):
            default_fee_component_cents(1_000, bad)  # type: ignore[arg-type]


def test_fee_06_the_prize_pool_is_multiplier_times_the_full_buy_in_and_the_house_funds_the_difference() -> None:
    """€10 at 25x: the seats pay €30, the pool is €250, the house funds €220; at 1.5x it keeps €15. The fee
    components (3 × €0.69) are booked for reporting only: they do not reduce the pool."""
    big = game_money(HEXAPRO, 1_000, 250)
    assert (big.buy_ins_cents, big.fee_components_cents, big.prize_pool_cents) == (3_000, 207, 25_000)
    assert big.house_result_cents == -22_000
    small = game_money(HEXAPRO, 1_000, 15)
    assert (small.prize_pool_cents, small.house_result_cents) == (1_500, 1_500)


@pytest.mark.parametrize("product", [HEXAPRO, HEXAPRO_EXTREME])
def test_hex_08_over_all_multipliers_the_house_keeps_6_853_percent_of_the_buy_ins(product: HexaProProduct) -> None:
    for level in product.buy_ins:
        kept = sum(
            row.weight * game_money(product, level.buy_in_cents, row.multiplier_tenths).house_result_cents
            for row in product.multipliers
        )
        paid = product.total_weight * level.buy_in_cents * product.seats
        assert Fraction(kept, paid) == Fraction(6_853, 100_000)
