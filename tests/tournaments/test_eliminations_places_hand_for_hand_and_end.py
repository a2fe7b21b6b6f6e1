"""TRN-22 / AMB-33 finishing order of players eliminated in one hand, TRN-24 the same across tables in a
synchronized hand-for-hand hand, TRN-23 / AMB-43 when hand-for-hand is played, TRN-21 when the tournament ends."""

from __future__ import annotations

import random

import pytest

from tournaments.rules.common import RuleError
from tournaments.rules.eliminations import FinishingPlace, finishing_places, hand_for_hand, tournament_over


def test_trn_22_derived_example_the_player_who_started_the_hand_with_more_chips_finishes_higher() -> None:
    # 1,200 and 800 chips at the start of the hand, both bust with 10 players left.
    places = finishing_places({7: 1_200, 8: 800}, 10, random.Random(1))
    assert places == (FinishingPlace(7, 9), FinishingPlace(8, 10))


def test_trn_24_derived_example_in_hand_for_hand_the_smaller_stack_finishes_lower_whoever_busted_first() -> None:
    # Table A: the 3,000-chip player busts first in time; table B: the 5,000-chip player busts later in the same
    # synchronized hand. 16 players were left.
    table_a, table_b = {31: 3_000}, {52: 5_000}
    places = finishing_places({**table_a, **table_b}, 16, random.Random(1))
    assert places == (FinishingPlace(52, 15), FinishingPlace(31, 16))


def test_trn_22_amb_33_equal_stacks_are_ordered_at_random_each_taking_its_own_place() -> None:
    orders = set()
    for seed in range(40):
        places = finishing_places({1: 500, 2: 500, 3: 500, 4: 2_000}, 20, random.Random(seed))
        assert places[0] == FinishingPlace(4, 17)
        assert sorted(place.place for place in places[1:]) == [18, 19, 20]
        orders.add(tuple(place.player for place in places[1:]))
    assert len(orders) == 6  # every order of the three tied players happens


def test_a_single_elimination_takes_the_last_place_of_the_players_left() -> None:
    assert finishing_places({9: 40}, 2, random.Random(1)) == (FinishingPlace(9, 2),)
    assert finishing_places({}, 5, random.Random(1)) == ()


def test_eliminating_everybody_or_an_empty_stack_is_refused() -> None:
    with pytest.raises(RuleError):
        finishing_places({1: 100, 2: 200}, 2, random.Random(1))
    with pytest.raises(RuleError):
        finishing_places({1: 0}, 5, random.Random(1))


def test_trn_23_amb_43_hand_for_hand_starts_on_the_bubble_and_ends_when_it_bursts() -> None:
    assert not hand_for_hand(17, 15, 2)
    assert hand_for_hand(16, 15, 2)  # paid places + 1
    assert not hand_for_hand(15, 15, 2)  # the bubble burst
    assert not hand_for_hand(14, 15, 2)


def test_trn_23_hand_for_hand_needs_more_than_one_table() -> None:
    assert not hand_for_hand(10, 9, 1)
    assert not hand_for_hand(10, 9, 1, manual=True)


def test_amb_43_the_back_office_switch_overrides_the_automatic_rule() -> None:
    assert hand_for_hand(40, 15, 5, manual=True)
    assert not hand_for_hand(16, 15, 2, manual=False)


def test_trn_21_the_tournament_ends_when_one_player_is_left() -> None:
    assert tournament_over(1, [50_000, 30_000, 20_000], end_when_prizes_identical=False)
    assert not tournament_over(2, [50_000, 30_000, 20_000], end_when_prizes_identical=True)


def test_trn_21_seed_example_five_identical_prizes_for_the_top_five_end_the_tournament_with_five_left() -> None:
    five_seats = [21_500] * 5
    assert tournament_over(5, five_seats, end_when_prizes_identical=True)
    assert not tournament_over(6, five_seats, end_when_prizes_identical=True)  # the sixth would get nothing
    assert not tournament_over(5, five_seats, end_when_prizes_identical=False)  # flag off: play on


def test_trn_21_identical_prizes_of_nothing_do_not_end_a_tournament() -> None:
    assert not tournament_over(3, [], end_when_prizes_identical=True)
