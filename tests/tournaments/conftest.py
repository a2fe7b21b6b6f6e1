"""Fixtures for the tournament tests: no realtime publishing, the sockets' presence unknown (players count as there)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def quiet_realtime(monkeypatch: pytest.MonkeyPatch) -> None:
    """Service tests do not publish to Redis or queue Celery tasks; they drive the coordinator themselves."""
    from games.runtime import realtime
    from tournaments import realtime as tournament_realtime
    from tournaments import tasks

    monkeypatch.setattr(realtime, "table_events_committed", lambda *args: None)
    monkeypatch.setattr(realtime, "lobby_table_changed", lambda *args: None)
    monkeypatch.setattr(tournament_realtime, "tournament_changed", lambda *args: None)
    monkeypatch.setattr(tasks, "tournament_coordinate_later", lambda *args: None)
    monkeypatch.setattr(tasks, "entry_prize_credit_later", lambda *args: None)


@pytest.fixture(autouse=True)
def presence_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    from games.runtime import presence

    monkeypatch.setattr(presence, "has_live_socket", lambda user_id, table_id: None)


@pytest.fixture
def absent_everywhere(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Nobody has a socket open (TRN-04: registrants who are not logged in)."""
    from games.runtime import presence

    monkeypatch.setattr(presence, "has_live_socket", lambda user_id, table_id: False)


@pytest.fixture
def in_english() -> Any:
    """The services' translated refusals in English, whatever language an earlier test's request left active in this
    thread (the Estonian page tests activate Estonian)."""
    from django.utils import translation

    with translation.override("en"):
        yield
