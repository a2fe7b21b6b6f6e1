"""Embedded servers are shared by every process of a checkout; the last one to leave stops them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
import redis

from poker_site.embedded import PROJECT_DIRECTORY

pytestmark = pytest.mark.slow

USER_SCRIPT = """
import sys
from poker_site.embedded import embedded_services
with embedded_services() as services:
    print(services["DATABASE_URL"], services["REDIS_URL"], flush=True)
    sys.stdin.readline()
print("left", flush=True)
"""


@pytest.fixture
def variable_directory() -> Iterator[Path]:
    directory = Path(tempfile.mkdtemp(prefix="poker-shared-"))
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


def start_user(variable_directory: Path) -> tuple[subprocess.Popen[str], str, str]:
    environment = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL"}}
    environment["POKER_VAR_DIR"] = str(variable_directory)
    process = subprocess.Popen(
        [sys.executable, "-c", USER_SCRIPT],
        cwd=PROJECT_DIRECTORY,
        env=environment,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    database_url, redis_url = process.stdout.readline().split()
    return process, database_url, redis_url


def leave(process: subprocess.Popen[str]) -> None:
    output, _ = process.communicate("\n", timeout=60)
    assert "left" in output
    assert process.returncode == 0


def services_answer(database_url: str, redis_url: str) -> tuple[bool, bool]:
    try:
        psycopg.connect(database_url, connect_timeout=3).close()
        database = True
    except psycopg.OperationalError:
        database = False
    try:
        cache = bool(redis.Redis.from_url(redis_url, socket_connect_timeout=1).ping())
    except redis.RedisError:
        cache = False
    return database, cache


def test_the_first_user_leaving_does_not_stop_the_servers_under_the_second(variable_directory: Path) -> None:
    first, database_url, redis_url = start_user(variable_directory)
    second, second_database_url, second_redis_url = start_user(variable_directory)
    assert (second_database_url, second_redis_url) == (database_url, redis_url)

    leave(first)
    assert services_answer(database_url, redis_url) == (True, True)

    leave(second)
    assert services_answer(database_url, redis_url) == (False, False)


def test_a_user_killed_without_leaving_does_not_keep_the_servers_alive(variable_directory: Path) -> None:
    crashed, database_url, redis_url = start_user(variable_directory)
    crashed.kill()
    crashed.wait()
    survivor, _, _ = start_user(variable_directory)
    leave(survivor)
    assert services_answer(database_url, redis_url) == (False, False)
