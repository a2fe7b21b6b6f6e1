"""Button, blinds and who is dealt in for the next cash hand (ENG-04..06, CASH-06/07/21, AMB-11/22/46/66).

Adapter: the engine's positions module (``games.engine.positions``) had not landed when this was written, so the rules
live here as a pure function over seat numbers; it has no Django imports and is unit-tested on its own.

Inputs are the candidates (occupied seats not sitting out, with chips) with how each wants to enter, and the previous
hand's button, big blind and dealt-in players. Rules:

* First hand of a table (or when fewer than two players could be dealt in by the rules below, e.g. every player of
  the previous hand has left): everybody present is dealt in without posting; the button goes to a random player;
  blinds follow clockwise (ENG-06, AMB-46 "players present at a table's first hand need not post").
* Big blind: the next candidate clockwise from the previous big blind's seat (ENG-05.1). Players waiting for the big
  blind are candidates for it (and are dealt in only when it reaches them, CASH-07).
* Small blind: the previous big blind's seat, if the same player is still there and dealt in this hand; otherwise none
  (dead small blind, ENG-05.2, AMB-66).
* Button: the first seat counter-clockwise from the previous big blind's seat whose occupant was dealt into the
  previous hand, even if that player has left (dead button, ENG-05.3, AMB-22).
* Players posting a big blind out of position are dealt in with a live big blind, except from a seat between the
  button and the small-blind seat (clockwise), who wait until the button passes (CASH-07, AMB-46).
* Heads-up (two dealt in): the player who is not the big blind is the button and posts the small blind (ENG-04,
  ENG-05.4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from random import Random


class Entry(StrEnum):
    """How a candidate enters the next hand."""

    PLAYING = "playing"
    WAITING_FOR_BIG_BLIND = "waiting"
    POSTING = "posting"


@dataclass(frozen=True, slots=True)
class Candidate:
    seat: int
    user_id: int
    entry: Entry


@dataclass(frozen=True, slots=True)
class PreviousHand:
    """The last hand at the table: its button and big blind seats and who was dealt in (seat -> user id)."""

    button: int
    big_blind_seat: int
    dealt_in: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class HandPositions:
    button: int
    small_blind_seat: int | None
    big_blind_seat: int
    dealt_in: tuple[int, ...]
    out_of_position: tuple[int, ...]
    fresh_start: bool


def clockwise_after(seat: int, table_size: int) -> list[int]:
    """Every other seat in clockwise order starting with the one after ``seat`` (``seat`` itself last)."""
    return [(seat + step - 1) % table_size + 1 for step in range(1, table_size + 1)]


def strictly_between(start: int, end: int, table_size: int) -> set[int]:
    """Seats met going clockwise from ``start`` to ``end``, both excluded."""
    between: set[int] = set()
    for seat in clockwise_after(start, table_size):
        if seat == end:
            break
        between.add(seat)
    return between


def fresh_positions(candidates: Sequence[Candidate], table_size: int, rng: Random) -> HandPositions:
    """First hand of a table: all candidates dealt in, random button, blinds clockwise (ENG-06, ENG-04)."""
    seats = sorted(candidate.seat for candidate in candidates)
    if len(seats) < 2:
        raise ValueError("a hand needs at least two players")
    button = rng.choice(seats)
    order = [seat for seat in clockwise_after(button, table_size) if seat in seats]  # button last
    if len(seats) == 2:
        small_blind, big_blind = button, order[0]
    else:
        small_blind, big_blind = order[0], order[1]
    return HandPositions(button, small_blind, big_blind, tuple(seats), (), True)


def next_positions(
    candidates: Sequence[Candidate], previous: PreviousHand | None, table_size: int, rng: Random
) -> HandPositions:
    """Positions for the next hand (see the module docstring). ``candidates`` must hold at least two seats."""
    if len(candidates) < 2:
        raise ValueError("a hand needs at least two players")
    if previous is None:
        return fresh_positions(candidates, table_size, rng)
    by_seat = {candidate.seat: candidate for candidate in candidates}
    previous_big_blind = previous.big_blind_seat
    big_blind = next(seat for seat in clockwise_after(previous_big_blind, table_size) if seat in by_seat)
    button = next(
        (seat for seat in reversed(clockwise_after(previous_big_blind, table_size)[:-1]) if seat in previous.dealt_in),
        previous.button,
    )
    no_posting_seats = strictly_between(button, previous_big_blind, table_size)
    dealt_in: list[int] = []
    posting: list[int] = []
    for seat, candidate in sorted(by_seat.items()):
        if seat == big_blind or candidate.entry is Entry.PLAYING:
            dealt_in.append(seat)
        elif candidate.entry is Entry.POSTING and seat not in no_posting_seats:
            dealt_in.append(seat)
            posting.append(seat)
    if len(dealt_in) < 2:
        return fresh_positions(candidates, table_size, rng)
    small_blind: int | None = None
    returning = by_seat.get(previous_big_blind)
    if (
        returning is not None
        and previous.dealt_in.get(previous_big_blind) == returning.user_id
        and previous_big_blind in dealt_in
        and previous_big_blind != big_blind
    ):
        small_blind = previous_big_blind
    if len(dealt_in) == 2:
        other = next(seat for seat in dealt_in if seat != big_blind)
        return HandPositions(other, other, big_blind, tuple(dealt_in), (), False)
    out_of_position = tuple(seat for seat in posting if seat not in (small_blind, big_blind))
    return HandPositions(button, small_blind, big_blind, tuple(dealt_in), out_of_position, False)
