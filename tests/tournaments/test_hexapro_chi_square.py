"""The chi-square test behind the HEX-31 multiplier audit: the survival function (regularized upper incomplete gamma)
against printed table values and closed forms, the exact statistic, and the pooling of rare multipliers."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from tournaments.rules.common import RuleError
from tournaments.rules.hexapro_audit import (
    chi_square_survival,
    chi_square_test,
    pooled_groups,
    regularized_upper_gamma,
)

# Upper critical values of the chi-square distribution as printed in statistics tables (NIST/SEMATECH e-Handbook,
# table 1.3.6.7.4): (degrees of freedom, upper-tail probability, critical value, 3 decimals).
PRINTED_CRITICAL_VALUES = [
    (6, 0.10, 10.645),
    (6, 0.05, 12.592),
    (6, 0.025, 14.449),
    (6, 0.01, 16.812),
    (6, 0.001, 22.458),
    (6, 0.90, 2.204),
    (6, 0.95, 1.635),
    (6, 0.99, 0.872),
    (1, 0.05, 3.841),
    (4, 0.05, 9.488),
    (5, 0.01, 15.086),
    (10, 0.05, 18.307),
    (30, 0.05, 43.773),
    (100, 0.05, 124.342),
]


@pytest.mark.parametrize(("degrees", "tail", "critical"), PRINTED_CRITICAL_VALUES)
def test_hex_31_the_survival_function_reproduces_printed_critical_values(
    degrees: int, tail: float, critical: float
) -> None:
    """The table rounds to 3 decimals, so the tail at the printed value is within the density × 0.0005 of it."""
    assert chi_square_survival(critical, degrees) == pytest.approx(tail, rel=2e-3, abs=2e-5)


@pytest.mark.parametrize("statistic", [0.01, 0.5, 1.0, 3.0, 7.5, 12.0, 20.0, 40.0, 90.0])
def test_the_survival_function_matches_the_closed_forms_for_1_2_3_and_6_degrees(statistic: float) -> None:
    half = statistic / 2
    assert chi_square_survival(statistic, 1) == pytest.approx(math.erfc(math.sqrt(half)), rel=1e-12)
    assert chi_square_survival(statistic, 2) == pytest.approx(math.exp(-half), rel=1e-12)
    three = math.erfc(math.sqrt(half)) + math.sqrt(2 * statistic / math.pi) * math.exp(-half)
    assert chi_square_survival(statistic, 3) == pytest.approx(three, rel=1e-12)
    six = math.exp(-half) * sum(half**k / math.factorial(k) for k in range(3))
    assert chi_square_survival(statistic, 6) == pytest.approx(six, rel=1e-12)


def test_the_survival_function_at_its_edges() -> None:
    assert chi_square_survival(0, 6) == 1.0
    assert chi_square_survival(Fraction(0), 3) == 1.0
    assert 0 < chi_square_survival(500, 6) < 1e-100
    assert regularized_upper_gamma(1, 2) == pytest.approx(math.exp(-2), rel=1e-14)
    for bad_statistic, bad_degrees in ((-1, 6), (1, 0), (1, -2)):
        with pytest.raises(RuleError):
            chi_square_survival(bad_statistic, bad_degrees)
    with pytest.raises(RuleError):
        regularized_upper_gamma(0, 1)
    with pytest.raises(RuleError):
        regularized_upper_gamma(1, math.inf)


def test_the_statistic_is_exact() -> None:
    """Weights 1:1, 60 and 40 observed of 100: (60 − 50)² / 50 + (40 − 50)² / 50 = 4 on 1 degree of freedom."""
    test = chi_square_test([60, 40], [1, 1])
    assert test is not None
    assert (test.statistic, test.degrees_of_freedom, test.groups) == (Fraction(4), 1, ((0,), (1,)))
    assert test.p_value == pytest.approx(math.erfc(math.sqrt(2)), rel=1e-12)
    perfect = chi_square_test([1, 5, 100, 4_600, 14_000, 25_000, 56_294], [1, 5, 100, 4_600, 14_000, 25_000, 56_294])
    assert perfect is not None
    assert (perfect.statistic, perfect.p_value) == (0, 1.0)


def test_hex_31_rare_multipliers_are_pooled_until_each_group_expects_at_least_5() -> None:
    weights = [1, 5, 100, 4_600, 14_000, 25_000, 56_294]  # HEX-06, largest multiplier first
    assert pooled_groups(weights, 1_000_000, 5) == tuple((index,) for index in range(7))  # 1000x expects 10
    assert pooled_groups(weights, 100_000, 5) == ((0, 1), (2,), (3,), (4,), (5,), (6,))  # 1 + 5 = 6 ≥ 5
    assert pooled_groups(weights, 1_000, 5) == ((0, 1, 2, 3), (4,), (5,), (6,))  # 0.01 + 0.05 + 1 + 46
    assert pooled_groups(weights, 20, 5) == ((0, 1, 2, 3, 4, 5), (6,))  # 3.74 + 5 (3x), then 11.26 (1.5x)
    assert pooled_groups([1, 1, 1], 15, 5) == ((0,), (1,), (2,))
    assert pooled_groups([1, 1, 1], 12, 5) == ((0, 1, 2),)  # 4 + 4, then 4 short of 5 joins the group before


def test_hex_31_no_test_without_games_or_with_too_few_to_make_two_groups() -> None:
    weights = [1, 5, 100, 4_600, 14_000, 25_000, 56_294]
    assert chi_square_test([0] * 7, weights) is None
    assert chi_square_test([0, 0, 0, 0, 1, 2, 2], weights) is None
    small = chi_square_test([0, 0, 0, 0, 1, 2, 2], weights, minimum_expected=0)
    assert small is not None
    assert small.degrees_of_freedom == 6


def test_a_single_1000x_game_in_a_thousand_is_no_alarm_once_pooled() -> None:
    """Unpooled, one 1000x in 1,000 games (expecting 0.01) alone gives a statistic near 100; pooled, it is ordinary."""
    weights = [1, 5, 100, 4_600, 14_000, 25_000, 56_294]
    observed = [1, 0, 1, 45, 140, 250, 563]
    unpooled = chi_square_test(observed, weights, minimum_expected=0)
    pooled = chi_square_test(observed, weights)
    assert unpooled is not None
    assert pooled is not None
    assert unpooled.p_value < 1e-15
    assert pooled.p_value > 0.5


def test_bad_test_input_is_refused() -> None:
    with pytest.raises(RuleError):
        chi_square_test([1, 2], [1])
    with pytest.raises(RuleError):
        chi_square_test([], [])
    with pytest.raises(RuleError):
        chi_square_test([1, -2], [1, 1])
    with pytest.raises(RuleError):
        chi_square_test([1, 2], [1, 0])
