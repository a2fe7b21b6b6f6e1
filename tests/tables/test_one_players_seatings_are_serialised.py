"""Two seatings of one player at two tables cannot both pass the limits that count that player's seats and buy-ins
(CASH-28: four Banzai tables per stake; CASH-12 and CASH-31: the daily ratholing and Reset counters): each seating
takes the player's seating lock before the table's lock and before it reads or writes anything."""

from __future__ import annotations

import threading
from typing import Any

import psycopg
import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from games.models import Seat
from games.runtime.locking import _SEATING_LOCK_CLASS
from games.services import seat_take, table_join_queue
from tests.tables.support import START, open_table, player, seat_at
from tests.waiting import until_it_waits_for_a_lock_or_ends


def _statements(capture: CaptureQueriesContext) -> list[str]:
    return [query["sql"] for query in capture.captured_queries]


def _first(statements: list[str], *needles: str) -> int:
    """The index of the first statement containing any of ``needles`` (the test fails if none does)."""
    found = [index for index, sql in enumerate(statements) if any(needle in sql for needle in needles)]
    assert found, f"no statement contains any of {needles}"
    return found[0]


def _first_lock_of(statements: list[str], table_name: str) -> int:
    found = [
        index
        for index, sql in enumerate(statements)
        if f'FROM "{table_name}"' in sql and ("FOR UPDATE" in sql or "FOR NO KEY UPDATE" in sql)
    ]
    assert found, f"{table_name} was never locked"
    return found[0]


@pytest.mark.django_db
def test_cash_28_seat_take_locks_the_player_before_the_table_and_before_any_write() -> None:
    table = open_table("banzai", "NL1")
    user = player()

    with CaptureQueriesContext(connection) as capture:
        seat_take(user, table, 100, now=START)

    statements = _statements(capture)
    player_lock = _first(statements, "pg_advisory_xact_lock")
    assert player_lock < _first_lock_of(statements, "games_table")
    assert player_lock < _first(statements, "INSERT", "UPDATE ")


@pytest.mark.django_db
def test_cash_04_the_seating_queue_locks_each_player_before_the_table_it_seats_them_at() -> None:
    table = open_table("holdem", "NL10")
    seat_at(table, {1: player(), 2: player(), 3: player()}, 1000)
    user = player()

    with CaptureQueriesContext(connection) as capture:
        table_join_queue(user, table.stake, 1000, now=START)

    statements = _statements(capture)
    player_lock = _first(statements, "pg_advisory_xact_lock")
    assert _first_lock_of(statements, "games_stake") < player_lock  # the stake's queue is locked first
    assert player_lock < _first_lock_of(statements, "games_table")
    assert player_lock < _first(statements, 'INSERT INTO "games_tablesession"')
    assert Seat.objects.get(user=user).table_id == table.pk


@pytest.mark.django_db(transaction=True)
def test_cash_28_a_seating_waits_while_another_seating_of_the_same_player_holds_the_lock() -> None:
    table = open_table("banzai", "NL1")
    user = player()
    settings = connection.settings_dict
    holder = psycopg.connect(
        dbname=settings["NAME"],
        user=settings["USER"],
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        password=settings["PASSWORD"] or None,
    )
    outcome: dict[str, Any] = {}

    def take_the_seat() -> None:
        try:
            outcome["seat"] = seat_take(user, table, 100, now=START)
        except Exception as error:  # reported to the test thread below
            outcome["error"] = error
        finally:
            connections.close_all()

    try:
        holder.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_SEATING_LOCK_CLASS, user.pk])
        seating = threading.Thread(target=take_the_seat)
        seating.start()
        until_it_waits_for_a_lock_or_ends(seating)
        assert seating.is_alive(), "the seating did not wait for the player's lock"
        assert not Seat.objects.filter(user=user).exists()
        holder.commit()  # the other seating ends: its lock goes with its transaction
        seating.join(timeout=20)
    finally:
        holder.close()

    assert not seating.is_alive()
    assert "error" not in outcome, outcome.get("error")
    assert Seat.objects.get(user=user).table_id == table.pk
