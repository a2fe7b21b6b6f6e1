"""Initial seating and late-registrant seating (TRN-03, TRN-05, AMB-13, TRN-08).

* The entrants need ``ceil(entrants / seats_per_table)`` tables; the players are spread so that table sizes differ by
  at most one (:func:`table_sizes`).
* Seats are assigned at random (TRN-03): a random order of the players fills the tables, and each table's occupied
  seats are a random choice among its seats (with fewer players than seats, the empty seats are random too).
* The first button of each table is its highest-numbered occupied seat (TRN-05 / AMB-13,
  :func:`games.engine.positions.tournament_first_button`).
* A late registrant (or re-entry) sits at one of the tables with the fewest players, in a random free seat; when every
  table is full a new table is needed (the next balancing round, :mod:`tournaments.rules.balancing`, fills it).
  Players are identified by plain ints (entry ids), tables by plain ints.

Standard library and the engine only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.engine.config import MAXIMUM_SEATS, MINIMUM_SEATS
from games.engine.positions import tournament_first_button
from tournaments.rules.common import RandomSource, RuleError, require_whole, shuffled


def check_seats_per_table(seats_per_table: int) -> int:
    """``seats_per_table`` if a table can have that many seats (2..10), else :class:`RuleError`."""
    require_whole(seats_per_table, "seats per table", minimum=MINIMUM_SEATS)
    if seats_per_table > MAXIMUM_SEATS:
        raise RuleError(f"a table has at most {MAXIMUM_SEATS} seats, not {seats_per_table}")
    return seats_per_table


def table_count(entrants: int, seats_per_table: int) -> int:
    """The number of tables ``entrants`` players need (at least one)."""
    check_seats_per_table(seats_per_table)
    require_whole(entrants, "entrants")
    return max(1, -(-entrants // seats_per_table))


def table_sizes(entrants: int, seats_per_table: int) -> tuple[int, ...]:
    """Players per table for the initial seating: as few tables as possible, sizes differing by at most one (the
    larger tables first). ``table_sizes(20, 9) == (7, 7, 6)``."""
    tables = table_count(entrants, seats_per_table)
    each, larger = divmod(entrants, tables)
    return tuple(each + 1 if index < larger else each for index in range(tables))


@dataclass(frozen=True, slots=True)
class SeatedTable:
    """A table of the initial seating: its number (1, 2, ...), ``{seat: player}`` and the first button seat."""

    number: int
    players: Mapping[int, int]
    button: int


def initial_seating(players: Sequence[int], seats_per_table: int, randomness: RandomSource) -> tuple[SeatedTable, ...]:
    """TRN-03 / TRN-05: seat ``players`` (distinct entry ids, at least two) at random on balanced tables."""
    check_seats_per_table(seats_per_table)
    if len(set(players)) != len(players):
        raise RuleError("a player can be seated only once")
    if len(players) < MINIMUM_SEATS:
        raise RuleError(f"a tournament needs at least {MINIMUM_SEATS} players, not {len(players)}")
    order = shuffled(players, randomness)
    tables: list[SeatedTable] = []
    taken = 0
    for number, size in enumerate(table_sizes(len(order), seats_per_table), start=1):
        seats = shuffled(range(1, seats_per_table + 1), randomness)[:size]
        seating = dict(zip(seats, order[taken : taken + size], strict=True))
        taken += size
        tables.append(SeatedTable(number, seating, tournament_first_button(seating)))
    return tuple(tables)


@dataclass(frozen=True, slots=True)
class SeatChoice:
    """Where a newcomer sits: ``table`` is ``None`` when every table is full and a new table must be opened (then
    ``seat`` is the seat at the new table)."""

    table: int | None
    seat: int


def seat_late_registrant(
    occupied_seats: Mapping[int, frozenset[int] | set[int]], seats_per_table: int, randomness: RandomSource
) -> SeatChoice:
    """A seat for a late registrant or re-entry: at a random one of the tables with the fewest players, in a random
    free seat. ``occupied_seats`` maps each running table to its occupied seat numbers."""
    check_seats_per_table(seats_per_table)
    for table, seats in occupied_seats.items():
        if len(seats) > seats_per_table or any(
            type(seat) is not int or not 1 <= seat <= seats_per_table for seat in seats
        ):
            raise RuleError(f"table {table}: {set(seats)} are not the seats of a {seats_per_table}-seat table")
    fewest = min((len(seats) for seats in occupied_seats.values()), default=seats_per_table)
    if fewest >= seats_per_table:
        return SeatChoice(None, randomness.choice(range(1, seats_per_table + 1)))
    candidates = sorted(table for table, seats in occupied_seats.items() if len(seats) == fewest)
    table = randomness.choice(candidates)
    free = [seat for seat in range(1, seats_per_table + 1) if seat not in occupied_seats[table]]
    return SeatChoice(table, randomness.choice(free))
