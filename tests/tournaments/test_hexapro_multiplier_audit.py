"""HEX-31 / LOB-09 multiplier audit per product and buy-in: games per multiplier against the expected games, the
chi-square p-value, and the realised rake equivalent against the stated 6.853 %."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.rules.common import RuleError
from tournaments.rules.hexapro import HEXAPRO, HEXAPRO_EXTREME
from tournaments.rules.hexapro_audit import multiplier_audit, product_audits

# Games played per buy-in (cents) and multiplier (tenths).
GAMES = {
    1_000: {15: 560, 30: 250, 50: 140, 100: 46, 250: 3, 1_000: 1},  # 1,000 games at €10
    100: {15: 60, 30: 30, 50: 10},  # 100 games at €1
}


def test_hex_31_games_per_multiplier_against_the_expected_games_for_one_buy_in() -> None:
    audit = multiplier_audit(HEXAPRO, GAMES, 1_000)
    assert (audit.product_code, audit.buy_in_cents, audit.games) == ("hexapro", 1_000, 1_000)
    games = {row.multiplier_tenths: (row.games, row.expected_games) for row in audit.rows}
    assert games[10_000] == (0, Fraction(1, 100))
    assert games[1_000] == (1, Fraction(5, 100))
    assert games[15] == (560, Fraction(56_294, 100))
    assert [row.probability for row in audit.rows] == [Fraction(row.weight, 100_000) for row in HEXAPRO.multipliers]


def test_hex_31_the_realised_rake_equivalent_is_one_minus_the_pools_over_the_seats_buy_ins() -> None:
    """€10 games: pools €(560 × 15 + 250 × 30 + 140 × 50 + 46 × 100 + 3 × 250 + 1 × 1,000) = €29,250 for 1,000 × 3 ×
    €10 = €30,000 paid → 1 − 29,250 / 30,000 = 2.5 %."""
    audit = multiplier_audit(HEXAPRO, GAMES, 1_000)
    assert audit.realised_rake_equivalent == Fraction(1, 40)
    assert audit.expected_rake_equivalent == audit.stated_rake_equivalent == Fraction(6_853, 100_000)


def test_hex_31_all_buy_ins_together_weigh_the_rake_by_money_and_count_the_draws_together() -> None:
    """€1 games: pools 60 × €1.50 + 30 × €3 + 10 × €5 = €230 for €300 paid. Together: 1 − (29,250 + 230) / (30,000 +
    300)."""
    overall = multiplier_audit(HEXAPRO, GAMES)
    assert overall.buy_in_cents is None
    assert overall.games == 1_100
    assert overall.realised_rake_equivalent == 1 - Fraction(29_480, 30_300)
    assert {row.multiplier_tenths: row.games for row in overall.rows}[15] == 620
    assert overall.test is not None


def test_hex_31_a_buy_in_without_games_has_no_realised_rake_and_no_test() -> None:
    audit = multiplier_audit(HEXAPRO, GAMES, 5_000)
    assert (audit.games, audit.realised_rake_equivalent, audit.test) == (0, None, None)
    assert all(row.games == 0 and row.expected_games == 0 for row in audit.rows)


def test_hex_31_the_audit_covers_every_offered_buy_in_and_then_all_of_them() -> None:
    audits = product_audits(HEXAPRO_EXTREME, {20: {10: 3, 30: 2}, 10_000: {1_250: 1}})
    assert [audit.buy_in_cents for audit in audits] == [20, 50, 100, 200, 500, 1_000, 2_000, 2_500, 5_000, 10_000, None]
    assert audits[0].games == 5
    assert audits[0].realised_rake_equivalent == 1 - Fraction(3 * 20 + 2 * 60, 5 * 60)
    assert audits[-1].games == 6


def test_hex_31_a_frequency_far_from_the_stated_probabilities_has_a_tiny_p_value() -> None:
    skewed = {1_000: {15: 300, 30: 300, 50: 300, 100: 100}}
    audit = multiplier_audit(HEXAPRO, skewed, 1_000)
    assert audit.test is not None
    assert audit.test.p_value < 1e-20


@pytest.mark.parametrize(
    ("games", "buy_in"),
    [
        ({300: {15: 1}}, None),  # €3 is not offered
        ({1_000: {20: 1}}, None),  # HexaPro has no 2x
        ({1_000: {15: -1}}, None),
        ({1_000: {15: 1}}, 300),
    ],
)
def test_hex_31_games_the_product_cannot_have_are_refused(games: dict[int, dict[int, int]], buy_in: int | None) -> None:
    with pytest.raises(RuleError):
        multiplier_audit(HEXAPRO, games, buy_in)
