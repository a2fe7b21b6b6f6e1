"""A near-optimal playing strategy, whose main-bet return is counted exactly and simulated (UTH-21).

This is the well-known "basic strategy" for Ultimate Texas Hold'em published by Michael Shackleford (The Wizard of
Odds). Counted over every deal (games.engine.uth.main_bet_exact), the rules below return exactly 97.6186 % of the Ante
(house edge 2.3814 %), 0.2014 % of the Ante below the 97.82 % published for perfect play (house edge 2.185 %).

* Before the flop, PLAY 4x with: any pair of threes or better; any ace; king-five or better, any suited king;
  queen-eight or better offsuit, queen-six or better suited; jack-ten offsuit, jack-eight or better suited.
  Otherwise CHECK. (PLAY 3x is never better than 4x.)
* After the flop, PLAY 2x with: two pair or better (made with the player's cards, not three of a kind on the board);
  a hidden pair (a pair that uses a player card), except pocket deuces; four to a flush including a player card of
  ten or better in that suit. Otherwise CHECK.
* After the river, PLAY 1x with: a hidden pair or better (a hand of a higher category than the board alone); or
  fewer than 21 dealer "outs" — unseen cards that, added to the board, would beat the player. Otherwise FOLD.

Standard library only. The functions trust their input (distinct cards, right counts).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from games.engine.cards import FULL_DECK, Card
from games.engine.evaluation import HandCategory, holdem_strength, strength_category
from games.engine.uth.round import Decision, Phase

_ACE, _KING, _QUEEN, _JACK, _TEN = 14, 13, 12, 11, 10
DEALER_OUTS_LIMIT: Final[int] = 21


def _preflop_table() -> frozenset[tuple[int, int, bool]]:
    raises: set[tuple[int, int, bool]] = set()
    for high in range(2, 15):
        for low in range(2, high + 1):
            for suited in (False, True):
                if high == low and suited:
                    continue
                if high == low:
                    play = high >= 3
                elif high == _ACE:
                    play = True
                elif high == _KING:
                    play = suited or low >= 5
                elif high == _QUEEN:
                    play = low >= (6 if suited else 8)
                elif high == _JACK:
                    play = low >= (8 if suited else 10)
                else:
                    play = False
                if play:
                    raises.add((high, low, suited))
    return frozenset(raises)


_PREFLOP_RAISES: Final[frozenset[tuple[int, int, bool]]] = _preflop_table()


def raises_preflop(hole: Sequence[Card]) -> bool:
    """PLAY 4x before the flop?"""
    first, second = hole
    high, low = (first.rank, second.rank) if first.rank >= second.rank else (second.rank, first.rank)
    return (high, low, first.suit == second.suit and high != low) in _PREFLOP_RAISES


def _has_hidden_pair(hole: Sequence[Card], board: Sequence[Card]) -> bool:
    first, second = hole
    if first.rank == second.rank:
        return True
    board_ranks = {card.rank for card in board}
    return first.rank in board_ranks or second.rank in board_ranks


def raises_on_flop(hole: Sequence[Card], flop: Sequence[Card]) -> bool:
    """PLAY 2x after the flop (for a player who checked before it)?"""
    strength = holdem_strength((*hole, *flop))
    category = strength_category(strength)
    board_category = _board_category(flop)
    if category >= HandCategory.TWO_PAIR and category > board_category:
        return True
    first, second = hole
    if _has_hidden_pair(hole, flop) and not (first.rank == second.rank == 2):
        return True
    for suit in {first.suit, second.suit}:
        suited = [card for card in (*hole, *flop) if card.suit == suit]
        if len(suited) == 4 and any(card.suit == suit and card.rank >= _TEN for card in hole):
            return True
    return False


def _board_category(board: Sequence[Card]) -> HandCategory:
    """The category of the board alone (three or five cards): pairs and trips only matter before the river."""
    if len(board) >= 5:
        return strength_category(holdem_strength(board))
    counts: dict[int, int] = {}
    for card in board:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    most = max(counts.values())
    return HandCategory.THREE_OF_A_KIND if most == 3 else HandCategory.PAIR if most == 2 else HandCategory.HIGH_CARD


def dealer_outs(hole: Sequence[Card], board: Sequence[Card]) -> int:
    """Unseen cards that, together with the board, would beat the player's hand (the Wizard's "dealer outs")."""
    player = holdem_strength((*hole, *board))
    seen = {*hole, *board}
    board_tuple = tuple(board)
    return sum(1 for card in FULL_DECK if card not in seen and holdem_strength((*board_tuple, card)) > player)


def plays_on_river(hole: Sequence[Card], board: Sequence[Card]) -> bool:
    """PLAY 1x after the river (for a player who checked twice)? Otherwise FOLD."""
    player_category = strength_category(holdem_strength((*hole, *board)))
    if player_category >= HandCategory.PAIR and player_category > _board_category(board):
        return True
    return dealer_outs(hole, board) < DEALER_OUTS_LIMIT


def basic_strategy(phase: Phase, hole: Sequence[Card], community: Sequence[Card]) -> Decision:
    """The decision this strategy takes in ``phase`` with the cards visible then (``community`` is the cards on the
    table: none, the flop, or all five)."""
    if phase is Phase.PREFLOP:
        return Decision.PLAY_4X if raises_preflop(hole) else Decision.CHECK
    if phase is Phase.FLOP:
        return Decision.PLAY_2X if raises_on_flop(hole, community[:3]) else Decision.CHECK
    if phase is Phase.RIVER:
        return Decision.PLAY_1X if plays_on_river(hole, community) else Decision.FOLD
    raise ValueError(f"no decision is taken in phase {phase}")
