"""HEX-07: every player of a HexaPro game sees the multiplier reveal, so the game does not deal its first hand until
every player has the table open (their socket's presence in Redis) or the arrival window has passed; then the absent
are dealt in sitting out (TRN-04). Issue 27: a game dealt five hands before its players' pages had arrived."""

from __future__ import annotations

import random
import time
from datetime import timedelta
from typing import Any

import pytest

from games.models import SeatStatus, Table
from games.runtime import presence
from games.services import hand_start
from poker_site.core.redis_clients import blocking_client
from tests.tournaments.hexapro_support import three_players_register
from tests.tournaments.support import START, open_tables, running_hand
from tournaments.table_policy import arrivals_awaited

pytestmark = pytest.mark.django_db

FIRST_DEAL = START + timedelta(seconds=10)


@pytest.fixture
def presence_in_redis(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Any:
    """The sockets' real presence records in Redis (none until the test opens a table for a player), and a 15 s
    arrival window."""
    settings.HEXAPRO_ARRIVAL_WINDOW_SECONDS = 15
    monkeypatch.setattr(presence, "has_live_socket", presence.cash_table_presence.has_live_socket)
    keys: list[str] = []

    def open_table_for(user: Any, table: Table) -> None:
        key = presence.cash_table_presence.key(user.pk, table.pk)
        keys.append(key)
        blocking_client().zadd(key, {f"socket-of-{user.pk}": time.time()})

    yield open_table_for
    if keys:
        blocking_client().delete(*keys)


def _deal(table: Table, now: Any) -> Any:
    return hand_start(table, now=now, shuffler=random.Random(1))


def test_hex_07_the_first_hand_waits_until_every_player_has_the_table_open(presence_in_redis: Any) -> None:
    users, game = three_players_register(1_000, multiplier=30)
    (table,) = open_tables(game.tournament)

    presence_in_redis(users[0], table)
    presence_in_redis(users[1], table)
    assert _deal(table, FIRST_DEAL) is None  # the third player's page has not arrived
    table.refresh_from_db()
    assert table.next_hand_at == FIRST_DEAL + timedelta(seconds=1)  # the ticker asks again in a second
    assert table.hands_played == 0

    presence_in_redis(users[2], table)
    hand = _deal(table, FIRST_DEAL + timedelta(seconds=1))
    assert hand is not None
    assert running_hand(table) == hand
    assert sorted(player.user_id for player in hand.players.all()) == sorted(user.pk for user in users)
    assert {seat.status for seat in table.seats.filter(user__isnull=False)} == {SeatStatus.PLAYING}


def test_hex_07_after_the_arrival_window_the_first_hand_is_dealt_and_the_absent_sit_out(presence_in_redis: Any) -> None:
    users, game = three_players_register(1_000, multiplier=30)
    (table,) = open_tables(game.tournament)
    presence_in_redis(users[0], table)
    presence_in_redis(users[1], table)

    assert _deal(table, START + timedelta(seconds=14)) is None
    table.refresh_from_db()
    assert table.next_hand_at == START + timedelta(seconds=15)  # never later than the window's end

    hand = _deal(table, START + timedelta(seconds=15))
    assert hand is not None
    absent = table.seats.get(user=users[2])
    assert absent.status == SeatStatus.SITTING_OUT  # TRN-04: dealt in sitting out until their socket arrives


def test_hex_07_later_hands_do_not_wait_for_anyone(presence_in_redis: Any) -> None:
    users, game = three_players_register(1_000, multiplier=30)
    (table,) = open_tables(game.tournament)
    for user in users:
        presence_in_redis(user, table)
    assert _deal(table, FIRST_DEAL) is not None
    table.refresh_from_db()
    assert table.hands_played == 1
    blocking_client().delete(*(presence.cash_table_presence.key(user.pk, table.pk) for user in users))
    # Every page closed after the first hand: the gate is for the first deal only (a disconnection has its own
    # clocks, HEX-16), so the policy asks for no retry on that account.
    assert (
        arrivals_awaited(game.tournament, table, {seat.number: seat for seat in table.seats.all()}, FIRST_DEAL) is None
    )


def test_hex_07_with_absent_players_counted_as_present_nothing_waits(presence_in_redis: Any, settings: Any) -> None:
    """``TOURNAMENT_SITS_OUT_ABSENT_PLAYERS`` off (benchmarks whose bots play without sockets): no one is absent."""
    settings.TOURNAMENT_SITS_OUT_ABSENT_PLAYERS = False
    _users, game = three_players_register(1_000, multiplier=30)
    (table,) = open_tables(game.tournament)
    assert _deal(table, FIRST_DEAL) is not None
