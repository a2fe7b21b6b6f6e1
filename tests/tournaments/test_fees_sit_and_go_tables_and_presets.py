"""FEE-01 / FEE-02 Sit & Go fee tables (SX-16), FEE-03 multi-table fee presets, FEE-04 two-amount entries, FEE-05
freerolls, AMB-53 the 5-handed €50 / €100 Sit & Gos not offered."""

from __future__ import annotations

import pytest

from tournaments.rules.common import RuleError
from tournaments.rules.fees import (
    FIVE_HANDED_SIT_AND_GO_PRICES,
    FREEROLL,
    MULTI_TABLE_PRICE_PRESETS,
    TWO_HANDED_SIT_AND_GO_PRICES,
    EntryPrice,
    sit_and_go_price,
)

# (total buy-in, prize pool, fee) in cents, as printed in the catalog.
FEE_01 = [(100, 95, 5), (200, 190, 10), (400, 380, 20), (1_000, 950, 50), (2_500, 2_375, 125)]
FEE_02 = [
    (100, 97, 3),
    (200, 194, 6),
    (400, 388, 12),
    (1_000, 970, 30),
    (2_500, 2_425, 75),
    (5_000, 4_850, 150),
    (10_000, 9_700, 300),
    (20_000, 19_400, 600),
]
FEE_03 = [
    (100, 90, 10),
    (400, 360, 40),
    (1_000, 900, 100),
    (2_500, 2_250, 250),
    (5_000, 4_500, 500),
    (10_000, 9_000, 1_000),
]


def rows(prices: tuple[EntryPrice, ...]) -> list[tuple[int, int, int]]:
    return [(price.total_cents, price.prize_contribution_cents, price.fee_cents) for price in prices]


def test_fee_01_five_handed_sit_and_go_rows_are_exported_with_their_numbers() -> None:
    assert rows(FIVE_HANDED_SIT_AND_GO_PRICES) == FEE_01


def test_fee_02_two_handed_sit_and_go_rows_are_exported_with_their_numbers() -> None:
    assert rows(TWO_HANDED_SIT_AND_GO_PRICES) == FEE_02


def test_fee_03_multi_table_presets_are_the_v22_rows() -> None:
    assert rows(MULTI_TABLE_PRICE_PRESETS) == FEE_03


@pytest.mark.parametrize(
    ("prices", "percent"),
    [(FIVE_HANDED_SIT_AND_GO_PRICES, 5), (TWO_HANDED_SIT_AND_GO_PRICES, 3), (MULTI_TABLE_PRICE_PRESETS, 10)],
)
def test_each_fee_table_is_one_fixed_percentage_of_the_total(prices: tuple[EntryPrice, ...], percent: int) -> None:
    assert all(price.fee_cents * 100 == price.total_cents * percent for price in prices)


def test_sx_16_a_sit_and_go_buy_in_splits_into_prize_pool_and_fee() -> None:
    assert sit_and_go_price(5, 2_500) == EntryPrice(2_375, 125)
    assert sit_and_go_price(2, 20_000) == EntryPrice(19_400, 600)


def test_amb_53_five_handed_sit_and_gos_of_50_and_100_euros_are_not_offered() -> None:
    for total in (5_000, 10_000):
        with pytest.raises(RuleError, match="5-handed"):
            sit_and_go_price(5, total)
    with pytest.raises(RuleError):
        sit_and_go_price(9, 1_000)


def test_fee_05_a_freeroll_has_no_buy_in_and_no_fee() -> None:
    assert FREEROLL.is_freeroll
    assert FREEROLL.total_cents == 0
    assert not EntryPrice(0, 10).is_freeroll


def test_an_entry_price_is_two_non_negative_whole_amounts() -> None:
    with pytest.raises(RuleError):
        EntryPrice(-1, 10)
    with pytest.raises(RuleError):
        EntryPrice(95, 5.0)  # type: ignore[arg-type]
