"""ENG-27 / GEN-06: tied winners split a pot equally; odd cents go clockwise from the first seat after the button."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.odd_chips import split_amount


def test_eng_27_derived_example_101_cents_between_seats_2_and_5_with_the_button_on_4() -> None:
    """[derived] pot €1.01 split between seats 2 and 5, button at seat 4: seat 5 gets €0.51, seat 2 gets €0.50."""
    assert split_amount(101, [2, 5], button_seat=4, seat_count=9) == {5: 51, 2: 50}


def test_eng_27_an_even_pot_splits_exactly() -> None:
    assert split_amount(100, [1, 3], button_seat=6, seat_count=6) == {1: 50, 3: 50}


def test_eng_27_two_odd_cents_go_to_the_first_two_winners_clockwise_and_the_button_is_served_last() -> None:
    assert split_amount(302, [4, 1, 3], button_seat=3, seat_count=6) == {4: 101, 1: 101, 3: 100}


def test_eng_27_the_order_wraps_around_the_table() -> None:
    assert split_amount(5, [1, 6], button_seat=6, seat_count=6) == {1: 3, 6: 2}
    assert split_amount(5, [0, 5], button_seat=5, seat_count=6) == {0: 3, 5: 2}


def test_eng_27_a_single_winner_takes_the_whole_pot() -> None:
    assert split_amount(777, [3], button_seat=1, seat_count=9) == {3: 777}


@pytest.mark.parametrize(
    ("amount", "winners", "button", "seats"),
    [(-1, [1, 2], 1, 6), (10, [], 1, 6), (10, [1, 1], 1, 6), (10, [7], 1, 6), (10, [1], 1, 1), (1.5, [1], 1, 6)],
)
def test_bad_split_requests_are_refused(amount: int, winners: list[int], button: int, seats: int) -> None:
    with pytest.raises(ValueError):
        split_amount(amount, winners, button_seat=button, seat_count=seats)


@given(
    amount=st.integers(min_value=0, max_value=10**9),
    seats=st.integers(min_value=2, max_value=10),
    data=st.data(),
)
def test_eng_27_shares_add_up_and_differ_by_at_most_one_cent(amount: int, seats: int, data: st.DataObject) -> None:
    winners = data.draw(st.lists(st.integers(1, seats), min_size=1, max_size=seats, unique=True))
    button = data.draw(st.integers(1, seats))
    shares = split_amount(amount, winners, button_seat=button, seat_count=seats)
    assert sum(shares.values()) == amount
    assert set(shares) == set(winners)
    assert max(shares.values()) - min(shares.values()) <= 1
    # The shares never increase going clockwise from the button.
    assert list(shares.values()) == sorted(shares.values(), reverse=True)
