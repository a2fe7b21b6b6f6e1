"""AMB-17 / CXL-11 cent rules: round down, leftover cents by largest remainder, ties to the larger stack, then the
lower seat number; the cents always add up to the exact total."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.rules.icm import icm_chop, round_shares_to_cents


def test_amb17_shares_are_rounded_down_and_the_largest_remainder_gets_the_cent() -> None:
    shares = [Fraction(1001, 3), Fraction(1000, 3), Fraction(999, 3)]  # 333.67, 333.33, 333.00
    assert round_shares_to_cents(shares, [1, 2, 3], [1, 2, 3]) == (334, 333, 333)


def test_amb17_equal_remainders_go_to_the_larger_stack() -> None:
    shares = [Fraction(1001, 2), Fraction(999, 2)]  # both .5
    assert round_shares_to_cents(shares, [100, 300], [1, 2]) == (500, 500)
    assert round_shares_to_cents(shares, [300, 100], [1, 2]) == (501, 499)


def test_amb17_equal_remainders_and_equal_stacks_go_to_the_lower_seat() -> None:
    shares = [Fraction(1000, 3)] * 3  # 333.33 each, one cent left over
    assert round_shares_to_cents(shares, [50, 50, 50], [7, 2, 5]) == (333, 334, 333)


def test_amb17_an_icm_chop_of_equal_stacks_gives_the_odd_cent_to_the_lowest_seat() -> None:
    chop = icm_chop([2000, 2000, 2000], [100], seats=[4, 9, 2])
    assert chop.cents == (33, 33, 34)


def test_amb17_shares_that_do_not_add_up_to_whole_cents_are_refused() -> None:
    with pytest.raises(ValueError, match="not to whole cents"):
        round_shares_to_cents([Fraction(1, 2)], [1], [1])


@given(
    numerators=st.lists(st.integers(0, 10**9), min_size=1, max_size=12),
    denominator=st.integers(1, 10**4),
    data=st.data(),
)
def test_amb17_cents_add_up_to_the_total_and_stay_within_a_cent_of_each_share(
    numerators: list[int], denominator: int, data: st.DataObject
) -> None:
    shares = [Fraction(numerator, denominator) for numerator in numerators]
    shortfall = -sum(shares) % 1
    shares[0] += shortfall  # make the total whole
    count = len(shares)
    stacks = data.draw(st.lists(st.integers(1, 1000), min_size=count, max_size=count))
    seats = data.draw(st.permutations(range(1, count + 1)))
    cents = round_shares_to_cents(shares, stacks, seats)
    assert sum(cents) == sum(shares)
    assert all(abs(cent - share) < 1 for cent, share in zip(cents, shares, strict=True))
    remainders = [share - math.floor(share) for share in shares]
    raised = [remainders[position] for position in range(count) if cents[position] > shares[position]]
    kept_down = [remainders[position] for position in range(count) if cents[position] == math.floor(shares[position])]
    if raised and kept_down:
        assert min(raised) >= max(kept_down)
