"""Main and side pots from contributions (ENG-22) and equal splits in button order (ENG-27), as pure functions."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.odd_chips import split_amount
from games.engine.pots import clockwise_from_button, layer_pots, split_pot


def test_sx_02_eng_22_main_pot_300_and_side_pot_1800() -> None:
    # A and B put in 1000 each, C is all-in for 100.
    assert layer_pots([1000, 1000, 100], [False, False, False]) == [(300, (0, 1, 2)), (1800, (0, 1))]


def test_eng_22_each_all_in_level_makes_its_own_pot() -> None:
    assert layer_pots([50, 200, 100, 200], [False] * 4) == [(200, (0, 1, 2, 3)), (150, (1, 2, 3)), (200, (1, 3))]


def test_eng_12_folded_money_stays_in_the_pots_but_the_folder_is_eligible_for_none() -> None:
    pots = layer_pots([30, 100, 100, 60], [True, False, False, True])
    assert pots == [(290, (1, 2))]


def test_money_a_folded_player_put_in_above_every_remaining_player_joins_the_last_pot() -> None:
    assert layer_pots([100, 40, 40], [True, False, False]) == [(180, (1, 2))]


def test_eng_27_odd_chips_go_one_at_a_time_in_the_order_given() -> None:
    assert split_pot(101, [5, 2]) == [(5, 51), (2, 50)]
    assert split_pot(302, [4, 1, 3]) == [(4, 101), (1, 101), (3, 100)]
    with pytest.raises(ValueError, match="at least one winner"):
        split_pot(10, [])


def test_eng_27_clockwise_order_starts_after_the_button() -> None:
    assert clockwise_from_button([2, 5], button=4, table_size=6) == [5, 2]
    assert clockwise_from_button([1, 4, 6], button=6, table_size=6) == [1, 4, 6]


@given(
    contributions=st.lists(st.integers(0, 10_000), min_size=2, max_size=10),
    data=st.data(),
)
def test_pots_always_hold_exactly_the_contributions(contributions: list[int], data: st.DataObject) -> None:
    folded = data.draw(st.lists(st.booleans(), min_size=len(contributions), max_size=len(contributions)))
    pots = layer_pots(contributions, folded)
    assert sum(amount for amount, _ in pots) == sum(contributions)
    for _amount, eligible in pots:
        assert all(not folded[index] for index in eligible)
    eligible_sets = [set(eligible) for _, eligible in pots]
    assert all(later < earlier for earlier, later in itertools.pairwise(eligible_sets))


@given(amount=st.integers(0, 10**6), table_size=st.integers(2, 10), data=st.data())
def test_eng_27_split_pot_in_button_order_agrees_with_odd_chips_split_amount(
    amount: int, table_size: int, data: st.DataObject
) -> None:
    winners = data.draw(st.lists(st.integers(1, table_size), min_size=1, max_size=table_size, unique=True))
    button = data.draw(st.integers(1, table_size))
    ordered = clockwise_from_button(winners, button=button, table_size=table_size)
    assert dict(split_pot(amount, ordered)) == split_amount(amount, winners, button_seat=button, seat_count=table_size)
    assert list(split_amount(amount, winners, button_seat=button, seat_count=table_size)) == ordered
