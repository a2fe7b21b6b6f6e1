"""The satellite prize rule (TRN-37, AMB-54): seats at the target's buy-in + fee, the leftover in cash to the next
place."""

from __future__ import annotations

import pytest

from tournaments.rules.common import RuleError
from tournaments.rules.satellites import satellite_prizes


def test_the_pool_buys_whole_seats_and_the_rest_is_cash_for_the_next_place_trn_37() -> None:
    plan = satellite_prizes(5_000, 1_100, 10)
    assert (plan.seats, plan.cash) == (4, 600)
    assert plan.prizes == (1_100, 1_100, 1_100, 1_100, 600)


def test_an_exact_pool_pays_only_seats() -> None:
    assert satellite_prizes(3_300, 1_100, 9).prizes == (1_100, 1_100, 1_100)


def test_a_pool_smaller_than_a_seat_is_cash_for_the_winner() -> None:
    plan = satellite_prizes(900, 1_100, 3)
    assert (plan.seats, plan.prizes) == (0, (900,))


def test_there_are_never_more_seats_than_entrants_less_one() -> None:
    plan = satellite_prizes(10_000, 1_100, 3)  # a guarantee far above the field
    assert (plan.seats, plan.cash) == (2, 7_800)


@pytest.mark.parametrize(
    ("pool", "price", "entrants"), [(-1, 1_100, 3), (1_000, 0, 3), (1_000, 1_100, -2), (10.5, 1_100, 3)]
)
def test_bad_figures_are_refused(pool: object, price: object, entrants: object) -> None:
    with pytest.raises(RuleError):
        satellite_prizes(pool, price, entrants)  # type: ignore[arg-type]
