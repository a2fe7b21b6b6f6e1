"""Table balancing and consolidation between hands (TRN-25, TRN-26, AMB-42).

All tables of a tournament have the same number of seats. One balancing *round* decides the moves possible now:

1. **Break tables** while the players fit on fewer tables: a table is broken when its players fit into the free seats
   of the other tables, i.e. the tournament keeps ``ceil(players / seats)`` tables (at least one). The tables with the
   fewest players are broken, preferring, among equally small tables, tables that are between hands. Each of their
   players goes to a table with the fewest players (random among them, never a table being broken).
2. **Balance**: while the largest and the smallest table differ by more than one player, a random player of a random
   table with the most players moves to a random table with the fewest players.
3. Every moved player sits in the free seat the big blind will reach last, i.e. the one with the most hands before it
   must post the big blind, random among ties (AMB-42); tournament players are dealt in from their first hand at the
   new table (they are ``ready`` for :func:`games.engine.positions.next_hand_positions`). That seat lies between the
   next hand's button and small blind, or is the last big blind's own seat when it has become free.

**Never a player in a hand** (AMB-42): only tables between hands give players. A table in a hand may receive a player
(they play from that table's next hand). When a table to break, or every table with the most players, is in a hand,
the round stops there and names those tables in ``waiting_for``: the service runs a round again whenever a table
finishes a hand (after recording that hand's eliminations), which is also when new imbalances appear. While a table
to break is in a hand no balancing move is made elsewhere (its players will fill the small tables).

**Cost**: :class:`TableBalancer` keeps the tables in buckets by player count, so a round costs time proportional to
the moves it makes (times the seat count), not to the number of tables; a service that keeps one balancer per running
tournament updates it with :meth:`TableBalancer.update` as hands finish. :func:`balance_tables` is the one-shot form
(it builds the buckets, linear in the tables, then runs one round).

TRN-26 messages: :data:`CONSOLIDATION_NOTICE` for the tournament's players when tables are broken, and
:attr:`MoveReason.message` for each moved player.

Standard library and the engine only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from games.engine.positions import next_hand_positions, tournament_first_button
from tournaments.rules.common import RandomSource, RuleError
from tournaments.rules.seating import check_seats_per_table

CONSOLIDATION_NOTICE: Final[str] = "Tables are being consolidated."


class MoveReason(StrEnum):
    """Why a player was moved (TRN-26), with the message shown to them."""

    TABLE_BROKEN = "table_broken"
    BALANCING = "balancing"

    @property
    def message(self) -> str:
        if self is MoveReason.TABLE_BROKEN:
            return "Tables are being consolidated: your table was closed and you were moved to another table."
        return "You were moved to another table to balance the tables."


@dataclass(frozen=True, slots=True)
class TableState:
    """A running table as balancing sees it.

    * ``players``: ``{seat: player}`` (player = entry id).
    * ``last_big_blind``: the seat that posted the big blind in the table's last hand (the hand in progress, if any);
      ``None`` when the table has not dealt a hand yet.
    * ``in_hand``: a hand is being played (its players cannot move).
    """

    table: int
    players: Mapping[int, int]
    last_big_blind: int | None
    in_hand: bool


@dataclass(frozen=True, slots=True)
class PlayerMove:
    player: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: MoveReason


@dataclass(frozen=True, slots=True)
class BalancingRound:
    """The moves to make now, in order; ``broken_tables``: tables this round empties (close them); ``waiting_for``:
    tables in a hand that the next step waits for (empty = after these moves the tables are balanced)."""

    moves: tuple[PlayerMove, ...]
    broken_tables: tuple[int, ...]
    waiting_for: tuple[int, ...]

    @property
    def complete(self) -> bool:
        return not self.waiting_for


def hands_until_big_blind(seat: int, occupied: Iterable[int], last_big_blind: int | None, seats_per_table: int) -> int:
    """How many hands, counting the next one as 1, until a player newly seated at free ``seat`` posts the big blind.

    The big blind moves clockwise to the next player each hand (ENG-05, ENG-07); when the table has not dealt yet, the
    first hand's big blind follows the button at the highest occupied seat (TRN-05)."""
    others = set(occupied)
    if seat in others:
        raise RuleError(f"seat {seat} is not free")
    players = others | {seat}
    if last_big_blind is None:
        if not others:
            return 1
        first = next_hand_positions(
            table_size=seats_per_table, previous=None, ready=players, first_button=tournament_first_button(players)
        )
        first_big_blind = first.big_blind
    else:
        first_big_blind = min(players, key=lambda candidate: (candidate - last_big_blind - 1) % seats_per_table)
    return 1 + sum(
        1
        for other in players
        if (other - first_big_blind) % seats_per_table < (seat - first_big_blind) % seats_per_table
    )


