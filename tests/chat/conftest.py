"""Fixtures for the chat tests: the cash tables' fixtures (catalogue seeded, realtime quiet) and a clean Redis
namespace, since the chat's rate limit and warnings are counted there."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import delete_redis_keys_of_this_run
from tests.tables.conftest import announcements, catalogue, presence_unknown, quiet_realtime

__all__ = ["announcements", "catalogue", "presence_unknown", "quiet_realtime"]


@pytest.fixture(autouse=True)
def chat_counters_empty(db: Any) -> Iterator[None]:
    """Every test starts with no chat counted in Redis (rate windows, warnings)."""
    delete_redis_keys_of_this_run()
    yield
    delete_redis_keys_of_this_run()
