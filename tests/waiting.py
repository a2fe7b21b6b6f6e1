"""Waiting on what a test needs (a database state, another session's lock wait), never for a fixed time.

The timeouts are generous on purpose: only a real fault reaches them, never a loaded machine (issue 26).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

GENEROUS_SECONDS = 60.0


def eventually(
    condition: Callable[[], T], *, what: str, timeout: float = GENEROUS_SECONDS, interval: float = 0.05
) -> T:
    """Poll ``condition`` until it returns something truthy, and return that; fail naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"{what}: not within {timeout:.0f} s"
        time.sleep(interval)


def sessions_waiting_for_a_lock() -> int:
    """How many other sessions of this test database wait for a lock now (a row, a table or an advisory lock)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
        )
        (waiting,) = cursor.fetchone()
    return int(waiting)


def until_it_waits_for_a_lock_or_ends(thread: threading.Thread, *, timeout: float = GENEROUS_SECONDS) -> None:
    """Return once ``thread``'s database session waits for a lock, or ``thread`` has ended (the test's assertions then
    tell which). Instead of sleeping "long enough" for it to reach the lock."""
    eventually(
        lambda: not thread.is_alive() or sessions_waiting_for_a_lock() > 0,
        what="the thread neither waited for a lock nor ended",
        timeout=timeout,
    )
