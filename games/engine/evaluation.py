"""Poker hand evaluation: best five cards for Hold'em (and UTH) and Omaha (CARD-03..CARD-11).

Two layers:

* The fast path — :func:`holdem_strength` and :func:`omaha_strength` — returns a plain ``int`` for ranking many hands
  quickly (state machine showdowns, UTH simulations). Bigger is better and equal means tied under CARD-06/07: suits
  never break ties. The integer is self-describing: ``strength >> 20`` is the :class:`HandCategory` value and the low
  20 bits hold the tie-break ranks, four bits each, most significant first (see :func:`strength_ranks`).
* The display path — :func:`evaluate_holdem` and :func:`evaluate_omaha` — returns a :class:`HandValue` with the
  category, the five cards used in display order ("K♦ K♣ 6♣ 6♥ A♣") and a name ("Two Pair, Kings and Sixes"). It
  validates its input (no repeated cards, right number of cards); the fast path trusts its caller.

How the fast path works: every card carries ``code`` = base-5 rank weight + a 4-bit per-suit counter (see
games.engine.cards). Summing the codes of a hand gives, in the low bits, a key that identifies the rank multiset and,
in the high bits, how many cards of each suit it has. Adding 3 to every suit counter sets a counter's top bit exactly
when that suit has five or more cards, so a single mask tells whether a flush is possible. Without a flush the rank key
is looked up in a table of the best non-flush hand for every rank multiset of 5, 6 or 7 cards; with a flush (which
for up to seven cards always beats every non-flush hand they can make) the 13-bit rank mask of the flush suit is looked
up in a flush table. The tables are built at import in roughly a tenth of a second by
games.engine._evaluation_tables.

Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import combinations
from operator import attrgetter
from typing import Final

from games.engine._evaluation_tables import (
    CATEGORY_SHIFT,
    FLUSH_BY_RANK_MASK,
    NON_FLUSH_BY_RANK_KEY,
)
from games.engine.cards import (
    RANK_NAMES,
    RANK_PLURAL_NAMES,
    SUIT_COUNTER_BITS,
    SUIT_COUNTER_SHIFT,
    Card,
    format_cards,
)


class HandCategory(IntEnum):
    """Poker hand categories, weakest to strongest (CARD-04). The value is ``strength >> 20``."""

    HIGH_CARD = 1
    PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9

    @property
    def display_name(self) -> str:
        """ "High Card", "Pair", "Two Pair", "Three of a Kind", ..., "Straight Flush"."""
        return _CATEGORY_DISPLAY_NAMES[self]


_CATEGORY_DISPLAY_NAMES: Final[dict[HandCategory, str]] = {
    HandCategory.HIGH_CARD: "High Card",
    HandCategory.PAIR: "Pair",
    HandCategory.TWO_PAIR: "Two Pair",
    HandCategory.THREE_OF_A_KIND: "Three of a Kind",
    HandCategory.STRAIGHT: "Straight",
    HandCategory.FLUSH: "Flush",
    HandCategory.FULL_HOUSE: "Full House",
    HandCategory.FOUR_OF_A_KIND: "Four of a Kind",
    HandCategory.STRAIGHT_FLUSH: "Straight Flush",
}

ROYAL_FLUSH_NAME: Final[str] = "Royal Flush"

RANK_KEY_MASK: Final[int] = (1 << SUIT_COUNTER_SHIFT) - 1
# Adding 3 to a suit counter makes its top bit (value 8) set exactly when the suit has 5..12 cards.
FLUSH_PROBE: Final[int] = sum(3 << (SUIT_COUNTER_SHIFT + SUIT_COUNTER_BITS * suit) for suit in range(4))
FLUSH_MASK: Final[int] = sum(8 << (SUIT_COUNTER_SHIFT + SUIT_COUNTER_BITS * suit) for suit in range(4))
_FLUSH_BIT_OF_SUIT: Final[tuple[int, ...]] = tuple(
    8 << (SUIT_COUNTER_SHIFT + SUIT_COUNTER_BITS * suit) for suit in range(4)
)
_FLUSH_SUIT_BY_BIT: Final[dict[int, int]] = {bit: suit for suit, bit in enumerate(_FLUSH_BIT_OF_SUIT)}
# Omaha: a suit can make a flush only with two or more of it in the hand and three or more on the board (counts stay
# below 8 + 8, so adding 6 or 5 sets a counter's top bit exactly at those thresholds).
_TWO_OR_MORE_PROBE: Final[int] = sum(6 << (SUIT_COUNTER_SHIFT + SUIT_COUNTER_BITS * suit) for suit in range(4))
_THREE_OR_MORE_PROBE: Final[int] = sum(5 << (SUIT_COUNTER_SHIFT + SUIT_COUNTER_BITS * suit) for suit in range(4))

_code_of = attrgetter("code")
_rank_key_of = attrgetter("rank_key")


# ---------------------------------------------------------------------------------------------------------------------
# Fast path


def holdem_strength(cards: Sequence[Card]) -> int:
    """Strength of the best five-card hand among ``cards`` (5 to 7 cards, any mix of hole and board; CARD-08, CARD-10).

    Bigger is better; equal values are tied (suits never count, CARD-07). The caller guarantees distinct cards; use
    :func:`evaluate_holdem` for validated input and display. More than seven cards are accepted (slower path).
    """
    if len(cards) == 7:
        # Unrolled for the common case (Hold'em and UTH showdowns): about a third faster than sum(map(...)).
        first, second, third, fourth, fifth, sixth, seventh = cards
        total = first.code + second.code + third.code + fourth.code + fifth.code + sixth.code + seventh.code
    else:
        total = sum(map(_code_of, cards))
    if (total + FLUSH_PROBE) & FLUSH_MASK:
        return _flush_strength(cards, total)
    try:
        return NON_FLUSH_BY_RANK_KEY[total & RANK_KEY_MASK]
    except KeyError:
        return _strength_by_combinations(cards)


def _flush_strength(cards: Sequence[Card], total: int) -> int:
    """Strength of up to seven cards with five or more of one suit: their best flush or straight flush.

    With at most seven cards, five of one suit leave too few others for quads or a full house, so the flush suit's
    best hand is the best hand overall.
    """
    if len(cards) > 7:
        return _strength_by_combinations(cards)
    suit_index = _FLUSH_SUIT_BY_BIT[(total + FLUSH_PROBE) & FLUSH_MASK]
    rank_mask = 0
    for card in cards:
        if card.suit_index == suit_index:
            rank_mask |= card.rank_bit
    return FLUSH_BY_RANK_MASK[rank_mask]


def _strength_by_combinations(cards: Sequence[Card]) -> int:
    """Best five-card strength by trying every five-card subset (used for more than seven cards)."""
    if len(cards) < 5:
        raise ValueError(f"a poker hand needs at least five cards, got {len(cards)}")
    return max(holdem_strength(five) for five in combinations(cards, 5))


def omaha_strength(hole: Sequence[Card], board: Sequence[Card]) -> int:
    """Strength of the best Omaha hand: exactly two of ``hole`` plus exactly three of ``board`` (CARD-09).

    Works for any number of hole cards >= 2 and board cards >= 3 (Omaha deals four and a full board has five, so
    6 x 10 = 60 combinations are considered). Bigger is better; equal values are tied. The caller guarantees distinct
    cards.
    """
    if len(hole) == 4 and len(board) == 5:
        # The usual case, unrolled: six hole pairs and ten board triples (as sets, so repeated rank sums count once).
        a, b, c, d = [card.rank_key for card in hole]
        hole_keys = {a + b, a + c, a + d, b + c, b + d, c + d}
        p, q, r, s, t = [card.rank_key for card in board]
        pq, pr, qr = p + q, p + r, q + r
        board_keys = {pq + r, pq + s, pq + t, pr + s, pr + t, p + s + t, qr + s, qr + t, q + s + t, r + s + t}
    else:
        hole_keys = {first.rank_key + second.rank_key for first, second in combinations(hole, 2)}
        board_keys = {x.rank_key + y.rank_key + z.rank_key for x, y, z in combinations(board, 3)}
    table = NON_FLUSH_BY_RANK_KEY
    best = max([table[hole_key + board_key] for hole_key in hole_keys for board_key in board_keys])
    # A flush needs two hole cards and three board cards of one suit. (Even when the best non-flush hand is a full
    # house or quads, another choice of cards may still make a straight flush.) The suit counters in the card codes
    # tell at once whether any suit qualifies.
    flush_suits = (
        (sum(map(_code_of, hole)) + _TWO_OR_MORE_PROBE)
        & (sum(map(_code_of, board)) + _THREE_OR_MORE_PROBE)
        & FLUSH_MASK
    )
    if not flush_suits:
        return best
    flush_table = FLUSH_BY_RANK_MASK
    for suit_index in range(4):
        if not flush_suits & _FLUSH_BIT_OF_SUIT[suit_index]:
            continue
        suited_hole = [card.rank_bit for card in hole if card.suit_index == suit_index]
        suited_board = [card.rank_bit for card in board if card.suit_index == suit_index]
        for first, second in combinations(suited_hole, 2):
            hole_mask = first | second
            for x, y, z in combinations(suited_board, 3):
                strength = flush_table[hole_mask | x | y | z]
                if strength > best:
                    best = strength
    return best


def strength_category(strength: int) -> HandCategory:
    """The hand category of a strength returned by the fast path."""
    return HandCategory(strength >> CATEGORY_SHIFT)


def strength_ranks(strength: int) -> tuple[int, ...]:
    """The tie-break ranks of a strength, most significant first, trailing zeros dropped.

    Straights and straight flushes give just the high card (5 for 5-4-3-2-A); quads (quad rank, kicker); full house
    (trips rank, pair rank); flush and high card the five ranks; trips (trips rank, kicker, kicker); two pair (high
    pair, low pair, kicker); pair (pair rank, three kickers).
    """
    ranks = [(strength >> shift) & 0xF for shift in (16, 12, 8, 4, 0)]
    while ranks and ranks[-1] == 0:
        ranks.pop()
    return tuple(ranks)


def strength_name(strength: int) -> str:
    """Player-facing name of a strength: "Royal Flush", "Straight Flush, Nine High", "Four of a Kind, Aces",
    "Full House, Kings full of Sixes", "Flush, Ace High", "Straight, Five High", "Three of a Kind, Tens",
    "Two Pair, Kings and Sixes", "Pair of Aces", "High Card, Ace"."""
    category = strength_category(strength)
    ranks = strength_ranks(strength)
    top = ranks[0]
    if category is HandCategory.STRAIGHT_FLUSH:
        return ROYAL_FLUSH_NAME if top == 14 else f"Straight Flush, {RANK_NAMES[top]} High"
    if category is HandCategory.FOUR_OF_A_KIND:
        return f"Four of a Kind, {RANK_PLURAL_NAMES[top]}"
    if category is HandCategory.FULL_HOUSE:
        return f"Full House, {RANK_PLURAL_NAMES[top]} full of {RANK_PLURAL_NAMES[ranks[1]]}"
    if category is HandCategory.FLUSH:
        return f"Flush, {RANK_NAMES[top]} High"
    if category is HandCategory.STRAIGHT:
        return f"Straight, {RANK_NAMES[top]} High"
    if category is HandCategory.THREE_OF_A_KIND:
        return f"Three of a Kind, {RANK_PLURAL_NAMES[top]}"
    if category is HandCategory.TWO_PAIR:
        return f"Two Pair, {RANK_PLURAL_NAMES[top]} and {RANK_PLURAL_NAMES[ranks[1]]}"
    if category is HandCategory.PAIR:
        return f"Pair of {RANK_PLURAL_NAMES[top]}"
    return f"High Card, {RANK_NAMES[top]}"


# ---------------------------------------------------------------------------------------------------------------------
# Display path


@dataclass(frozen=True, order=True)
class HandValue:
    """A made five-card hand (CARD-11). Ordered by :attr:`strength`: higher is better, equal means a tie (CARD-07).

    ``cards`` are the five cards used, in display order: the cards that decide the hand first (quads, trips, higher
    pair, ...), highest first; within a rank, the player's own cards before board cards; straights from the top card
    down, with the ace last in 5-4-3-2-A.
    """

    strength: int
    cards: tuple[Card, ...] = field(compare=False)

    @property
    def category(self) -> HandCategory:
        return strength_category(self.strength)

    @property
    def ranks(self) -> tuple[int, ...]:
        """Tie-break ranks, most significant first (see :func:`strength_ranks`)."""
        return strength_ranks(self.strength)

    @property
    def is_royal_flush(self) -> bool:
        return self.category is HandCategory.STRAIGHT_FLUSH and self.ranks[0] == 14

    @property
    def category_name(self) -> str:
        """The category's display name, with the ace-high straight flush called "Royal Flush" (CARD-04)."""
        return ROYAL_FLUSH_NAME if self.is_royal_flush else self.category.display_name

    @property
    def name(self) -> str:
        """e.g. "Two Pair, Kings and Sixes" (see :func:`strength_name`)."""
        return strength_name(self.strength)

    @property
    def display_cards(self) -> str:
        """The five cards with suit symbols, e.g. "K♦ K♣ 6♣ 6♥ A♣"."""
        return format_cards(self.cards)

    def __str__(self) -> str:
        return f"{self.name} ({self.display_cards})"


