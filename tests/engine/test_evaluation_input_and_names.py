"""Evaluator input checks and the player-facing names of every category (CARD-04, CARD-08, CARD-09, CARD-11)."""

from __future__ import annotations

import pytest

from games.engine.cards import parse_cards
from games.engine.evaluation import (
    HandCategory,
    evaluate_five,
    evaluate_holdem,
    evaluate_omaha,
    holdem_strength,
    omaha_strength,
    strength_category,
    strength_ranks,
)


@pytest.mark.parametrize(
    ("cards", "name", "shown"),
    [
        ("As Ks Qs Js Ts", "Royal Flush", "A♠ K♠ Q♠ J♠ T♠"),
        ("9d 8d 7d 6d 5d", "Straight Flush, Nine High", "9♦ 8♦ 7♦ 6♦ 5♦"),
        ("2c Ac 2d 2h 2s", "Four of a Kind, Twos", "2♣ 2♦ 2♥ 2♠ A♣"),
        ("Kc 6h Kd 6c Ks", "Full House, Kings full of Sixes", "K♣ K♦ K♠ 6♥ 6♣"),
        ("Jh 3h 9h Qh 5h", "Flush, Queen High", "Q♥ J♥ 9♥ 5♥ 3♥"),
        ("8c 9d Tc Jh Qs", "Straight, Queen High", "Q♠ J♥ T♣ 9♦ 8♣"),
        ("4c Th 4d 4s 2c", "Three of a Kind, Fours", "4♣ 4♦ 4♠ T♥ 2♣"),
        ("6c Kh 6d Ks Ac", "Two Pair, Kings and Sixes", "K♥ K♠ 6♣ 6♦ A♣"),
        ("3c 3h Ad 9s 7c", "Pair of Threes", "3♣ 3♥ A♦ 9♠ 7♣"),
        ("2c 7h Ad 9s Jc", "High Card, Ace", "A♦ J♣ 9♠ 7♥ 2♣"),
    ],
)
def test_card_11_each_category_has_a_readable_name_and_shows_its_five_cards_in_order(
    cards: str, name: str, shown: str
) -> None:
    value = evaluate_five(parse_cards(cards))
    assert value.name == name
    assert value.display_cards == shown


def test_card_04_a_royal_flush_is_a_straight_flush_named_royal_flush() -> None:
    value = evaluate_five(parse_cards("As Ks Qs Js Ts"))
    assert value.category is HandCategory.STRAIGHT_FLUSH
    assert value.category.display_name == "Straight Flush"
    assert value.category_name == "Royal Flush"
    king_high = evaluate_five(parse_cards("Ks Qs Js Ts 9s"))
    assert not king_high.is_royal_flush
    assert king_high.category_name == "Straight Flush"


def test_the_strength_integer_exposes_category_and_tie_break_ranks() -> None:
    strength = holdem_strength(parse_cards("Kd Kc 6c 6h Ac"))
    assert strength_category(strength) is HandCategory.TWO_PAIR
    assert strength_ranks(strength) == (13, 6, 14)
    assert strength_ranks(holdem_strength(parse_cards("As 2d 3c 4h 5s"))) == (5,)


def test_a_repeated_card_is_refused() -> None:
    with pytest.raises(ValueError, match="repeats a card"):
        evaluate_holdem(parse_cards("As Kd"), parse_cards("As 7h 8h 9c 2d"))
    with pytest.raises(ValueError, match="repeats a card"):
        evaluate_omaha(parse_cards("As Kd Qd Jd"), parse_cards("Kd 7h 8h"))


@pytest.mark.parametrize(("hole", "board"), [("As Kd", "7h 8h"), ("", "As Kd 7h 8h"), ("As Kd", "7h 8h 9c 2d 3d 4d")])
def test_holdem_needs_five_to_seven_cards(hole: str, board: str) -> None:
    with pytest.raises(ValueError):
        evaluate_holdem(parse_cards(hole), parse_cards(board))


@pytest.mark.parametrize(("hole", "board"), [("As", "7h 8h 9c"), ("As Kd Qd Jd", "7h 8h"), ("As Kd", "")])
def test_omaha_needs_two_hole_cards_and_three_board_cards_at_least(hole: str, board: str) -> None:
    with pytest.raises(ValueError):
        evaluate_omaha(parse_cards(hole), parse_cards(board))


def test_evaluate_five_takes_exactly_five_cards() -> None:
    with pytest.raises(ValueError):
        evaluate_five(parse_cards("As Kd 7h 8h"))
    with pytest.raises(ValueError):
        evaluate_five(parse_cards("As Kd 7h 8h 9c 2c"))


def test_values_that_are_not_cards_are_refused() -> None:
    with pytest.raises(TypeError):
        evaluate_holdem(["As", "Kd"], parse_cards("7h 8h 9c"))  # type: ignore[list-item]


def test_the_fast_path_refuses_fewer_than_five_cards() -> None:
    with pytest.raises(ValueError):
        holdem_strength(parse_cards("As Kd 7h 8h"))


def test_the_fast_path_accepts_more_than_seven_cards() -> None:
    cards = parse_cards("As Ks Qs Js 2d 3c 4h 9d Ts")
    assert holdem_strength(cards) == holdem_strength(parse_cards("As Ks Qs Js Ts"))


def test_omaha_works_on_the_flop_and_turn_too() -> None:
    hole = parse_cards("Ah Kh 2c 3d")
    assert evaluate_omaha(hole, parse_cards("Qh Jh Th")).name == "Royal Flush"
    assert omaha_strength(hole, parse_cards("Qh Jh 7c 8d")) == holdem_strength(parse_cards("Ah Kh Qh Jh 8d"))
