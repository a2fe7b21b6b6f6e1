"""TRN-25 / AMB-42 table balancing and consolidation, TRN-26 messages: who moves where, the free seat the big blind
reaches last, tables broken when their players fit elsewhere, and nobody moved out of a hand."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tournaments.rules.balancing import (
    CONSOLIDATION_NOTICE,
    MoveReason,
    TableBalancer,
    TableState,
    balance_tables,
    hands_until_big_blind,
)
from tournaments.rules.common import RuleError


def table(number: int, seats: list[int], *, big_blind: int | None = None, in_hand: bool = False) -> TableState:
    """A table whose players are numbered ``table * 100 + seat``."""
    return TableState(number, {seat: number * 100 + seat for seat in seats}, big_blind, in_hand)


def sizes(balancer: TableBalancer) -> dict[int, int]:
    return {state.table: len(state.players) for state in balancer.tables()}


def test_amb_42_hands_until_the_big_blind_counts_the_players_the_big_blind_reaches_first() -> None:
    # Big blind last at seat 4; players at 2, 4, 6, 8 of 9 seats: the big blind goes 6, 8, 2, 4.
    occupied = [2, 4, 6, 8]
    assert {seat: hands_until_big_blind(seat, occupied, 4, 9) for seat in (5, 7, 9, 1, 3)} == {
        5: 1,
        7: 2,
        9: 3,
        1: 3,
        3: 4,
    }


def test_amb_42_before_a_tables_first_hand_the_big_blind_follows_the_button_at_the_highest_occupied_seat() -> None:
    # Players at 3 and 7 of 9 seats, no hand dealt yet (TRN-05).
    assert hands_until_big_blind(9, [3, 7], None, 9) == 2  # button 9, small blind 3, big blind 7, then 9
    assert hands_until_big_blind(5, [3, 7], None, 9) == 1  # button 7, small blind 3, big blind 5
    assert hands_until_big_blind(1, [3, 7], None, 9) == 3  # button 7, small blind 1: big blinds 3, 7, then 1
    assert hands_until_big_blind(4, [], None, 9) == 1
    with pytest.raises(RuleError):
        hands_until_big_blind(3, [3, 7], None, 9)


def test_trn_25_amb_42_a_moved_player_sits_in_the_free_seat_the_big_blind_reaches_last() -> None:
    tables = [table(1, [1, 2, 3, 4, 5, 6, 7, 8, 9], big_blind=5), table(2, [2, 4, 6, 8], big_blind=4)]
    for seed in range(10):
        result = balance_tables(tables, 9, random.Random(seed))
        assert [(move.to_table, move.to_seat) for move in result.moves][:1] == [(2, 3)]
        assert result.moves[0].from_table == 1
        assert result.moves[0].reason is MoveReason.BALANCING


def test_amb_42_equally_late_free_seats_are_chosen_at_random() -> None:
    # Players at 1 and 5 of 9 seats, big blind last at 5: seats 2, 3, 4 all wait two hands, seats 6..9 one.
    tables = [table(1, [1, 2, 3, 4, 5, 6, 7, 8, 9], big_blind=1), table(2, [1, 5], big_blind=5)]
    first_seats = Counter(balance_tables(tables, 9, random.Random(seed)).moves[0].to_seat for seed in range(60))
    assert set(first_seats) == {2, 3, 4}


def test_trn_25_players_move_from_a_table_with_the_most_players_to_one_with_the_fewest_until_they_differ_by_one() -> (
    None
):
    balancer = TableBalancer(9, [table(1, list(range(1, 10)), big_blind=3), table(2, [1, 2, 3, 4, 5], big_blind=1)])
    result = balancer.next_round(random.Random(4))
    assert [(move.from_table, move.to_table, move.reason) for move in result.moves] == [
        (1, 2, MoveReason.BALANCING)
    ] * 2
    assert sizes(balancer) == {1: 7, 2: 7}
    assert result.complete
    assert result.broken_tables == ()


def test_trn_25_the_moved_player_is_chosen_at_random_among_the_tables_with_the_most_players() -> None:
    tables = [table(1, list(range(1, 10))), table(2, list(range(1, 10))), table(3, [1, 2, 3, 4, 5, 6], big_blind=1)]
    moved = Counter(
        (move.from_table, move.player)
        for seed in range(200)
        for move in balance_tables(tables, 9, random.Random(seed)).moves[:1]
    )
    assert {source for source, _ in moved} == {1, 2}
    assert len(moved) > 12  # many different players, from both tables


def test_trn_25_tables_that_differ_by_one_player_are_left_alone() -> None:
    result = balance_tables(
        [table(1, [1, 2, 3, 4, 5, 6, 7]), table(2, [1, 2, 3, 4, 5, 6]), table(3, [2, 3, 4, 5, 6, 7])],
        9,
        random.Random(1),
    )
    assert (result.moves, result.broken_tables, result.complete) == ((), (), True)


def test_trn_25_a_table_is_broken_when_its_players_fit_into_the_free_seats_of_the_others() -> None:
    # 6 + 6 + 5 = 17 players fit on two 9-seat tables: the 5-player table is broken.
    balancer = TableBalancer(
        9,
        [
            table(1, [1, 2, 3, 4, 5, 6], big_blind=2),
            table(2, [2, 3, 4, 5, 6, 7], big_blind=2),
            table(3, [1, 3, 5, 7, 9], big_blind=3),
        ],
    )
    result = balancer.next_round(random.Random(2))
    assert result.broken_tables == (3,)
    assert len(result.moves) == 5
    assert {move.reason for move in result.moves} == {MoveReason.TABLE_BROKEN}
    assert sorted(sizes(balancer).values()) == [8, 9]
    assert result.complete


def test_trn_25_no_table_is_broken_while_its_players_do_not_fit_elsewhere() -> None:
    # 7 + 6 + 6 = 19 players need three 9-seat tables.
    result = balance_tables(
        [table(1, [1, 2, 3, 4, 5, 6, 7]), table(2, [1, 2, 3, 4, 5, 6]), table(3, [1, 2, 3, 4, 5, 6])],
        9,
        random.Random(1),
    )
    assert result.broken_tables == ()
    assert result.moves == ()


def test_trn_25_consolidation_ends_with_one_final_table() -> None:
    balancer = TableBalancer(9, [table(1, [1, 2, 3]), table(2, [4, 5]), table(3, [7, 9])])
    result = balancer.next_round(random.Random(5))
    assert len(result.broken_tables) == 2
    assert list(sizes(balancer).values()) == [7]


def test_amb_42_a_player_in_a_hand_is_never_moved_the_round_waits_for_that_table() -> None:
    balancer = TableBalancer(
        9, [table(1, list(range(1, 10)), big_blind=3, in_hand=True), table(2, [1, 2, 3, 4, 5], big_blind=1)]
    )
    waiting = balancer.next_round(random.Random(1))
    assert (waiting.moves, waiting.waiting_for, waiting.complete) == ((), (1,), False)
    # The hand ends with no elimination: the next round moves two players.
    balancer.update(table(1, list(range(1, 10)), big_blind=3))
    result = balancer.next_round(random.Random(1))
    assert len(result.moves) == 2
    assert result.complete


def test_amb_42_a_table_in_a_hand_may_receive_a_player_for_its_next_hand() -> None:
    result = balance_tables(
        [table(1, list(range(1, 10)), big_blind=3), table(2, [1, 2, 3, 4, 5], big_blind=1, in_hand=True)],
        9,
        random.Random(1),
    )
    assert {move.to_table for move in result.moves} == {2}
    assert result.complete


def test_trn_25_a_table_to_break_that_is_in_a_hand_is_waited_for_and_nothing_else_moves_meanwhile() -> None:
    balancer = TableBalancer(
        9, [table(1, [1, 2, 3, 4, 5, 6, 7, 8]), table(2, [1, 2, 3, 4]), table(3, [2, 4, 6], in_hand=True)]
    )
    result = balancer.next_round(random.Random(1))
    assert (result.moves, result.broken_tables, result.waiting_for) == ((), (), (3,))
    balancer.update(table(3, [2, 4, 6], big_blind=4))
    result = balancer.next_round(random.Random(1))
    assert result.broken_tables == (3,)
    assert result.complete
    assert sorted(sizes(balancer).values()) == [7, 8]


def test_trn_25_among_equally_small_tables_a_table_between_hands_is_broken_first() -> None:
    tables = [
        table(1, [1, 2, 3, 4, 5, 6, 7]),
        table(2, [1, 2, 3, 4, 5, 6, 7]),
        table(3, [1, 2, 3], in_hand=True),
        table(4, [4, 5, 6]),
    ]
    for seed in range(10):
        result = balance_tables(tables, 9, random.Random(seed))
        assert result.broken_tables == (4,)
        assert result.complete


def test_a_table_emptied_by_eliminations_is_reported_broken_without_moves() -> None:
    balancer = TableBalancer(9, [table(1, [1, 2, 3, 4, 5, 6]), table(2, [1, 2, 3, 4, 5, 6]), table(3, [1, 2, 3, 4, 5])])
    balancer.update(table(3, []))
    result = balancer.next_round(random.Random(1))
    assert (result.moves, result.broken_tables) == ((), (3,))


def test_trn_26_messages_for_the_tournament_and_for_each_moved_player() -> None:
    assert CONSOLIDATION_NOTICE == "Tables are being consolidated."
    assert "consolidated" in MoveReason.TABLE_BROKEN.message
    assert MoveReason.BALANCING.message == "You were moved to another table to balance the tables."


def test_inconsistent_tables_are_refused() -> None:
    with pytest.raises(RuleError):
        TableBalancer(9, [TableState(1, {1: 7}, None, False), TableState(2, {1: 7}, None, False)])  # one player twice
    with pytest.raises(RuleError):
        TableBalancer(9, [TableState(1, {10: 7}, None, False)])
    with pytest.raises(RuleError):
        TableBalancer(9, [TableState(1, {1: 7}, None, False), TableState(1, {2: 8}, None, False)])
    with pytest.raises(RuleError):
        TableBalancer(9, [TableState(1, {1: 7}, 0, False)])
