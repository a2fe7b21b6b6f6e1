"""Playing cards, the 52-card deck and shuffling (CARD-01, CARD-02, CARD-03, GEN-08).

Contracts:

* :class:`Card` values are interned: there are exactly 52 instances, so ``Card.from_text("As") is Card(14, "s")``.
  They are immutable, hashable (the hash is the card's fixed deck index, so set and dict order is the same in every
  process) and ordered by rank, then suit (clubs < diamonds < hearts < spades).
* ``str(card)`` is the two-character text form ("As", "Td", "2c"); ``card.symbol`` is the display form with a suit
  symbol ("A♠", "10" is written "T": "T♦").
* :data:`FULL_DECK` is the 52 cards in a fixed order (2c 2d 2h 2s 3c ... As); :func:`shuffled_deck` returns a freshly
  shuffled copy for every hand (CARD-02). Production code shuffles with :data:`PRODUCTION_SHUFFLER`
  (``secrets.SystemRandom``, GEN-08); tests inject a seeded ``random.Random``.

Standard library only (the engine is pure, see tests/engine/test_engine_is_pure.py).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable, MutableSequence
from typing import Any, ClassVar, Final, Protocol

RANKS: Final[str] = "23456789TJQKA"
"""Rank characters from lowest (2) to highest (A); a card's ``rank`` is 2 + its position here (ace = 14)."""

SUITS: Final[str] = "cdhs"
"""Suit characters in their fixed order: clubs, diamonds, hearts, spades."""

SUIT_SYMBOLS: Final[dict[str, str]] = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
SUIT_NAMES: Final[dict[str, str]] = {"c": "Clubs", "d": "Diamonds", "h": "Hearts", "s": "Spades"}
RANK_NAMES: Final[dict[int, str]] = {
    2: "Two",
    3: "Three",
    4: "Four",
    5: "Five",
    6: "Six",
    7: "Seven",
    8: "Eight",
    9: "Nine",
    10: "Ten",
    11: "Jack",
    12: "Queen",
    13: "King",
    14: "Ace",
}
RANK_PLURAL_NAMES: Final[dict[int, str]] = {
    rank: name + ("es" if rank == 6 else "s") for rank, name in RANK_NAMES.items()
}

_SYMBOL_TO_SUIT: Final[dict[str, str]] = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
# Base-5 weight of each rank: the sum of the weights of up to 7 cards identifies their rank multiset
# (no rank occurs more than 4 times, so no digit ever carries). Used by games.engine.evaluation.
_RANK_KEY_BASE: Final[int] = 5
# Suit counters live above the rank key, 4 bits per suit; see games.engine.evaluation for how they detect flushes.
SUIT_COUNTER_SHIFT: Final[int] = 32
SUIT_COUNTER_BITS: Final[int] = 4


class InvalidCardError(ValueError):
    """Raised for text that is not a card (or not a list of cards)."""


class Card:
    """One of the 52 playing cards.

    Construct with ``Card(rank, suit)`` (rank 2..14, suit one of "cdhs"), ``Card.from_text("As")`` or
    ``Card.from_index(0..51)``; all return the same interned instance. Attributes:

    * ``rank`` — 2..14 (ace is 14; the evaluator lets it play low only in the 5-4-3-2-A straight, CARD-03);
    * ``suit`` — "c", "d", "h" or "s";
    * ``index`` — position in :data:`FULL_DECK` (0..51), stable across processes (used as the hash);
    * ``rank_bit``, ``rank_key``, ``code`` — integer encodings used by the hand evaluator's fast path.
    """

    __slots__ = ("code", "index", "rank", "rank_bit", "rank_key", "suit", "suit_index")

    rank: int
    suit: str
    index: int
    suit_index: int
    rank_bit: int
    rank_key: int
    code: int

    _interned: ClassVar[dict[tuple[int, str], Card]] = {}
    _by_text: ClassVar[dict[str, Card]] = {}
    """The cards by their canonical text ("As"): the form stored events use, parsed on every replay."""

    def __new__(cls, rank: int, suit: str) -> Card:
        try:
            return cls._interned[(rank, suit)]
        except (KeyError, TypeError):
            raise InvalidCardError(f"no such card: rank={rank!r}, suit={suit!r}") from None

    @classmethod
    def _create(cls, rank: int, suit: str) -> Card:
        card = object.__new__(cls)
        suit_index = SUITS.index(suit)
        rank_key = _RANK_KEY_BASE ** (rank - 2)
        setter = object.__setattr__
        setter(card, "rank", rank)
        setter(card, "suit", suit)
        setter(card, "suit_index", suit_index)
        setter(card, "index", (rank - 2) * 4 + suit_index)
        setter(card, "rank_bit", 1 << (rank - 2))
        setter(card, "rank_key", rank_key)
        setter(card, "code", rank_key + (1 << (SUIT_COUNTER_SHIFT + SUIT_COUNTER_BITS * suit_index)))
        return card

    @classmethod
    def from_text(cls, text: str) -> Card:
        """Parse "As", "td", "10h" or a suit-symbol form like "A♠" (surrounding spaces ignored)."""
        card = cls._by_text.get(text) if type(text) is str else None
        if card is not None:
            return card
        cleaned = text.strip()
        if len(cleaned) == 3 and cleaned[:2] == "10":
            cleaned = "T" + cleaned[2]
        if len(cleaned) != 2:
            raise InvalidCardError(f"not a card: {text!r}")
        rank_char = cleaned[0].upper()
        suit_char = _SYMBOL_TO_SUIT.get(cleaned[1], cleaned[1].lower())
        rank_position = RANKS.find(rank_char)
        if rank_position < 0 or suit_char not in SUIT_SYMBOLS:
            raise InvalidCardError(f"not a card: {text!r}")
        return cls._interned[(rank_position + 2, suit_char)]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card at position ``index`` (0..51) of :data:`FULL_DECK`."""
        if not isinstance(index, int) or not 0 <= index < 52:
            raise InvalidCardError(f"no card at index {index!r}")
        return FULL_DECK[index]

    @property
    def symbol(self) -> str:
        """Display form for hand histories and the client, e.g. "A♠", "T♦"."""
        return RANKS[self.rank - 2] + SUIT_SYMBOLS[self.suit]

    @property
    def name(self) -> str:
        """Spoken form, e.g. "Ace of Spades"."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[Any, tuple[int, str]]:
        # Unpickling and copying go through the constructor, which returns the interned instance.
        return (Card, (self.rank, self.suit))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self

    # Instances are interned, so the default identity equality is value equality.
    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index

    def __str__(self) -> str:
        return RANKS[self.rank - 2] + self.suit

    def __repr__(self) -> str:
        return f"Card.from_text({str(self)!r})"


