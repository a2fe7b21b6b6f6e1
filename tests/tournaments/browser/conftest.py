"""Browser tests of tournaments: the live site with a Celery worker and beat (the tournaments' coordination, level
clocks and payouts run there), and the browser fixtures of tests/browser."""

from __future__ import annotations

from collections.abc import Iterator
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

__all__ = ["browser", "chromium", "flush_retried_after_a_deadlock", "pages", "site"]


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
