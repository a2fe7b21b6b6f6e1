"""Browser tests of tournaments: the live site with a Celery worker and beat (the tournaments' coordination, level
clocks and payouts run there), the browser fixtures of tests/browser, and the tournament changes announced to the
site's sockets for the tests that follow them live."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.browser.conftest import (
    CHROMIUM,
    MISSING_CHROMIUM,
    LiveSite,
    browser,
    chromium,
    flush_retried_after_a_deadlock,
    pages,
    site,
)
from tournaments import realtime as tournament_realtime

__all__ = ["browser", "chromium", "flush_retried_after_a_deadlock", "pages", "site"]

ANNOUNCE: Callable[[int], None] = tournament_realtime.tournament_changed
"""The real notice, taken before the tournament tests' autouse fixture silences it in the test process."""


@pytest.fixture(scope="package")
def live_site(django_db_setup: Any, django_db_blocker: Any) -> Iterator[LiveSite]:
    if not CHROMIUM.exists():
        pytest.fail(MISSING_CHROMIUM)
    running = LiveSite(celery=True)
    try:
        yield running
    finally:
        with django_db_blocker.unblock():
            running.stop()


@pytest.fixture
def notices_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    """The services a test calls announce their changes to the site's sockets, as the site's own processes do."""
    monkeypatch.setattr(tournament_realtime, "tournament_changed", ANNOUNCE)
