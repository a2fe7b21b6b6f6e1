"""TRN-25 / AMB-42 properties of balancing over random tournaments: rounds run as hands finish and players bust; no
player in a hand ever moves, no table ever holds more players than seats, tables are broken exactly when the others
can take their players, and once no table is in a hand the tables differ by at most one player."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.rules.balancing import BalancingRound, TableBalancer, TableState


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[int, list[TableState], int]:
    seats = draw(st.integers(2, 10))
    table_count = draw(st.integers(1, 12))
    tables = []
    next_player = 1
    for number in range(1, table_count + 1):
        occupied = draw(st.sets(st.integers(1, seats), max_size=seats))
        players = {}
        for seat in sorted(occupied):
            players[seat] = next_player
            next_player += 1
        big_blind = draw(st.none() | st.integers(1, seats))
        tables.append(TableState(number, players, big_blind, draw(st.booleans())))
    return seats, tables, draw(st.integers(0, 2**32))


def tables_needed(players: int, seats: int) -> int:
    return max(1, -(-players // seats))


def check_round(
    seats: int, before: dict[int, TableState], result: BalancingRound, after: dict[int, TableState]
) -> None:
    players = sum(len(state.players) for state in before.values())
    # Replay the moves on the tables as they were: every move takes a player from a table between hands and puts
    # them in a free seat.
    layout = {number: dict(state.players) for number, state in before.items()}
    for move in result.moves:
        assert not before[move.from_table].in_hand, "a player in a hand was moved"
        assert layout[move.from_table].pop(move.from_seat) == move.player
        assert move.to_seat not in layout[move.to_table]
        assert 1 <= move.to_seat <= seats
        assert move.to_table not in result.broken_tables
        layout[move.to_table][move.to_seat] = move.player
    for number in result.broken_tables:
        assert layout.pop(number) == {}, "a broken table still has players"
    assert layout == {number: dict(state.players) for number, state in after.items()}
    assert all(len(players_at) <= seats for players_at in layout.values())
    # Tables are broken only when the others can take their players, and (unless waiting) exactly then.
    assert len(before) - len(after) <= len(before) - tables_needed(players, seats)
    assert set(result.waiting_for) <= {number for number, state in before.items() if state.in_hand}
    if result.complete:
        assert len(after) == tables_needed(players, seats)
        counts = [len(state.players) for state in after.values()]
        assert max(counts) - min(counts) <= 1


@settings(max_examples=150, deadline=None)
@given(tournament=tournaments())
def test_trn_25_amb_42_rounds_as_hands_finish_keep_every_balancing_rule(
    tournament: tuple[int, list[TableState], int],
) -> None:
    seats, tables, seed = tournament
    balancer = TableBalancer(seats, tables)
    chooser = random.Random(seed)
    dynamics = random.Random(seed + 1)
    for _ in range(40):
        before = {state.table: state for state in balancer.tables()}
        result = balancer.next_round(chooser)
        after = {state.table: state for state in balancer.tables()}
        check_round(seats, before, result, after)
        # Some hands finish (with eliminations while more than two players remain), some start.
        remaining = balancer.player_count
        for state in after.values():
            if state.in_hand and dynamics.random() < 0.6:
                players = dict(state.players)
                for seat in sorted(players):
                    if remaining > 2 and dynamics.random() < 0.15:
                        del players[seat]
                        remaining -= 1
                big_blind = min(players) if players else state.last_big_blind
                balancer.update(TableState(state.table, players, big_blind, False))
            elif not state.in_hand and len(state.players) >= 2 and dynamics.random() < 0.5:
                balancer.update(TableState(state.table, state.players, state.last_big_blind, True))
    # Every hand ends: one more round balances everything.
    for state in balancer.tables():
        balancer.update(TableState(state.table, state.players, state.last_big_blind, False))
    before = {state.table: state for state in balancer.tables()}
    result = balancer.next_round(chooser)
    check_round(seats, before, result, {state.table: state for state in balancer.tables()})
    assert result.complete