def _build_deck() -> tuple[Card, ...]:
    deck = []
    for rank in range(2, 15):
        for suit in SUITS:
            card = Card._create(rank, suit)
            Card._interned[(rank, suit)] = card
            Card._by_text[str(card)] = card
            deck.append(card)
    return tuple(deck)


FULL_DECK: Final[tuple[Card, ...]] = _build_deck()
"""The 52 cards in fixed order: 2c 2d 2h 2s 3c ... Ac Ad Ah As (``FULL_DECK[card.index] is card``)."""

_CARD_TEXT_PATTERN: Final[re.Pattern[str]] = re.compile(r"(10|[2-9TJQKA])([cdhs♣♦♥♠])", re.IGNORECASE)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards written with or without separators: "As Kd 7h", "AsKd7h", "A♠,K♦" -> (As, Kd, 7h).

    Raises :class:`InvalidCardError` for anything that is not a sequence of cards. Duplicates are allowed here (the
    caller decides whether a repeated card is an error).
    """
    cards: list[Card] = []
    position = 0
    length = len(text)
    while position < length:
        character = text[position]
        if character.isspace() or character in ",;-/[]()":
            position += 1
            continue
        match = _CARD_TEXT_PATTERN.match(text, position)
        if match is None:
            raise InvalidCardError(f"not a card at position {position} of {text!r}")
        cards.append(Card.from_text(match.group(0)))
        position = match.end()
    return tuple(cards)


def format_cards(cards: Iterable[Card], *, symbols: bool = True) -> str:
    """Space-separated display of cards: "K♦ K♣ 6♣ 6♥ A♣" (or "Kd Kc 6c 6h Ac" with ``symbols=False``)."""
    return " ".join(card.symbol if symbols else str(card) for card in cards)


class Shuffler(Protocol):
    """Anything that shuffles a list in place, like ``random.Random`` or ``secrets.SystemRandom``."""

    def shuffle(self, x: MutableSequence[Any], /) -> None: ...


PRODUCTION_SHUFFLER: Final[Shuffler] = secrets.SystemRandom()
"""The cryptographically secure shuffler used for real games (GEN-08)."""


def shuffled_deck(shuffler: Shuffler = PRODUCTION_SHUFFLER) -> tuple[Card, ...]:
    """A freshly shuffled full 52-card deck (CARD-01, CARD-02): call once per hand or UTH round.

    The shuffler is injected so tests and replays can use a seeded ``random.Random``; the default is
    ``secrets.SystemRandom`` (GEN-08). The result is a new tuple every call; the order is the dealing order.
    """
    deck = list(FULL_DECK)
    shuffler.shuffle(deck)
    if len(deck) != 52 or len(set(deck)) != 52:
        raise RuntimeError("shuffler did not return a permutation of the deck")
    return tuple(deck)


__all__ = [
    "FULL_DECK",
    "PRODUCTION_SHUFFLER",
    "RANKS",
    "RANK_NAMES",
    "RANK_PLURAL_NAMES",
    "SUITS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "Card",
    "InvalidCardError",
    "Shuffler",
    "format_cards",
    "parse_cards",
    "shuffled_deck",
]
