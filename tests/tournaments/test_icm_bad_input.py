"""CXL-11 input rules: invalid stacks, prizes and seats are refused with a ValueError saying what is wrong."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.rules.icm import approximate_icm_equities, icm_chop, icm_equities


@pytest.mark.parametrize(
    ("stacks", "prizes", "message"),
    [
        ([], [100], "no stacks given"),
        ([100, -5], [100], "stack 2 is -5: every player in the chop has at least one chip"),
        ([100, 0], [100], "stack 2 is 0"),
        ([100, 2.5], [100], "stack 2 is 2.5: stacks are whole numbers of chips"),
        ([100, True], [100], "stack 2 is True"),
        ([100, 50], [], "no prizes given"),
        ([100, 50], [60, 30, 10], "3 prizes for 2 players: a chop shares only the prizes of places 1 to 2"),
        ([100, 50], [60, -10], "the prize for place 2 is -10: prizes cannot be negative"),
        ([100, 50], [30, 60], r"the prize for place 2 \(60\) is bigger than for place 1 \(30\)"),
        ([100, 50], [0, 0], "the prizes add up to zero"),
        ([100, 50], [60, 0.5], "the prize for place 2 is 0.5: prizes are amounts in cents"),
    ],
)
def test_cxl11_bad_stacks_and_prizes_are_refused_with_a_clear_message(
    stacks: list[int], prizes: list[int], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        icm_equities(stacks, prizes)
    with pytest.raises(ValueError, match=message):
        icm_chop(stacks, prizes)
    with pytest.raises(ValueError, match=message):
        approximate_icm_equities(stacks, prizes, samples=10)


def test_cxl11_fewer_prizes_than_players_is_a_chop_with_unpaid_places() -> None:
    assert sum(icm_equities([10, 20, 30, 40], [70, 30])) == 100


@pytest.mark.parametrize(
    ("seats", "message"),
    [([1, 2], "2 seat numbers for 3 stacks"), ([1, 1, 2], "seat numbers must be different"), ([1, 2, "3"], "whole")],
)
def test_cxl11_bad_seat_numbers_are_refused(seats: list[int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        icm_chop([3, 2, 1], [100], seats)


def test_cxl11_a_chop_of_prizes_that_do_not_add_up_to_whole_cents_is_refused() -> None:
    with pytest.raises(ValueError, match="a chop pays whole cents"):
        icm_chop([3, 2], [Fraction(201, 2)])


def test_cxl11_the_approximation_needs_at_least_two_samples() -> None:
    with pytest.raises(ValueError, match="samples is 1"):
        approximate_icm_equities([3, 2, 1], [100, 50, 25], samples=1)
