"""Finishing places, hand-for-hand and the end of a tournament (TRN-21, TRN-22, TRN-23, TRN-24, AMB-33, AMB-43).

* Players eliminated in the same hand (TRN-22), or in the same synchronized hand of hand-for-hand play at any tables
  (TRN-24), are ordered by their chips at the start of that hand: more chips finishes higher; equal stacks are ordered
  at random (AMB-33: each then gets the prize of the place given, no chop), and the places so drawn are marked, so
  that the players concerned are told their place came from a draw. With ``remaining`` players before the hand and
  ``k`` eliminations, they take places ``remaining - k + 1`` .. ``remaining``.
* Hand-for-hand (TRN-23 / AMB-43) is played while more than one table remains and, automatically, exactly when the
  remaining players are one more than the paid places (the bubble); it ends when the bubble bursts. The back-office
  switch forces it on or off.
* The tournament ends (TRN-21) when one player is left, or, if the tournament's "end when remaining prizes are
  identical" flag is set, as soon as every remaining player would receive the same prize.

Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby

from tournaments.rules.common import RandomSource, RuleError, require_whole, shuffled


@dataclass(frozen=True, slots=True)
class FinishingPlace:
    """A player's finishing place; ``drawn_among``: when they were tied on chips with other players eliminated in the
    same hand and the place was drawn at random between them (TRN-22), the first and last of the places drawn, so the
    players concerned can be told; ``None`` when the chips decided it."""

    player: int
    place: int
    drawn_among: tuple[int, int] | None = None


def finishing_places(
    starting_stacks: Mapping[int, int], remaining_before: int, randomness: RandomSource
) -> tuple[FinishingPlace, ...]:
    """TRN-22 / TRN-24: places for the players eliminated in one hand (or one synchronized hand-for-hand round).

    ``starting_stacks``: ``{player: chips at the start of the hand}`` of the eliminated players; ``remaining_before``:
    players in the tournament before the hand, the eliminated ones included. Returns the places, best place first.

    [derived TRN-22] 1,200 and 800 chips busting with 10 left: the 1,200 player finishes 9th, the 800 player 10th.
    """
    require_whole(remaining_before, "players remaining before the hand", minimum=1)
    for player, stack in starting_stacks.items():
        require_whole(stack, f"starting stack of player {player}", minimum=1)
    eliminated = len(starting_stacks)
    if eliminated >= remaining_before:
        raise RuleError(f"{eliminated} eliminations leave nobody of the {remaining_before} players")
    by_stack = sorted(starting_stacks.items(), key=lambda item: (-item[1], item[0]))
    best_place = remaining_before - eliminated + 1
    places: list[FinishingPlace] = []
    for _, group in groupby(by_stack, key=lambda item: item[1]):
        tied = shuffled((player for player, _ in group), randomness)
        first = best_place + len(places)
        drawn = (first, first + len(tied) - 1) if len(tied) > 1 else None
        places.extend(FinishingPlace(player, first + index, drawn) for index, player in enumerate(tied))
    return tuple(places)


def hand_for_hand(remaining_players: int, paid_places: int, running_tables: int, *, manual: bool | None = None) -> bool:
    """TRN-23 / AMB-43: whether the next hands are played hand-for-hand.

    ``manual``: the back-office switch (``True`` on, ``False`` off, ``None`` automatic). Never with a single table."""
    require_whole(remaining_players, "remaining players")
    require_whole(paid_places, "paid places")
    require_whole(running_tables, "running tables")
    if running_tables <= 1:
        return False
    if manual is not None:
        return manual
    return remaining_players == paid_places + 1


def tournament_over(remaining_players: int, prizes_by_place: Sequence[int], *, end_when_prizes_identical: bool) -> bool:
    """TRN-21: one player left; or, with the flag set, every remaining place pays the same (non-zero) prize.

    ``prizes_by_place``: prize of place 1, 2, ... (places beyond the list pay nothing).
    [seed example] five identical prizes for the top five: the tournament may end with five players left."""
    require_whole(remaining_players, "remaining players", minimum=1)
    if remaining_players == 1:
        return True
    if not end_when_prizes_identical:
        return False
    prizes = [prizes_by_place[place] if place < len(prizes_by_place) else 0 for place in range(remaining_players)]
    return len(set(prizes)) == 1 and prizes[0] > 0