def evaluate_five(cards: Sequence[Card]) -> HandValue:
    """The value of exactly five distinct cards."""
    five = _validated(cards, "hand")
    if len(five) != 5:
        raise ValueError(f"expected exactly five cards, got {len(five)}")
    return HandValue(holdem_strength(five), _display_order(five, holdem_strength(five)))


def evaluate_holdem(hole: Sequence[Card], board: Sequence[Card]) -> HandValue:
    """Best five of the player's cards plus the board, using any number of hole cards (CARD-08, CARD-10).

    Accepts 5..7 cards in total (e.g. 2 hole + 3..5 board, or UTH's 2 + 5). Raises ``ValueError`` for repeated cards or
    fewer than five cards. When several five-card choices are equally strong, the player's own cards are preferred.
    """
    cards = _validated([*hole, *board], "hand and board")
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"a Hold'em hand is the best five of 5 to 7 cards, got {len(cards)}")
    best = holdem_strength(cards)
    for five in combinations(cards, 5):
        if holdem_strength(five) == best:
            return HandValue(best, _display_order(five, best))
    raise AssertionError("unreachable: the best strength comes from one of the five-card subsets")


def evaluate_omaha(hole: Sequence[Card], board: Sequence[Card]) -> HandValue:
    """Best Omaha hand: exactly two of the hole cards and exactly three board cards (CARD-09).

    Omaha deals four hole cards; 2..6 are accepted so variants share the rule. The board needs 3..5 cards. Raises
    ``ValueError`` for repeated cards or wrong counts.
    """
    _validated([*hole, *board], "hand and board")
    hole = tuple(hole)
    board = tuple(board)
    if not 2 <= len(hole) <= 6:
        raise ValueError(f"an Omaha hand needs 2 to 6 hole cards, got {len(hole)}")
    if not 3 <= len(board) <= 5:
        raise ValueError(f"an Omaha board has 3 to 5 cards, got {len(board)}")
    best = omaha_strength(hole, board)
    for hole_pair in combinations(hole, 2):
        for board_three in combinations(board, 3):
            five = hole_pair + board_three
            if holdem_strength(five) == best:
                return HandValue(best, _display_order(five, best))
    raise AssertionError("unreachable: the best strength comes from one of the two-plus-three choices")


