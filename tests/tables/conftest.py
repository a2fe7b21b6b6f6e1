"""Fixtures for the cash-table tests: the catalogue seeded, and the realtime announcements recorded."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games.services import seed_stakes


@pytest.fixture(autouse=True)
def catalogue(db: Any) -> None:
    """The seeded catalogue (transactional tests flush the data migration's rows, so seed again)."""
    seed_stakes()


@pytest.fixture
def announcements(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """Record what the services tell ``games.runtime.realtime`` after commit instead of publishing it."""
    from games.runtime import realtime

    calls: list[tuple[Any, ...]] = []

    def events_committed(table_id: int, first: int, last: int, rows: Any = None) -> None:
        # The committed rows come along (no read-back); they must be exactly the announced range.
        assert rows is None or [row.sequence for row in rows] == list(range(first, last + 1))
        calls.append(("events", table_id, first, last))

    monkeypatch.setattr(realtime, "table_events_committed", events_committed)
    monkeypatch.setattr(realtime, "lobby_table_changed", lambda *args: calls.append(("lobby", *args)))
    return calls


@pytest.fixture(autouse=True)
def quiet_realtime(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests of the domain do not publish to Redis (the realtime tests cover publishing)."""
    from games.runtime import realtime

    monkeypatch.setattr(realtime, "table_events_committed", lambda *args: None)
    monkeypatch.setattr(realtime, "lobby_table_changed", lambda *args: None)


@pytest.fixture(autouse=True)
def presence_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    """The domain tests play without sockets: the sockets' presence is unknown (as when Redis cannot say), so the
    clock goes by the connection reports (``player_connection_lost`` / ``player_connection_restored``) unless a test
    asks for the real presence (``presence_from_redis``)."""
    from games.runtime import presence

    monkeypatch.setattr(presence, "has_live_socket", lambda user_id, table_id: None)


@pytest.fixture
def presence_from_redis(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The sockets' real presence records in Redis (none unless the test adds one)."""
    from games.runtime import presence

    monkeypatch.setattr(presence, "has_live_socket", presence.cash_table_presence.has_live_socket)
    return presence.cash_table_presence


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Both paths read the same time: the services that default to ``timezone.now()`` and the actor's messages."""
    from django.utils import timezone

    from tests.tables.command_twins import Clock
    from tests.tables.support import START

    moment = Clock(START + timedelta(minutes=1))
    monkeypatch.setattr(timezone, "now", lambda: moment.now)
    return moment


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the hand-log replays the services make (the hand ids), for the engine-state cache tests."""
    from games.runtime import engine_state

    calls: list[int] = []
    original = engine_state.hand_engine_state

    def counting(hand: Any) -> Any:
        calls.append(hand.pk)
        return original(hand)

    monkeypatch.setattr(engine_state, "hand_engine_state", counting)
    return calls


@pytest.fixture
def four_players_dealt_in() -> Any:
    """A NL10 hold'em table with four players of 1,000 each and a hand dealt (seed 5)."""
    from tests.tables.support import deal, open_table, player, seat_players

    table = open_table("holdem", "NL10")
    seat_players(table, [player() for _ in range(4)], 1_000)
    deal(table, seed=5)
    return table


@pytest.fixture
def quiet_tournament_realtime(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tournament tables without their realtime side: no lobby announcements, no coordination or prize tasks queued
    (the tests drive the tables themselves)."""
    from tournaments import realtime as tournament_realtime
    from tournaments import tasks

    monkeypatch.setattr(tournament_realtime, "tournament_changed", lambda *args: None)
    monkeypatch.setattr(tasks, "tournament_coordinate_later", lambda *args: None)
    monkeypatch.setattr(tasks, "entry_prize_credit_later", lambda *args: None)
