"""CXL-11 approximation for big fields: Monte-Carlo Malmuth–Harville with places 1–2 exact, checked against the exact
equities where both run, within the documented bound of 4 standard errors per player."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from tournaments.rules.icm import (
    ERROR_BOUND_IN_STANDARD_ERRORS,
    IcmMethod,
    approximate_icm_equities,
    icm_chop,
    icm_equities,
)


def random_field(seed: int, players: int, places: int) -> tuple[list[int], list[int]]:
    generator = random.Random(seed)
    stacks = [generator.randint(500, 60_000) for _ in range(players)]
    prizes = sorted((generator.randint(100, 50_000) for _ in range(places)), reverse=True)
    return stacks, prizes


@pytest.mark.parametrize(
    ("seed", "players", "places"), [(1, 6, 6), (2, 9, 5), (3, 10, 10), (4, 12, 4), (5, 12, 7), (6, 11, 3)]
)
def test_cxl11_every_estimate_is_within_the_stated_error_bound_of_the_exact_equity(
    seed: int, players: int, places: int
) -> None:
    stacks, prizes = random_field(seed, players, places)
    exact = icm_equities(stacks, prizes)
    estimate = approximate_icm_equities(stacks, prizes, samples=4000, seed=seed)
    for player in range(players):
        error = abs(float(estimate.equities[player] - exact[player]))
        # A player never paid below second place in any sample has no sampled part and must be exact.
        bound = ERROR_BOUND_IN_STANDARD_ERRORS * estimate.standard_errors[player]
        assert error <= bound or error < 1e-9, (player, error, estimate.standard_errors[player])


def test_cxl11_the_standard_error_shrinks_like_one_over_the_root_of_the_samples() -> None:
    stacks, prizes = random_field(7, 9, 6)
    few = approximate_icm_equities(stacks, prizes, samples=1_000, seed=1).standard_errors
    many = approximate_icm_equities(stacks, prizes, samples=16_000, seed=1).standard_errors
    ratios = [small / big for small, big in zip(few, many, strict=True)]
    assert all(3 < ratio < 5.5 for ratio in ratios), ratios  # √16 = 4


def test_cxl11_with_two_paid_places_the_approximation_is_exact() -> None:
    stacks, prizes = random_field(8, 30, 2)
    estimate = approximate_icm_equities(stacks, prizes, samples=2, seed=0)
    assert estimate.equities == icm_equities(stacks, prizes)
    assert set(estimate.standard_errors) == {0.0}


def test_cxl11_estimates_add_up_to_the_prizes_exactly_and_repeat_with_the_seed() -> None:
    stacks, prizes = random_field(9, 200, 30)
    first = approximate_icm_equities(stacks, prizes, samples=50, seed=42)
    again = approximate_icm_equities(stacks, prizes, samples=50, seed=42)
    other = approximate_icm_equities(stacks, prizes, samples=50, seed=43)
    assert sum(first.equities) == sum(prizes)
    assert first == again
    assert first.equities != other.equities


def test_cxl11_a_chop_too_big_for_the_exact_method_switches_to_the_approximation_and_pays_whole_cents() -> None:
    stacks, prizes = random_field(10, 300, 40)
    chop = icm_chop(stacks, prizes, samples=20)
    assert chop.equities.method is IcmMethod.MONTE_CARLO
    assert sum(chop.cents) == sum(prizes)
    assert all(abs(cents - equity) < 1 for cents, equity in zip(chop.cents, chop.equities.equities, strict=True))
    assert chop.equities.samples == 20


def test_cxl11_a_small_chop_is_exact_unless_told_otherwise() -> None:
    assert icm_chop([3, 2, 1], [60, 40]).equities.method is IcmMethod.EXACT
    forced = icm_chop([3, 2, 1], [60, 30, 10], method=IcmMethod.MONTE_CARLO, samples=100)
    assert forced.equities.method is IcmMethod.MONTE_CARLO
    assert sum(forced.equities.equities) == Fraction(100)
