"""Fixtures for the responsible-gaming tests: no realtime publishing, the sockets' presence unknown."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def quiet_realtime(monkeypatch: pytest.MonkeyPatch) -> None:
    """Service tests do not publish to Redis or queue Celery tasks."""
    from games.runtime import presence, realtime
    from tournaments import realtime as tournament_realtime
    from tournaments import tasks

    monkeypatch.setattr(realtime, "table_events_committed", lambda *args: None)
    monkeypatch.setattr(realtime, "lobby_table_changed", lambda *args: None)
    monkeypatch.setattr(tournament_realtime, "tournament_changed", lambda *args: None)
    monkeypatch.setattr(tasks, "tournament_coordinate_later", lambda *args: None)
    monkeypatch.setattr(tasks, "entry_prize_credit_later", lambda *args: None)
    monkeypatch.setattr(presence, "has_live_socket", lambda user_id, table_id: None)
