"""Hand classes, odds and the two UTH paytables (UTH-18 Blind, UTH-19 Trips).

A *hand class* is a hand category with the Royal Flush (the ace-high straight flush) told apart, because both
paytables pay it separately. Odds are exact fractions ("1.5:1" is 3/2): :meth:`Odds.winnings` refuses a stake whose
winnings would not be a whole number of cents, so no payout is ever rounded. The betting rules keep every Ante (and so
every Blind) a whole number of 2-cent steps for that reason (see games.engine.uth.betting).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum
from types import MappingProxyType
from typing import Final

from games.engine.evaluation import ROYAL_FLUSH_NAME, HandCategory, strength_category, strength_ranks


class HandClass(IntEnum):
    """The best five-card hand of seven, as the paytables see it; weakest to strongest."""

    HIGH_CARD = 1
    PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9
    ROYAL_FLUSH = 10

    @property
    def display_name(self) -> str:
        """ "Royal Flush", "Straight Flush", "Four of a Kind", ..., "High Card"."""
        if self is HandClass.ROYAL_FLUSH:
            return ROYAL_FLUSH_NAME
        return HandCategory(int(self)).display_name


def hand_class(strength: int) -> HandClass:
    """The paytable class of a strength from :func:`games.engine.evaluation.holdem_strength`."""
    category = strength_category(strength)
    if category is HandCategory.STRAIGHT_FLUSH and strength_ranks(strength)[0] == 14:
        return HandClass.ROYAL_FLUSH
    return HandClass(int(category))


@dataclass(frozen=True, slots=True)
class Odds:
    """Winning odds ``numerator:denominator`` ("1.5:1" is ``Odds(3, 2)``): a stake ``s`` wins ``s * n / d``."""

    numerator: int
    denominator: int = 1

    def __post_init__(self) -> None:
        if self.numerator <= 0 or self.denominator <= 0:
            raise ValueError("odds must be positive")

    def winnings(self, stake: int) -> int:
        """The exact winnings on ``stake`` cents (the stake itself is returned on top). Raises ``ValueError`` when
        the winnings would not be a whole number of cents: payouts are never rounded."""
        amount, remainder = divmod(stake * self.numerator, self.denominator)
        if remainder:
            raise ValueError(f"{stake} cents at {self} does not pay a whole number of cents")
        return amount

    def __str__(self) -> str:
        """ "500:1", "1.5:1" (the seed's notation)."""
        whole, remainder = divmod(self.numerator, self.denominator)
        if not remainder:
            return f"{whole}:1"
        return f"{self.numerator / self.denominator:g}:1"


BLIND_PAYTABLE: Final[Mapping[HandClass, Odds]] = MappingProxyType(
    {
        HandClass.ROYAL_FLUSH: Odds(500),
        HandClass.STRAIGHT_FLUSH: Odds(50),
        HandClass.FOUR_OF_A_KIND: Odds(10),
        HandClass.FULL_HOUSE: Odds(3),
        HandClass.FLUSH: Odds(3, 2),
        HandClass.STRAIGHT: Odds(1),
    }
)
"""UTH-18: what the BLIND wins when the player beats the dealer; every other winning hand pushes the Blind."""

TRIPS_PAYTABLE: Final[Mapping[HandClass, Odds]] = MappingProxyType(
    {
        HandClass.ROYAL_FLUSH: Odds(50),
        HandClass.STRAIGHT_FLUSH: Odds(40),
        HandClass.FOUR_OF_A_KIND: Odds(30),
        HandClass.FULL_HOUSE: Odds(8),
        HandClass.FLUSH: Odds(7),
        HandClass.STRAIGHT: Odds(4),
        HandClass.THREE_OF_A_KIND: Odds(3),
    }
)
"""UTH-19: what TRIPS wins on the player's best five of seven; anything below Three of a Kind loses (UTH-20)."""

PLAY_ODDS: Final[Odds] = Odds(1)
"""UTH-15: PLAY pays 1:1 when the player wins, whatever the dealer holds."""

ANTE_ODDS: Final[Odds] = Odds(1)
"""UTH-15: ANTE pays 1:1 when the player wins and the dealer qualifies."""
