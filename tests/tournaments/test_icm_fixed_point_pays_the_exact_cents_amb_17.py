"""AMB-17 / CXL-11: the fixed-point method (the sum over sets in whole numbers, with a proven error bound) holds the
exact Malmuth–Harville equities within less than 2^-64 cents, checked against the textbook recursion over finishing
orders on random small fields, and a chop by it pays exactly the cents of the exact shares under the cent rules —
computing the exact fractions when its bounds cannot decide (exact ties of remainders).

The recursion is this file's own (:func:`equities_over_finishing_orders`), with the orders that leave the same players
in sharing what follows: the same exact fractions as ``icm_equities_by_permutations`` (the benchmark's peer, which
walks every order and took about 24 s of CPU here for the 400 random fields), in a fraction of the time."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.rules.icm import (
    FIXED_POINT_TERM_LIMIT,
    IcmMethod,
    chop_equities,
    default_method,
    fixed_point_icm_equities,
    fixed_point_terms,
    icm_chop,
    icm_equities_by_permutations,
    round_shares_to_cents,
)

Field = tuple[list[int], list[int], list[int]]


def equities_over_finishing_orders(stacks: list[int], prizes: list[int] | list[Fraction]) -> tuple[Fraction, ...]:
    """Malmuth–Harville by the recursion over finishing orders: the next place goes to each player still in with the
    probability of their share of the chips still in. What follows a partial order depends only on who is still in,
    so each set of players still in is worked out once and scaled by the probability of reaching it."""

    @cache
    def from_here(still_in: frozenset[int]) -> tuple[Fraction, ...]:
        equities = [Fraction(0)] * len(stacks)
        place = len(stacks) - len(still_in)
        if place == len(prizes):
            return tuple(equities)
        chips_in = sum(stacks[player] for player in still_in)
        for player in still_in:
            probability = Fraction(stacks[player], chips_in)
            equities[player] += probability * prizes[place]
            for other, share in enumerate(from_here(still_in - {player})):
                equities[other] += probability * share
        return tuple(equities)

    return from_here(frozenset(range(len(stacks))))


def test_amb_17_the_shared_recursion_gives_the_fractions_of_the_recursion_over_every_order() -> None:
    assert equities_over_finishing_orders([5, 1, 9, 3, 3, 7], [600, 300, 100, 50]) == icm_equities_by_permutations(
        [5, 1, 9, 3, 3, 7], [600, 300, 100, 50]
    )
    prizes = [Fraction(700, 3), Fraction(200, 3), 0]
    assert equities_over_finishing_orders([2, 8, 8, 1], prizes) == icm_equities_by_permutations([2, 8, 8, 1], prizes)


@st.composite
def fields(draw: st.DrawFn) -> Field:
    """Up to 8 players; stacks small (ties of remainders between different stacks are common) or real; whole-cent
    prizes from first place down; the seats in any order."""
    players = draw(st.integers(1, 8))
    stack_sizes = draw(st.sampled_from([20, 100_000]))
    stacks = draw(st.lists(st.integers(1, stack_sizes), min_size=players, max_size=players))
    places = draw(st.integers(1, players))
    prizes = sorted(draw(st.lists(st.integers(0, 1_000_000), min_size=places, max_size=places)), reverse=True)
    prizes[0] += 1
    seats = draw(st.permutations(range(1, players + 1)))
    return stacks, prizes, list(seats)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=fields())
def test_amb_17_fixed_point_bounds_hold_the_recursion_over_finishing_orders_and_the_cents_are_the_exact_ones(
    field: Field,
) -> None:
    stacks, prizes, seats = field
    exact = equities_over_finishing_orders(stacks, prizes)
    equities = fixed_point_icm_equities(stacks, prizes)
    assert equities.method is IcmMethod.FIXED_POINT
    assert equities.bounds is not None
    for numerator, bound, share in zip(equities.numerators, equities.bounds, exact, strict=True):
        lower = Fraction(numerator, equities.denominator)
        assert lower <= share <= lower + Fraction(bound, equities.denominator)
        assert Fraction(bound, equities.denominator) < Fraction(1, 2**64)
        assert abs(float(share - lower)) < 1e-9
    chop = icm_chop(stacks, prizes, seats, method=IcmMethod.FIXED_POINT)
    assert chop.cents == round_shares_to_cents(exact, stacks, seats)
    assert chop.equities.method in (IcmMethod.FIXED_POINT, IcmMethod.EXACT)
    if chop.equities.method is IcmMethod.EXACT:
        assert chop.equities.equities == exact


@settings(max_examples=100, deadline=None)
@given(
    stacks=st.lists(st.integers(1, 100_000), min_size=1, max_size=7),
    numerators=st.lists(st.integers(0, 300_000), min_size=1, max_size=7),
)
def test_cxl11_fixed_point_bounds_hold_for_prizes_in_fractions_of_a_cent(
    stacks: list[int], numerators: list[int]
) -> None:
    prizes = [Fraction(numerator, 3) for numerator in sorted(numerators, reverse=True)[: len(stacks)]]
    prizes[0] += 1
    exact = equities_over_finishing_orders(stacks, prizes)
    equities = fixed_point_icm_equities(stacks, prizes)
    assert equities.bounds is not None
    for numerator, bound, share in zip(equities.numerators, equities.bounds, exact, strict=True):
        assert numerator <= share * equities.denominator <= numerator + bound


def test_amb_17_an_exact_tie_of_remainders_between_different_stacks_is_decided_by_the_exact_fractions() -> None:
    # Exact shares 351/2 and 581/2: both remainders are half a cent, so the odd cent goes to the larger stack. The
    # fixed-point shares are a hair below the exact ones and cannot tell the remainders apart.
    chop = icm_chop([12, 20], [463, 3], method=IcmMethod.FIXED_POINT)
    assert chop.equities.method is IcmMethod.EXACT
    assert chop.equities.equities == (Fraction(351, 2), Fraction(581, 2))
    assert chop.cents == (175, 291)


def test_amb_17_equal_stacks_tie_exactly_and_the_odd_cents_go_to_the_lower_seats_without_the_exact_fractions() -> None:
    stacks = [7, 7, 7, 3, 3, 11, 11, 11, 11, 5, 5, 5, 2, 2, 9, 9]
    seats = [16, 3, 9, 1, 2, 15, 4, 8, 12, 5, 6, 7, 10, 11, 13, 14]
    prizes = [1_000_003 // place for place in range(1, 17)]
    chop = icm_chop(stacks, prizes, seats)
    assert chop.equities.method is IcmMethod.FIXED_POINT
    exact = icm_chop(stacks, prizes, seats, method=IcmMethod.EXACT)
    assert chop.cents == exact.cents
    assert len(set(exact.equities.equities)) == len(set(stacks))
    assert sum(chop.cents) == sum(prizes)


def test_amb_17_eighteen_players_paid_nine_places_pay_the_exact_cents_by_default() -> None:
    generator = random.Random(18)
    stacks = [generator.randint(1, 40) for _ in range(18)]  # small stacks keep the exact fractions quick
    prizes = [3_000_000 // place for place in range(1, 10)]
    chop = icm_chop(stacks, prizes)
    assert chop.equities.method is IcmMethod.FIXED_POINT
    exact = chop_equities(stacks, prizes, method=IcmMethod.EXACT)
    assert chop.equities.bounds is not None
    for numerator, bound, share in zip(chop.equities.numerators, chop.equities.bounds, exact.equities, strict=True):
        assert numerator <= share * chop.equities.denominator <= numerator + bound
    assert chop.cents == icm_chop(stacks, prizes, method=IcmMethod.EXACT).cents


def test_amb_17_the_default_is_exact_for_small_chops_fixed_point_to_20_players_and_big_fields_paying_few() -> None:
    assert default_method(10, 10) is IcmMethod.EXACT
    assert default_method(12, 12) is IcmMethod.EXACT
    assert default_method(18, 4) is IcmMethod.EXACT
    assert default_method(30, 3) is IcmMethod.EXACT
    assert default_method(13, 13) is IcmMethod.FIXED_POINT
    assert default_method(18, 5) is IcmMethod.FIXED_POINT
    assert default_method(18, 9) is IcmMethod.FIXED_POINT
    assert default_method(20, 20) is IcmMethod.FIXED_POINT
    assert default_method(100, 3) is IcmMethod.FIXED_POINT
    assert default_method(21, 9) is IcmMethod.MONTE_CARLO
    assert default_method(300, 40) is IcmMethod.MONTE_CARLO


def test_amb_17_a_big_field_paying_few_places_sums_by_levels_and_pays_the_exact_cents() -> None:
    generator = random.Random(60)
    stacks = [generator.randint(1_000, 60_000) for _ in range(60)]
    prizes = [500_000, 300_000, 200_000]
    assert fixed_point_terms(60, 3) < 2**60
    chop = icm_chop(stacks, prizes)
    assert chop.equities.method is IcmMethod.FIXED_POINT
    exact = icm_chop(stacks, prizes, method=IcmMethod.EXACT)
    assert chop.equities.bounds is not None
    shares = exact.equities.equities
    for numerator, bound, share in zip(chop.equities.numerators, chop.equities.bounds, shares, strict=True):
        assert numerator <= share * chop.equities.denominator <= numerator + bound
    assert chop.cents == exact.cents


def test_cxl11_the_fixed_point_method_refuses_more_terms_than_its_limit() -> None:
    assert fixed_point_terms(21, 9) > FIXED_POINT_TERM_LIMIT
    with pytest.raises(ValueError, match=f"more than the {FIXED_POINT_TERM_LIMIT:,} it takes"):
        fixed_point_icm_equities([100 + player for player in range(21)], [9_000 - 1_000 * place for place in range(9)])