class _TableSet:
    """Table numbers with O(1) insert, removal and random choice."""

    __slots__ = ("items", "positions")

    def __init__(self) -> None:
        self.items: list[int] = []
        self.positions: dict[int, int] = {}

    def add(self, table: int) -> None:
        self.positions[table] = len(self.items)
        self.items.append(table)

    def discard(self, table: int) -> None:
        position = self.positions.pop(table, None)
        if position is None:
            return
        last = self.items.pop()
        if position < len(self.items):
            self.items[position] = last
            self.positions[last] = position

    def __len__(self) -> int:
        return len(self.items)


class _Table:
    __slots__ = ("in_hand", "last_big_blind", "players")

    def __init__(self, state: TableState) -> None:
        self.players: dict[int, int] = dict(state.players)
        self.last_big_blind = state.last_big_blind
        self.in_hand = state.in_hand


class TableBalancer:
    """The tables of one tournament, bucketed by player count; :meth:`next_round` decides (and applies to itself)
    one balancing round. Keep it between rounds and :meth:`update` the tables that change, or use
    :func:`balance_tables` once."""

    def __init__(self, seats_per_table: int, tables: Iterable[TableState] = ()) -> None:
        self.seats_per_table = check_seats_per_table(seats_per_table)
        self._seat_numbers = frozenset(range(1, seats_per_table + 1))
        self._tables: dict[int, _Table] = {}
        self._table_of_player: dict[int, int] = {}
        self._by_count = [_TableSet() for _ in range(seats_per_table + 1)]
        self._between_hands_by_count = [_TableSet() for _ in range(seats_per_table + 1)]
        self.player_count = 0
        for state in tables:
            if state.table in self._tables:
                raise RuleError(f"table {state.table} is listed twice")
            self.update(state)

    # --- the index ---------------------------------------------------------------------------------------------

    def update(self, state: TableState) -> None:
        """Record a table's current state (a new table, or one whose players, big blind or hand changed)."""
        self._check(state)
        self.remove(state.table)
        table = _Table(state)
        self._tables[state.table] = table
        self._table_of_player.update(dict.fromkeys(table.players.values(), state.table))
        self.player_count += len(table.players)
        self._file(state.table, table)

    def remove(self, table_number: int) -> None:
        """Forget a table (closed by the service)."""
        table = self._tables.pop(table_number, None)
        if table is None:
            return
        self._unfile(table_number, table)
        for player in table.players.values():
            del self._table_of_player[player]
        self.player_count -= len(table.players)

    def tables(self) -> tuple[TableState, ...]:
        """The current state of every table (after the rounds applied so far), by table number."""
        return tuple(
            TableState(number, dict(table.players), table.last_big_blind, table.in_hand)
            for number, table in sorted(self._tables.items())
        )

    def _check(self, state: TableState) -> None:
        """Refuse a table state that cannot be (checked with set operations: this runs for every table)."""
        number, players, seats = state.table, state.players, self.seats_per_table
        if type(number) is not int:
            raise RuleError(f"a table is identified by an int, not {number!r}")
        if not set(map(type, players)) <= {int} or not self._seat_numbers.issuperset(players):
            raise RuleError(f"table {number}: {sorted(players, key=str)} are not seats of a {seats}-seat table")
        entries = set(players.values())
        if not set(map(type, entries)) <= {int}:
            raise RuleError(f"table {number}: players are identified by ints, not {sorted(entries, key=str)}")
        if len(entries) != len(players):
            raise RuleError(f"table {number}: a player holds two seats")
        previous = self._tables.get(number)
        elsewhere = entries.difference(previous.players.values() if previous else ()) & self._table_of_player.keys()
        if elsewhere:
            player = min(elsewhere)
            raise RuleError(f"player {player} is seated at tables {self._table_of_player[player]} and {number}")
        big_blind = state.last_big_blind
        if big_blind is not None and (type(big_blind) is not int or big_blind not in self._seat_numbers):
            raise RuleError(f"table {number}: {big_blind!r} is not a seat of a {seats}-seat table")

    def _file(self, number: int, table: _Table) -> None:
        self._by_count[len(table.players)].add(number)
        if not table.in_hand:
            self._between_hands_by_count[len(table.players)].add(number)

    def _unfile(self, number: int, table: _Table) -> None:
        self._by_count[len(table.players)].discard(number)
        self._between_hands_by_count[len(table.players)].discard(number)

    # --- one round ---------------------------------------------------------------------------------------------

    def next_round(self, randomness: RandomSource) -> BalancingRound:
        """Decide the moves possible now (see the module docstring) and apply them to this balancer."""
        moves: list[PlayerMove] = []
        tables_needed = max(1, -(-self.player_count // self.seats_per_table))
        # The tables to break leave the buckets at once, so that they receive nobody.
        to_break = self._take_tables_to_break(len(self._tables) - tables_needed, randomness)
        waiting = [number for number in to_break if self._tables[number].in_hand]
        broken: list[int] = []
        for number in to_break:
            table = self._tables[number]
            if table.in_hand:
                continue
            for seat in sorted(table.players):
                destination = self._random_table_with_fewest_players(randomness)
                moves.append(self._move(number, seat, destination, MoveReason.TABLE_BROKEN, randomness))
            del self._tables[number]
            broken.append(number)
        for number in waiting:
            self._file(number, self._tables[number])
        if not waiting:
            waiting = self._balance(moves, randomness)
        return BalancingRound(tuple(moves), tuple(broken), tuple(sorted(waiting)))

    def _take_tables_to_break(self, count: int, randomness: RandomSource) -> list[int]:
        """Take ``count`` tables with the fewest players out of the buckets; among equally small tables, tables
        between hands first, random within each group."""
        chosen: list[int] = []
        player_count = 0
        while len(chosen) < count:
            between_hands = self._between_hands_by_count[player_count]
            bucket = between_hands if between_hands else self._by_count[player_count]
            if not bucket:
                player_count += 1
                continue
            pick = randomness.choice(bucket.items)
            self._unfile(pick, self._tables[pick])
            chosen.append(pick)
        return chosen

    def _balance(self, moves: list[PlayerMove], randomness: RandomSource) -> list[int]:
        """Balancing moves until the tables differ by at most one player; the tables waited for, if it stops early."""
        while len(self._tables) > 1:
            fewest = self._fewest_players()
            most = max(count for count in range(self.seats_per_table + 1) if self._by_count[count])
            if most - fewest <= 1:
                return []
            sources = self._between_hands_by_count[most]
            if not sources:
                return sorted(self._by_count[most].items)
            source = randomness.choice(sources.items)
            seat = randomness.choice(sorted(self._tables[source].players))
            destination = randomness.choice(self._by_count[fewest].items)
            moves.append(self._move(source, seat, destination, MoveReason.BALANCING, randomness))
        return []

    def _fewest_players(self) -> int:
        return next(count for count in range(self.seats_per_table + 1) if self._by_count[count])

    def _random_table_with_fewest_players(self, randomness: RandomSource) -> int:
        fewest = self._fewest_players()
        if fewest >= self.seats_per_table:
            raise RuntimeError("no free seat although the players fit on the remaining tables")
        return randomness.choice(self._by_count[fewest].items)

    def _move(
        self, source: int, seat: int, destination: int, reason: MoveReason, randomness: RandomSource
    ) -> PlayerMove:
        origin = self._tables[source]
        target = self._tables[destination]
        to_seat = self._seat_reached_last(target, randomness)
        player = origin.players[seat]
        source_filed = source in self._by_count[len(origin.players)].positions  # not when the table is broken
        if source_filed:
            self._unfile(source, origin)
        self._unfile(destination, target)
        del origin.players[seat]
        target.players[to_seat] = player
        self._table_of_player[player] = destination
        if source_filed:
            self._file(source, origin)
        self._file(destination, target)
        return PlayerMove(player, source, seat, destination, to_seat, reason)

    def _seat_reached_last(self, table: _Table, randomness: RandomSource) -> int:
        """AMB-42: the free seat with the most hands before its big blind, random among ties."""
        seats = self.seats_per_table
        occupied = table.players.keys()
        free = [seat for seat in range(1, seats + 1) if seat not in table.players]
        waits = {seat: hands_until_big_blind(seat, occupied, table.last_big_blind, seats) for seat in free}
        longest = max(waits.values())
        return randomness.choice([seat for seat in free if waits[seat] == longest])


def balance_tables(tables: Iterable[TableState], seats_per_table: int, randomness: RandomSource) -> BalancingRound:
    """One balancing round over the tournament's running tables (see the module docstring)."""
    return TableBalancer(seats_per_table, tables).next_round(randomness)
