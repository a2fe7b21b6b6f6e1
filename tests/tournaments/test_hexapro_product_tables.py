"""The HexaPro and HexaPro Extreme tables as the catalog prints them (SX-18): HEX-01, HEX-02, HEX-06, HEX-07, HEX-11,
HEX-12, HEX-13, HEX-19, HEX-20, HEX-21, HEX-22, HEX-23, HEX-26, HEX-27, HEX-28; AMB-04, AMB-05, AMB-15.

The expected values below are typed from the catalog; the products compute them from their own rows."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.rules.hexapro import (
    HEXAPRO,
    HEXAPRO_EXTREME,
    HexaProProduct,
    multiplier_text,
    prize_pool_cents,
    probability,
)

EURO = 100

# HEX-07: multiplier label → prize pool in euros for €1, €2, €5, €10, €25, €50, €100; probability in 100,000.
HEX_07 = {
    "1000x": ((1_000, 2_000, 5_000, 10_000, 25_000, 50_000, 100_000), 1),
    "100x": ((100, 200, 500, 1_000, 2_500, 5_000, 10_000), 5),
    "25x": ((25, 50, 125, 250, 625, 1_250, 2_500), 100),
    "10x": ((10, 20, 50, 100, 250, 500, 1_000), 4_600),
    "5x": ((5, 10, 25, 50, 125, 250, 500), 14_000),
    "3x": ((3, 6, 15, 30, 75, 150, 300), 25_000),
    "1.5x": ((Fraction(3, 2), 3, Fraction(15, 2), 15, Fraction(75, 2), 75, 150), 56_294),
}

# HEX-23: multiplier label → prize pool in euros for €0.2, €0.5, €1, €2, €5, €10, €20, €25, €50, €100.
HEX_23 = {
    "1000x": ((200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 25_000, 50_000, 100_000), 1),
    "125x": ((25, Fraction(125, 2), 125, 250, 625, 1_250, 2_500, 3_125, 6_250, 12_500), 202),
    "20x": ((4, 10, 20, 40, 100, 200, 400, 500, 1_000, 2_000), 100),
    "10x": ((2, 5, 10, 20, 50, 100, 200, 250, 500, 1_000), 3_550),
    "4x": ((Fraction(4, 5), 2, 4, 8, 20, 40, 80, 100, 200, 400), 12_000),
    "3x": ((Fraction(3, 5), Fraction(3, 2), 3, 6, 15, 30, 60, 75, 150, 300), 41_772),
    "1x": ((Fraction(1, 5), Fraction(1, 2), 1, 2, 5, 10, 20, 25, 50, 100), 42_375),
}


def tenths_of(label: str) -> int:
    return int(Fraction(label.removesuffix("x")) * 10)


def test_hex_02_hexapro_offers_seven_buy_ins_from_1_to_100_euros() -> None:
    assert [level.buy_in_cents for level in HEXAPRO.buy_ins] == [100, 200, 500, 1_000, 2_500, 5_000, 10_000]


def test_hex_20_hexapro_extreme_offers_ten_buy_ins_from_20_cents_to_100_euros() -> None:
    assert [level.buy_in_cents for level in HEXAPRO_EXTREME.buy_ins] == [
        20,
        50,
        100,
        200,
        500,
        1_000,
        2_000,
        2_500,
        5_000,
        10_000,
    ]


@pytest.mark.parametrize(("product", "table"), [(HEXAPRO, HEX_07), (HEXAPRO_EXTREME, HEX_23)])
def test_hex_06_hex_22_multipliers_and_probabilities_in_100000(
    product: HexaProProduct, table: dict[str, tuple[tuple[int | Fraction, ...], int]]
) -> None:
    assert [row.label for row in product.multipliers] == list(table)
    assert [row.weight for row in product.multipliers] == [weight for _, weight in table.values()]
    assert product.total_weight == 100_000
    for label, (_, weight) in table.items():
        assert probability(product, tenths_of(label)) == Fraction(weight, 100_000)


@pytest.mark.parametrize(("product", "table"), [(HEXAPRO, HEX_07), (HEXAPRO_EXTREME, HEX_23)])
def test_hex_07_hex_23_every_prize_pool_of_the_catalog_tables_is_multiplier_times_buy_in_in_whole_cents(
    product: HexaProProduct, table: dict[str, tuple[tuple[int | Fraction, ...], int]]
) -> None:
    for label, (pools_in_euros, _) in table.items():
        computed = [prize_pool_cents(product, level.buy_in_cents, tenths_of(label)) for level in product.buy_ins]
        assert computed == [int(pool * EURO) for pool in pools_in_euros], label


def test_hex_07_amb_15_the_100_euro_buy_in_at_25x_is_2500_euros_not_the_estonian_2000() -> None:
    assert prize_pool_cents(HEXAPRO, 10_000, 250) == 250_000


def test_hex_07_one_and_a_half_times_one_euro_is_150_cents() -> None:
    assert prize_pool_cents(HEXAPRO, 100, 15) == 150
    assert multiplier_text(15) == "1.5x"


def test_hex_21_seed_example_a_10_euro_buy_in_at_20x_makes_a_200_euro_prize_pool() -> None:
    """SX-12: "€10 * 20 = € 200"."""
    assert prize_pool_cents(HEXAPRO_EXTREME, 1_000, 200) == 20_000


def test_hex_01_hexapro_is_three_handed_with_pools_from_1_5_to_1000_times_the_buy_in_up_to_100000_euros() -> None:
    assert HEXAPRO.seats == 3
    assert (HEXAPRO.multipliers[-1].multiplier, HEXAPRO.multipliers[0].multiplier) == (Fraction(3, 2), 1_000)
    largest = max(
        prize_pool_cents(HEXAPRO, level.buy_in_cents, row.multiplier_tenths)
        for level in HEXAPRO.buy_ins
        for row in HEXAPRO.multipliers
    )
    assert largest == 100_000 * EURO


def test_hex_11_every_hexapro_multiplier_starts_with_500_chips() -> None:
    assert {row.starting_stack for row in HEXAPRO.multipliers} == {500}


def test_hex_26_amb_05_extreme_starting_stacks_by_multiplier_with_1x_for_the_seeds_1_x() -> None:
    stacks = {row.label: row.starting_stack for row in HEXAPRO_EXTREME.multipliers}
    assert stacks == {"1x": 100, "3x": 200, "4x": 200, "10x": 300, "20x": 300, "125x": 500, "1000x": 500}


def test_hex_13_hexapro_level_time_by_multiplier() -> None:
    minutes = {row.label: row.level_seconds / 60 for row in HEXAPRO.multipliers}
    assert minutes == {"1.5x": 1, "3x": 2, "5x": 3, "10x": 3, "25x": 4, "100x": 4, "1000x": 4}


def test_hex_28_amb_04_the_extreme_table_headed_starting_stack_is_the_level_time() -> None:
    minutes = {row.label: row.level_seconds / 60 for row in HEXAPRO_EXTREME.multipliers}
    assert minutes == {"1x": 1, "3x": 1, "4x": 1, "10x": 2, "20x": 2, "125x": 3, "1000x": 3}


def test_hex_12_the_hexapro_blind_structure_has_28_levels_with_antes_from_level_2() -> None:
    rows = HEXAPRO.blind_rows
    assert len(rows) == 28
    assert rows[0] == (10, 20, 0)
    assert rows[1] == (15, 30, 4)
    assert rows[15] == (350, 700, 85)
    assert rows[23] == (1_200, 2_400, 300)
    assert rows[27] == (2_000, 4_000, 500)
    assert all(ante > 0 for _, _, ante in rows[1:])
    expected_big_blinds = [20, 30, 40, 50, 60, 80, 100, 120, 150, 200, 250, 300, 400, 500, 600, 700, 800]
    expected_big_blinds += [1_000, 1_200, 1_400, 1_600, 1_800, 2_000, 2_400, 2_800, 3_200, 3_600, 4_000]
    assert [big for _, big, _ in rows] == expected_big_blinds
    expected_antes = [0, 4, 5, 6, 7, 10, 12, 15, 20, 25, 30, 40, 50, 60, 70, 85, 100, 125, 150, 175, 200]
    expected_antes += [225, 250, 300, 350, 400, 450, 500]
    assert [ante for _, _, ante in rows] == expected_antes
    assert all(small * 2 == big for small, big, _ in rows)


def test_hex_27_the_extreme_blind_structure_has_19_levels_without_antes() -> None:
    rows = HEXAPRO_EXTREME.blind_rows
    expected_small_blinds = [10, 15, 20, 30, 40, 50, 60, 75, 100, 125, 150, 200, 250, 300, 350, 400, 500, 600, 700]
    assert [small for small, _, _ in rows] == expected_small_blinds
    assert all(big == 2 * small and ante == 0 for small, big, ante in rows)


def test_hex_19_extreme_follows_hexapro_except_its_own_tables() -> None:
    for shared in ("seats", "maximum_games_per_registration", "decision_seconds", "reconnect_grace_seconds"):
        assert getattr(HEXAPRO_EXTREME, shared) == getattr(HEXAPRO, shared), shared
    assert HEXAPRO_EXTREME.stated_rake_equivalent_percent == HEXAPRO.stated_rake_equivalent_percent
    own_tables = [
        [(row.multiplier_tenths, row.weight) for row in product.multipliers] for product in (HEXAPRO, HEXAPRO_EXTREME)
    ]
    assert own_tables[0] != own_tables[1]
    assert HEXAPRO_EXTREME.multipliers[-1].multiplier == 1  # "from 1x to 1,000x"
    assert HEXAPRO_EXTREME.multipliers[0].multiplier == 1_000
