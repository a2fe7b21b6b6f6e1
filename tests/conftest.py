"""Test-wide set-up: every pytest run gets its own test database and Redis key prefix.

Several runs may share one PostgreSQL and Redis (developers in parallel, CI beside a running site),
so names carry the process id. The launcher (``make test``) provides DATABASE_URL and REDIS_URL.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def every_test_starts_in_english() -> Iterator[None]:
    """A request in Estonian leaves Estonian active in the thread (the locale middleware does not switch back), and
    so does a test that activates it: each test starts, and leaves, in the site's default language."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(scope="session")
def django_db_modify_db_settings() -> None:
    from django.conf import settings

    settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = f"test_poker_{os.getpid()}"
    # The test process connects without the pool (pytest-django reads the settings before this file sets
    # ENVIRONMENT=test, so they may have one): Django's test database set-up and the socket tests' worker threads
    # keep their plain connections. The site processes the tests start (tests/realtime/live_site.py) use the pool.
    settings.DATABASES["default"]["OPTIONS"].pop("pool", None)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """pytest-django's test database, whose drop at the end of the run no longer fails for connections left open.

    Socket tests run their database calls in the worker threads of an event loop made for the test; those threads'
    connections stay open after the loop closes, so the DROP DATABASE at the end of the run was refused ("being
    accessed by other users") and the ``test_poker_<pid>`` database stayed on the server. Before pytest-django drops
    it, this run's other sessions on its own test database are ended."""
    yield
    with django_db_blocker.unblock():
        end_other_sessions_of_the_test_database()


def end_other_sessions_of_the_test_database() -> None:
    from django.db import connection

    if not str(connection.settings_dict["NAME"]).startswith("test_poker_"):
        return  # never end sessions of a database this run did not create
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def site_database_url() -> str:
    """A DATABASE_URL for the test database, for site processes the tests start (TCP or a socket directory)."""
    from urllib.parse import quote

    from django.db import connection

    database = connection.settings_dict
    credentials = quote(str(database.get("USER") or "postgres"))
    if database.get("PASSWORD"):
        credentials += ":" + quote(str(database["PASSWORD"]))
    host = str(database.get("HOST") or "127.0.0.1")
    if host.startswith("/"):
        return f"postgresql://{credentials}@/{quote(str(database['NAME']))}?host={quote(host)}"
    return f"postgresql://{credentials}@{host}:{database.get('PORT') or 5432}/{quote(str(database['NAME']))}"


def delete_redis_keys_of_this_run() -> None:
    """Delete this run's keys only (this xdist worker's); FLUSHDB would also wipe other runs and a running site. Every
    key is ``<prefix>:...``, and the colon keeps worker ``gw1`` off the keys of ``gw10``."""
    import redis
    from django.conf import settings

    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        keys = list(client.scan_iter(match=f"{settings.REDIS_KEY_PREFIX}:*", count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@pytest.fixture
def clean_cache() -> Iterator[None]:
    """An empty cache namespace for the test (log-in counters and throttles live there)."""
    delete_redis_keys_of_this_run()
    yield
    delete_redis_keys_of_this_run()
