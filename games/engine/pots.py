"""Main and side pots (ENG-22) and splitting a pot between tied winners with odd chips (ENG-27).

Pure functions over plain integers so the state machine, the table service (which re-splits a pot after rake) and
tests share one implementation.

* :func:`layer_pots` turns each player's total contribution (antes, blinds, bets; uncalled bets already returned,
  ENG-23) into the main pot and side pots. A pot is open to the players still holding cards who contributed at least
  its level; folded players' money is in the pots but they are eligible for none.
* :func:`split_pot` divides an amount equally between winners and hands out the chips (cents) that do not divide
  evenly one at a time in clockwise order starting with the first seat clockwise from the button (ENG-27). The caller
  passes the winners already in that order; :func:`games.engine.odd_chips.split_amount` is the same rule for callers
  holding seat numbers and the button.

Standard library only.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Pot:
    """A main or side pot: its amount and the seats that can win it (clockwise from the button).

    ``winners`` and ``shares`` are filled in once the pot is awarded: the winning seats in ENG-27 order (first seat
    clockwise from the button first) and ``(seat, amount)`` for each of them. The table service re-splits the pot
    after rake with ``split_pot(amount - rake, winners)``.
    """

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...] = ()
    shares: tuple[tuple[int, int], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "amount": self.amount,
            "eligible": list(self.eligible),
            "winners": list(self.winners),
            "shares": [list(share) for share in self.shares],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Pot:
        return cls(
            amount=data["amount"],
            eligible=tuple(data["eligible"]),
            winners=tuple(data.get("winners", ())),
            shares=tuple((seat, amount) for seat, amount in data.get("shares", ())),
        )


def layer_pots(contributions: Sequence[int], folded: Sequence[bool]) -> list[tuple[int, tuple[int, ...]]]:
    """Main pot first, then side pots, as ``(amount, eligible player indexes)``.

    ``contributions[i]`` is everything player ``i`` put in this hand; ``folded[i]`` whether they gave up. Levels are
    the distinct contributions of players still in the hand: each pot holds, from every player, the part of their
    contribution between the previous level and this one. Money above the highest level (only possible from a player
    who folded) joins the last pot. The amounts always add up to the sum of the contributions.

    [seed example, ENG-22] A and B put in 1000 each, C is all-in for 100: main pot 300 (A, B, C), side pot 1800 (A, B).
    """
    count = len(contributions)
    levels = sorted({contributions[i] for i in range(count) if not folded[i] and contributions[i] > 0})
    pots: list[tuple[int, tuple[int, ...]]] = []
    previous = 0
    for level in levels:
        amount = 0
        for contribution in contributions:
            if contribution > previous:
                amount += (level if contribution > level else contribution) - previous
        eligible = tuple(i for i in range(count) if not folded[i] and contributions[i] >= level)
        pots.append((amount, eligible))
        previous = level
    leftover = sum(contribution - previous for contribution in contributions if contribution > previous)
    if leftover:
        if pots:
            amount, eligible = pots[-1]
            pots[-1] = (amount + leftover, eligible)
        else:
            pots.append((leftover, tuple(i for i in range(count) if not folded[i])))
    return pots


def layer_contributions(contributions: Mapping[int, int], folded: Collection[int]) -> list[dict[int, int]]:
    """Each player's part of each pot, main pot first, layered exactly as :func:`layer_pots` does (money above the
    highest level, only a folded player's, joins the last pot): ``contributions`` maps a seat to everything it put in,
    ``folded`` holds the seats that gave up. The parts of pot ``i`` add up to ``layer_pots(...)[i]``'s amount."""
    seats = sorted(contributions)
    levels = sorted({contributions[seat] for seat in seats if seat not in folded and contributions[seat] > 0})
    pots: list[dict[int, int]] = []
    previous = 0
    for level in levels:
        pots.append(
            {seat: min(contributions[seat], level) - previous for seat in seats if contributions[seat] > previous}
        )
        previous = level
    leftover = {seat: contributions[seat] - previous for seat in seats if contributions[seat] > previous}
    if leftover:
        if not pots:
            pots.append({})
        for seat, amount in leftover.items():
            pots[-1][seat] = pots[-1].get(seat, 0) + amount
    return pots


def split_pot(amount: int, winners: Sequence[int]) -> list[tuple[int, int]]:
    """Split ``amount`` equally between ``winners`` (given in ENG-27 order) as ``[(winner, share), ...]``.

    The remainder of the division is given one chip at a time to the first winners in the order given, so callers pass
    the winners clockwise starting from the first seat clockwise from the button.

    [derived example, ENG-27] 101 cents between seats 5 and 2 with the button at seat 4 (order: 5, 2) -> seat 5 gets
    51, seat 2 gets 50.
    """
    if not winners:
        raise ValueError("a pot needs at least one winner")
    if amount < 0:
        raise ValueError(f"cannot split a negative amount ({amount})")
    share, odd = divmod(amount, len(winners))
    return [(winner, share + 1 if position < odd else share) for position, winner in enumerate(winners)]


def clockwise_from_button(seats: Sequence[int], button: int, table_size: int) -> list[int]:
    """``seats`` ordered clockwise starting with the first seat clockwise from ``button`` (the button seat last)."""
    return sorted(seats, key=lambda seat: (seat - button - 1) % table_size)


__all__ = ["Pot", "clockwise_from_button", "layer_contributions", "layer_pots", "split_pot"]
