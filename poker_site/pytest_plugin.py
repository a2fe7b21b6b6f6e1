"""The test run's environment, loaded by ``-p poker_site.pytest_plugin`` (pyproject's addopts) before pytest-django
imports the settings.

It lives in the installed package, not under ``tests/``, so that ``.venv/bin/pytest`` finds it as well as ``python -m
pytest`` (which alone puts the checkout on ``sys.path``); pytest imports ``-p`` plugins before any ``pythonpath``
setting applies.

- ENVIRONMENT=test, and a Redis key prefix of this run's own: several runs may share one Redis (developers in
  parallel, CI beside a running site) and must not read each other's keys (log-in counters, presence, channel groups,
  Celery queues). Under pytest-xdist each worker appends its id (``test-<pid>-gw0``): the workers inherit the
  controller's environment, and two workers sharing a prefix would share channel groups and Celery queues, and
  delete each other's keys between tests.
- PostgreSQL and Redis: when DATABASE_URL / REDIS_URL are unset, the embedded servers start (or are joined, see
  :mod:`poker_site.embedded`) before the settings are read, and are left when the run ends, as ``make test`` does.
  xdist workers inherit the URLs from the controller, so only the controller starts anything.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Generator

import pytest


def worker_key_prefix(run_prefix: str, worker: str | None) -> str:
    """The Redis key prefix of xdist worker ``worker`` (None: not a worker) in the run prefixed ``run_prefix``."""
    if not worker or run_prefix.endswith(f"-{worker}"):
        return run_prefix
    return f"{run_prefix}-{worker}"


os.environ.setdefault("ENVIRONMENT", "test")
os.environ["REDIS_KEY_PREFIX"] = worker_key_prefix(
    os.environ.setdefault("REDIS_KEY_PREFIX", f"test-{os.getpid()}"), os.environ.get("PYTEST_XDIST_WORKER")
)


@pytest.hookimpl(wrapper=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> Generator[None, None, None]:
    """Provide the servers before pytest-django (in this same hook) imports the settings, which require both URLs."""
    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        from poker_site.embedded import embedded_services

        services = contextlib.ExitStack()
        services.enter_context(embedded_services())
        early_config.add_cleanup(services.close)
    return (yield)
