"""The five cards shown at showdown (CARD-11) are the evaluator's: the Hold'em fast selection picks exactly the cards
and order evaluate_holdem gives, and events carry them."""

from __future__ import annotations

import random

from games.engine.cards import FULL_DECK, parse_cards
from games.engine.evaluation import evaluate_holdem, holdem_strength
from games.engine.showdown import best_five_holdem


def test_best_five_matches_evaluate_holdem_on_random_seven_card_hands() -> None:
    rng = random.Random(2026)
    for _ in range(20_000):
        cards = rng.sample(FULL_DECK, 7)
        strength = holdem_strength(cards)
        assert best_five_holdem(cards, strength) == evaluate_holdem(cards[:2], cards[2:]).cards


def test_best_five_for_every_category() -> None:
    for hole, board in [
        ("9h8h", "7h6h5hAsAd"),  # straight flush
        ("5d4d", "3d2dAdKsKh"),  # five-high straight flush (wheel)
        ("AsAd", "AhAcKs2d3c"),  # quads
        ("KsKd", "Kh6c6d2s3c"),  # full house
        ("Ah2h", "9h7h4hKsKd"),  # flush
        ("As2c", "3d4h5sKsKd"),  # wheel straight
        ("7s7d", "7h2c9dJsQd"),  # trips
        ("KdKs", "6c6hAc2d3s"),  # two pair
        ("AsQd", "Ah7c5d3s2h"),  # pair
        ("AsQd", "9h7c5d3s2h"),  # high card
    ]:
        cards = parse_cards(hole) + parse_cards(board)
        strength = holdem_strength(cards)
        assert best_five_holdem(cards, strength) == evaluate_holdem(parse_cards(hole), parse_cards(board)).cards
