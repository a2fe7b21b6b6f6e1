"""The five cards behind a Hold'em strength, picked directly from the evaluator's strength (showdown hot path).

:func:`games.engine.evaluation.evaluate_holdem` finds the five cards by trying five-card subsets, which dominates the
cost of a showdown. A strength from :func:`~games.engine.evaluation.holdem_strength` already says the category and the
ranks that decide it (:func:`~games.engine.evaluation.strength_ranks`), so the cards can be picked by rank (and by suit
for flushes). The evaluator stays the only place that ranks hands; this module only selects cards for display, in the
evaluator's display order: cards deciding the hand first, higher ranks first, the player's own cards before board
cards of the same rank, straights from the top card down with a low ace last.

Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.cards import Card
from games.engine.evaluation import HandCategory, strength_category, strength_ranks


def _straight_ranks(top: int) -> list[int]:
    return [5, 4, 3, 2, 14] if top == 5 else list(range(top, top - 5, -1))


def best_five_holdem(cards: Sequence[Card], strength: int) -> tuple[Card, ...]:
    """The five of ``cards`` (hole cards first, then the board) that make ``strength = holdem_strength(cards)``."""
    category = strength_category(strength)
    ranks = strength_ranks(strength)
    if category in (HandCategory.FLUSH, HandCategory.STRAIGHT_FLUSH):
        suit_counts: dict[str, int] = {}
        for card in cards:
            suit_counts[card.suit] = suit_counts.get(card.suit, 0) + 1
        suit = max(suit_counts, key=suit_counts.__getitem__)
        cards = [card for card in cards if card.suit == suit]
    if category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
        wanted = [(rank, 1) for rank in _straight_ranks(ranks[0])]
    elif category is HandCategory.FOUR_OF_A_KIND:
        wanted = [(ranks[0], 4), (ranks[1], 1)]
    elif category is HandCategory.FULL_HOUSE:
        wanted = [(ranks[0], 3), (ranks[1], 2)]
    elif category is HandCategory.THREE_OF_A_KIND:
        wanted = [(ranks[0], 3), (ranks[1], 1), (ranks[2], 1)]
    elif category is HandCategory.TWO_PAIR:
        wanted = [(ranks[0], 2), (ranks[1], 2), (ranks[2], 1)]
    elif category is HandCategory.PAIR:
        wanted = [(ranks[0], 2), (ranks[1], 1), (ranks[2], 1), (ranks[3], 1)]
    else:  # flush and high card: the five ranks, highest first
        wanted = [(rank, 1) for rank in ranks]
    five: list[Card] = []
    for rank, count in wanted:  # the wanted ranks are distinct, so no card is taken twice
        five.extend([card for card in cards if card.rank == rank][:count])
    if len(five) != 5:
        raise ValueError(f"the cards {[str(card) for card in cards]} do not make strength {strength}")
    return tuple(five)


__all__ = ["best_five_holdem"]