def _validated(cards: Sequence[Card], what: str) -> tuple[Card, ...]:
    result = tuple(cards)
    for card in result:
        if not isinstance(card, Card):
            raise TypeError(f"{what} must contain Card values, got {card!r}")
    if len(set(result)) != len(result):
        repeated = sorted({str(card) for card in result if result.count(card) > 1})
        raise ValueError(f"{what} repeats a card: {', '.join(repeated)}")
    return result


def _display_order(five: Sequence[Card], strength: int) -> tuple[Card, ...]:
    """Order five cards for display: rank groups by (size, rank) descending; straights top-down with a low ace last.

    Python's sort is stable, so cards of equal rank keep their input order (hole cards first).
    """
    category = strength_category(strength)
    if category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
        top = strength_ranks(strength)[0]
        if top == 5:
            return tuple(sorted(five, key=lambda card: card.rank if card.rank != 14 else 1, reverse=True))
        return tuple(sorted(five, key=attrgetter("rank"), reverse=True))
    counts: dict[int, int] = {}
    for card in five:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    return tuple(sorted(five, key=lambda card: (-counts[card.rank], -card.rank)))


__all__ = [
    "ROYAL_FLUSH_NAME",
    "HandCategory",
    "HandValue",
    "evaluate_five",
    "evaluate_holdem",
    "evaluate_omaha",
    "holdem_strength",
    "omaha_strength",
    "strength_category",
    "strength_name",
    "strength_ranks",
]
