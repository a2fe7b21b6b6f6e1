"""Two sites on one Redis server that differ only in the Redis database number (``redis://host/1`` and
``redis://host/2``) must not hear each other: Redis pub/sub ignores the database number, and both used the default
key and channel prefix ``poker``, so one site's balance updates showed in the other site's header (QA finding).

Without ``REDIS_KEY_PREFIX`` the prefix is ``poker:<database name>:<redis db>``: different for two sites, the same
for every process of one site. An explicit ``REDIS_KEY_PREFIX`` (the test plugin's per-worker one) still wins.
The settings are read in a fresh interpreter, as each process of a site reads them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

READ_SETTINGS = """
import json
from poker_site import settings
print(json.dumps({
    "prefix": settings.REDIS_KEY_PREFIX,
    "cache": settings.CACHES["default"]["KEY_PREFIX"],
    "channels": settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"],
    "celery": settings.CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"],
}))
"""


def prefixes_of(database_url: str, redis_url: str, explicit_prefix: str | None = None) -> dict[str, str]:
    """The Redis prefixes a site process started with these settings uses (REDIS_KEY_PREFIX unset unless given)."""
    environment = {key: value for key, value in os.environ.items() if key != "REDIS_KEY_PREFIX"}
    environment.update({"DATABASE_URL": database_url, "REDIS_URL": redis_url, "ENVIRONMENT": "development"})
    if explicit_prefix is not None:
        environment["REDIS_KEY_PREFIX"] = explicit_prefix
    completed = subprocess.run(
        [sys.executable, "-c", READ_SETTINGS],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    result: dict[str, str] = json.loads(completed.stdout.strip().splitlines()[-1])
    return result


SITE_A = ("postgresql://postgres@127.0.0.1:5432/site_a", "redis://127.0.0.1:6379/1")


@pytest.mark.parametrize(
    "site_b",
    [
        ("postgresql://postgres@127.0.0.1:5432/site_b", "redis://127.0.0.1:6379/2"),
        ("postgresql://postgres@127.0.0.1:5432/site_a", "redis://127.0.0.1:6379/2"),
        ("postgresql://postgres@127.0.0.1:5432/site_b", "redis://127.0.0.1:6379/1"),
    ],
    ids=["other-database-and-redis-db", "other-redis-db", "other-database"],
)
def test_two_sites_with_different_settings_publish_and_subscribe_under_different_prefixes(
    site_b: tuple[str, str],
) -> None:
    a, b = prefixes_of(*SITE_A), prefixes_of(*site_b)

    assert a["prefix"] != b["prefix"]
    for name in ("cache", "channels", "celery"):
        assert b[name] != a[name], name
        assert not b[name].startswith(f"{a['prefix']}:"), name


def test_the_prefix_names_the_database_and_the_redis_db_number() -> None:
    assert prefixes_of(*SITE_A)["prefix"] == "poker:site_a:1"
    assert prefixes_of("postgresql://postgres@127.0.0.1:5432/site_a", "redis://127.0.0.1:6379")["prefix"] == (
        "poker:site_a:0"
    )


def test_every_process_of_one_site_gets_the_same_prefix_everywhere() -> None:
    first, second = prefixes_of(*SITE_A), prefixes_of(*SITE_A)

    assert first == second
    assert first == {
        "prefix": "poker:site_a:1",
        "cache": "poker:site_a:1",
        "channels": "poker:site_a:1:channels",
        "celery": "poker:site_a:1:celery:",
    }


def test_an_explicit_prefix_is_kept_as_given_and_the_derived_one_is_the_sites_own() -> None:
    assert prefixes_of(*SITE_A, explicit_prefix="test-123-gw0")["prefix"] == "test-123-gw0"
    assert prefixes_of(*SITE_A)["prefix"] == "poker:site_a:1"
