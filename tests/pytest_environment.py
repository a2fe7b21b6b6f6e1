"""Loaded by ``-p tests.pytest_environment`` (pyproject's addopts) before pytest-django imports the settings, so the
settings of the test process see ENVIRONMENT=test and a Redis key prefix of this run's own: several runs may share one
Redis (developers in parallel, CI beside a running site) and must not read each other's keys (log-in counters, presence,
channel groups). ``tests/conftest.py`` comes too late for that: pytest-django reads the settings first."""

from __future__ import annotations

import os

os.environ.setdefault("ENVIRONMENT", "test")
os.environ.setdefault("REDIS_KEY_PREFIX", f"test-{os.getpid()}")
