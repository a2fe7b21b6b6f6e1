"""CXL-11: the subset programme gives exactly the textbook recursion over finishing orders, for any small field."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.rules.icm import icm_equities, icm_equities_by_permutations


@st.composite
def fields(draw: st.DrawFn) -> tuple[list[int], list[int | Fraction]]:
    stacks = draw(st.lists(st.integers(1, 100_000), min_size=1, max_size=7))
    places = draw(st.integers(1, len(stacks)))
    prizes = draw(st.lists(st.integers(0, 100_000), min_size=places, max_size=places))
    prizes.sort(reverse=True)
    prizes[0] += 1
    as_fractions = draw(st.booleans())
    return stacks, [Fraction(prize, 3) for prize in prizes] if as_fractions else list(prizes)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=fields())
def test_cxl11_equities_equal_the_recursion_over_finishing_orders(
    field: tuple[list[int], list[int | Fraction]],
) -> None:
    stacks, prizes = field
    equities = icm_equities(stacks, prizes)
    assert equities == icm_equities_by_permutations(stacks, prizes)
    assert sum(equities) == sum(prizes)


def test_cxl11_equal_stacks_share_equally_and_scaling_the_stacks_changes_nothing() -> None:
    assert icm_equities([10, 10, 10, 10], [5000, 3000, 2000]) == (Fraction(2500),) * 4
    assert icm_equities([300, 200, 100], [600, 300, 100]) == icm_equities([3, 2, 1], [600, 300, 100])


def test_cxl11_an_eight_player_table_paying_every_place_matches_the_recursion() -> None:
    stacks = [41_250, 30_100, 27_775, 22_000, 18_345, 12_500, 9_875, 1_745]
    prizes = [30_000, 20_000, 14_000, 10_000, 8_000, 6_000, 4_500, 3_500]
    assert icm_equities(stacks, prizes) == icm_equities_by_permutations(stacks, prizes)


def test_cxl11_a_ten_player_table_paying_every_place_orders_equities_like_stacks() -> None:
    stacks = [41_250, 30_100, 27_775, 22_000, 18_345, 12_500, 9_875, 6_010, 4_400, 1_745]
    prizes = [30_000, 20_000, 14_000, 10_000, 8_000, 6_000, 4_500, 3_500, 2_500, 1_500]
    equities = icm_equities(stacks, prizes)
    assert sum(equities) == sum(prizes)
    assert list(equities) == sorted(equities, reverse=True)
    assert all(prizes[-1] < equity < prizes[0] for equity in equities)
