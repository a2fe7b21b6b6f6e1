"""A player already seated at a cash table — playing or sitting out — who asks for the same stake again
(``POST /api/games/stakes/<id>/queue/``, as the lobby's join does) is never told that a table with free seats is full
(QA report G, finding 10). CASH-09 lets a player sit at several tables of a stake (CASH-28: up to four Banzai ones),
so the request still waits for another table (CASH-04/05), but its message names the table where they already sit;
they are never given a second seat at that table. With another open table of the stake that is full, the message
says that one is full.

Requirement IDs: CASH-04, CASH-05, CASH-09, CASH-16 (sitting out keeps the seat)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.models import Seat, SeatingRequest
from games.services import seat_sit_out
from tests.tables.support import START, open_table, player, seat_players

pytestmark = pytest.mark.django_db


def ask_for_the_stake(user: Any, stake_id: int) -> dict[str, Any]:
    client = Client()
    client.force_login(user)
    response = client.post(
        f"/api/games/stakes/{stake_id}/queue/", data=json.dumps({"buy_in": 1000}), content_type="application/json"
    )
    assert response.status_code == 200, response.content
    answer: dict[str, Any] = response.json()
    return answer


def test_a_seated_player_is_told_they_already_sit_at_the_only_open_table_not_that_it_is_full() -> None:
    table = open_table("holdem", "NL10")
    alice, bob, carol = player(), player(), player()
    seat_players(table, [alice, bob, carol], 1000)
    assert Seat.objects.filter(table=table, session__isnull=False).count() < table.seat_count  # free seats

    answer = ask_for_the_stake(alice, table.stake_id)

    assert answer["status"] == "waiting"
    assert answer["message"].startswith(f"You already sit at {table.name}, the only open {table.stake} table")
    assert "full" not in answer["message"]
    assert Seat.objects.filter(table=table, user=alice).count() == 1  # never a second seat at the same table
    stored = SeatingRequest.objects.get(user=alice, stake=table.stake, status="waiting")
    assert stored.message.startswith(f"You already sit at {table.name}")


def test_a_player_sitting_out_at_the_table_is_told_the_same() -> None:
    table = open_table("holdem", "NL10")
    alice, bob, carol = player(), player(), player()
    seat_players(table, [alice, bob, carol], 1000)
    seat_sit_out(bob, table, now=START)

    answer = ask_for_the_stake(bob, table.stake_id)

    assert answer["status"] == "waiting"
    assert answer["message"].startswith(f"You already sit at {table.name}")
    assert "full" not in answer["message"]
    assert Seat.objects.filter(table=table, user=bob).count() == 1


def test_another_open_table_of_the_stake_that_is_full_is_called_full_and_the_players_own_is_named() -> None:
    table = open_table("holdem", "NL10")
    alice = player()
    seat_players(table, [alice, player(), player()], 1000)
    full = open_table("holdem", "NL10")
    seat_players(full, [player() for _ in range(full.seat_count)], 1000)

    answer = ask_for_the_stake(alice, table.stake_id)

    assert answer["status"] == "waiting"
    assert answer["message"].startswith(f"You already sit at {table.name}; the other open {table.stake} table is full.")
    assert Seat.objects.filter(user=alice).count() == 1


def test_a_player_seated_nowhere_still_hears_that_the_tables_are_full() -> None:
    table = open_table("holdem", "NL10")
    seat_players(table, [player() for _ in range(table.seat_count)], 1000)

    answer = ask_for_the_stake(player(), table.stake_id)

    assert answer["status"] == "waiting"
    assert answer["message"].startswith(f"The only open {table.stake} table is full.")
