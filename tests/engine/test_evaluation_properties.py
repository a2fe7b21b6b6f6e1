"""Hypothesis properties of the evaluator (CARD-03..CARD-11)."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from games.engine.cards import FULL_DECK, Card
from games.engine.evaluation import (
    HandCategory,
    evaluate_five,
    evaluate_holdem,
    evaluate_omaha,
    holdem_strength,
    omaha_strength,
    strength_name,
)

deck_permutations = st.permutations(FULL_DECK)


def distinct_cards(count: int) -> st.SearchStrategy[list[Card]]:
    return st.lists(st.sampled_from(FULL_DECK), min_size=count, max_size=count, unique=True)


@given(cards=distinct_cards(7), data=st.data())
def test_card_08_the_value_does_not_depend_on_card_order_or_on_which_cards_are_called_hole_cards(
    cards: list[Card], data: st.DataObject
) -> None:
    shuffled = data.draw(st.permutations(cards))
    hole_count = data.draw(st.integers(0, 2))
    assert holdem_strength(cards) == holdem_strength(shuffled)
    assert evaluate_holdem(cards[:2], cards[2:]) == evaluate_holdem(shuffled[:hole_count], shuffled[hole_count:])


@given(cards=distinct_cards(8))
def test_card_08_adding_a_card_never_lowers_the_best_hand(cards: list[Card]) -> None:
    for size in (5, 6, 7):
        assert holdem_strength(cards[: size + 1]) >= holdem_strength(cards[:size])


@given(cards=distinct_cards(7))
def test_card_08_the_best_hand_of_seven_is_the_best_of_its_21_five_card_subsets(cards: list[Card]) -> None:
    assert holdem_strength(cards) == max(holdem_strength(five) for five in combinations(cards, 5))


@given(cards=distinct_cards(7))
def test_card_11_the_five_cards_shown_come_from_the_input_and_have_the_hands_value(cards: list[Card]) -> None:
    value = evaluate_holdem(cards[:2], cards[2:])
    assert len(value.cards) == 5
    assert set(value.cards) <= set(cards)
    assert evaluate_five(value.cards) == value
    assert evaluate_five(value.cards).cards == value.cards  # display order is stable
    assert value.name == strength_name(value.strength)


@given(cards=distinct_cards(9))
def test_card_09_omaha_is_the_best_of_the_60_two_plus_three_choices_and_never_beats_holdem(cards: list[Card]) -> None:
    hole, board = cards[:4], cards[4:]
    expected = max(
        holdem_strength((*pair, *three)) for pair in combinations(hole, 2) for three in combinations(board, 3)
    )
    assert omaha_strength(hole, board) == expected
    value = evaluate_omaha(hole, board)
    assert value.strength == expected
    assert len(set(value.cards) & set(hole)) == 2
    assert len(set(value.cards) & set(board)) == 3
    assert value.strength <= holdem_strength(cards)


@given(cards=distinct_cards(5), data=st.data())
def test_card_07_changing_only_suits_without_making_or_breaking_a_flush_keeps_the_value(
    cards: list[Card], data: st.DataObject
) -> None:
    """Re-suit the five cards (a permutation of suits applied to every card): flushes stay flushes, ranks stay."""
    suit_order = data.draw(st.permutations("cdhs"))
    mapping = dict(zip("cdhs", suit_order, strict=True))
    resuited = [Card(card.rank, mapping[card.suit]) for card in cards]
    assert holdem_strength(resuited) == holdem_strength(cards)


@given(cards=distinct_cards(7))
def test_card_04_the_category_matches_the_shape_of_the_five_cards_shown(cards: list[Card]) -> None:
    value = evaluate_holdem(cards[:2], cards[2:])
    counts = sorted(sum(1 for card in value.cards if card.rank == rank) for rank in {c.rank for c in value.cards})
    shape = tuple(reversed(counts))
    flush = len({card.suit for card in value.cards}) == 1
    expected_by_shape = {
        (4, 1): HandCategory.FOUR_OF_A_KIND,
        (3, 2): HandCategory.FULL_HOUSE,
        (3, 1, 1): HandCategory.THREE_OF_A_KIND,
        (2, 2, 1): HandCategory.TWO_PAIR,
        (2, 1, 1, 1): HandCategory.PAIR,
    }
    if shape in expected_by_shape:
        assert value.category is expected_by_shape[shape]
    else:
        assert value.category in (
            HandCategory.HIGH_CARD,
            HandCategory.STRAIGHT,
            HandCategory.FLUSH,
            HandCategory.STRAIGHT_FLUSH,
        )
        assert (value.category in (HandCategory.FLUSH, HandCategory.STRAIGHT_FLUSH)) == flush
