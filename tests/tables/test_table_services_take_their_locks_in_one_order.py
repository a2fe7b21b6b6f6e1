"""The table services take their locks in the one order ``games.runtime.locking`` documents — the stake's queue, the
player, the table, its seats, then wallet accounts — each before any write, and the stake's queue lock never blocks a
table's foreign-key check on its stake (``FOR NO KEY UPDATE``, not ``FOR UPDATE``: issue 27's ``hand_start``
deadlock). CASH-04, CASH-05, CASH-06."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Seat
from games.services import hand_start, table_join_queue
from tests.tables.support import START, open_table, player, seat_at


def _statements(capture: CaptureQueriesContext) -> list[str]:
    return [query["sql"] for query in capture.captured_queries]


def _locks_of(statements: list[str], table_name: str) -> list[int]:
    return [
        index
        for index, sql in enumerate(statements)
        if (f'FROM "{table_name}"' in sql or f"FROM {table_name}" in sql)
        and ("FOR UPDATE" in sql or "FOR NO KEY UPDATE" in sql)
    ]


def _first(statements: list[str], *needles: str) -> int:
    found = [index for index, sql in enumerate(statements) if any(needle in sql for needle in needles)]
    assert found, f"no statement contains any of {needles}"
    return found[0]


def _writes(statements: list[str]) -> list[int]:
    return [index for index, sql in enumerate(statements) if sql.lstrip().startswith(("INSERT", "UPDATE", "DELETE"))]


@pytest.mark.django_db
def test_cash_04_the_queue_locks_stake_then_player_then_table_then_seats_then_accounts_before_writing() -> None:
    table = open_table("holdem", "NL10")
    seat_at(table, {1: player(), 2: player(), 3: player()}, 1000)
    user = player()

    with CaptureQueriesContext(connection) as capture:
        table_join_queue(user, table.stake, 1000, now=START)

    statements = _statements(capture)
    assert Seat.objects.get(user=user).table_id == table.pk
    stake_locks = _locks_of(statements, "games_stake")
    assert stake_locks, "the stake's queue was never locked"
    assert all("FOR NO KEY UPDATE" in statements[index] for index in stake_locks)
    assert stake_locks[0] < _writes(statements)[0]  # the queue is locked before the request is written
    # The seating transaction: the stake again (its own transaction), then the player, the table, the seats, and the
    # wallet accounts, each before the seating writes anything.
    player_lock = _first(statements, "pg_advisory_xact_lock")
    seating_stake_lock = max(index for index in stake_locks if index < player_lock)
    assert stake_locks[0] < seating_stake_lock  # the request was queued in a transaction of its own
    table_lock = next(index for index in _locks_of(statements, "games_table") if index > player_lock)
    seats_lock = next(index for index in _locks_of(statements, "games_seat") if index > table_lock)
    account_lock = next(index for index in _locks_of(statements, "wallet_account") if index > seats_lock)
    seating_writes = [index for index in _writes(statements) if index > seating_stake_lock]
    assert seating_stake_lock < player_lock < table_lock < seats_lock < account_lock
    assert seats_lock < seating_writes[0]
    # Once an account is locked, no table is locked after it in that transaction.
    assert not [index for index in _locks_of(statements, "games_table") if index > account_lock]


@pytest.mark.django_db
def test_cash_06_hand_start_locks_the_table_then_its_seats_before_writing_and_never_locks_the_stake() -> None:
    table = open_table("holdem", "NL10")
    seat_at(table, {1: player(), 2: player(), 3: player()}, 1000)

    with CaptureQueriesContext(connection) as capture:
        assert hand_start(table, now=START) is not None

    statements = _statements(capture)
    table_lock = _locks_of(statements, "games_table")[0]
    seats_lock = _locks_of(statements, "games_seat")[0]
    assert table_lock < seats_lock < _writes(statements)[0]
    assert _locks_of(statements, "games_stake") == []
    assert _locks_of(statements, "games_table") == [table_lock]  # one table, locked once
