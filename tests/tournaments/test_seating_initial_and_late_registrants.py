"""TRN-03 random seating on balanced tables, TRN-05 / AMB-13 first button at the highest occupied seat, and the seat
of a late registrant (a table with the fewest players, a random free seat)."""

from __future__ import annotations

import random

import pytest

from tournaments.rules.common import RuleError
from tournaments.rules.seating import SeatChoice, initial_seating, seat_late_registrant, table_count, table_sizes


@pytest.mark.parametrize(
    ("entrants", "seats", "sizes"),
    [
        (2, 9, (2,)),
        (9, 9, (9,)),
        (10, 9, (5, 5)),
        (18, 9, (9, 9)),
        (19, 9, (7, 6, 6)),
        (20, 9, (7, 7, 6)),
        (11, 10, (6, 5)),
        (13, 6, (5, 4, 4)),
    ],
)
def test_trn_03_as_few_tables_as_possible_with_sizes_differing_by_at_most_one(
    entrants: int, seats: int, sizes: tuple[int, ...]
) -> None:
    assert table_sizes(entrants, seats) == sizes
    assert table_count(entrants, seats) == len(sizes)


def test_trn_03_trn_05_every_player_is_seated_once_at_random_with_the_button_at_the_highest_occupied_seat() -> None:
    players = list(range(1001, 1024))  # 23 players, 9-seat tables -> 8, 8, 7
    tables = initial_seating(players, 9, random.Random(7))
    assert [len(table.players) for table in tables] == [8, 8, 7]
    seated = [player for table in tables for player in table.players.values()]
    assert sorted(seated) == players
    for table in tables:
        assert all(1 <= seat <= 9 for seat in table.players)
        assert table.button == max(table.players)  # TRN-05 / AMB-13
    assert [table.number for table in tables] == [1, 2, 3]


def test_trn_03_seating_depends_on_the_random_source_only() -> None:
    players = list(range(1, 31))
    assert initial_seating(players, 9, random.Random(1)) == initial_seating(players, 9, random.Random(1))
    seatings = {
        tuple(tuple(sorted(t.players.items())) for t in initial_seating(players, 9, random.Random(seed)))
        for seed in range(20)
    }
    assert len(seatings) == 20


def test_trn_03_the_empty_seats_of_a_short_table_are_random_too() -> None:
    used_seats = set()
    for seed in range(50):
        (table,) = initial_seating([1, 2, 3], 9, random.Random(seed))
        used_seats |= set(table.players)
    assert used_seats == set(range(1, 10))


def test_a_late_registrant_sits_at_a_table_with_the_fewest_players_in_a_free_seat() -> None:
    occupied = {
        1: frozenset({1, 2, 3, 4, 5, 6}),
        2: frozenset({2, 5, 7}),
        3: frozenset({1, 3, 4, 9}),
        4: frozenset({1, 2, 8}),
    }
    chosen_tables = set()
    for seed in range(40):
        choice = seat_late_registrant(occupied, 9, random.Random(seed))
        assert choice.table in (2, 4)
        assert choice.seat not in occupied[choice.table]
        assert 1 <= choice.seat <= 9
        chosen_tables.add(choice.table)
    assert chosen_tables == {2, 4}


def test_a_late_registrant_needs_a_new_table_when_every_table_is_full() -> None:
    full = {1: frozenset(range(1, 7)), 2: frozenset(range(1, 7))}
    choice = seat_late_registrant(full, 6, random.Random(3))
    assert choice.table is None
    assert 1 <= choice.seat <= 6
    assert seat_late_registrant({}, 6, random.Random(3)) == SeatChoice(None, choice.seat)


@pytest.mark.parametrize("seats", [1, 11, True])
def test_a_table_size_outside_2_to_10_seats_is_refused(seats: int) -> None:
    with pytest.raises(RuleError):
        table_sizes(20, seats)


def test_duplicate_players_too_few_players_and_impossible_seats_are_refused() -> None:
    with pytest.raises(RuleError):
        initial_seating([1, 1, 2], 9, random.Random(1))
    with pytest.raises(RuleError):
        initial_seating([1], 9, random.Random(1))
    with pytest.raises(RuleError):
        seat_late_registrant({1: frozenset({0, 3})}, 9, random.Random(1))
