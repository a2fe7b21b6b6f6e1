"""DATABASE_POOL and its bounds come from the environment strictly; the pool keeps the prepared-statement options and
refuses persistent connections (CONN_MAX_AGE), which Django cannot combine with it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

from poker_site import env
from poker_site.embedded import PROJECT_DIRECTORY

POOL_VARIABLES = (
    "DATABASE_POOL",
    "DATABASE_POOL_MIN_SIZE",
    "DATABASE_POOL_MAX_SIZE",
    "DATABASE_POOL_TIMEOUT",
    "DATABASE_POOL_MAX_WAITING",
)


@pytest.fixture
def clean_pool_environment(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in POOL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_the_pool_has_bounded_defaults_and_can_be_turned_off(clean_pool_environment: pytest.MonkeyPatch) -> None:
    pool = env.database_pool(enabled_by_default=True)
    assert pool is not None
    assert pool.options() == {"min_size": 2, "max_size": 10, "timeout": 3.0, "max_waiting": 0}
    assert env.database_pool(enabled_by_default=False) is None
    clean_pool_environment.setenv("DATABASE_POOL", "off")
    assert env.database_pool(enabled_by_default=True) is None


def test_pool_bounds_are_checked(clean_pool_environment: pytest.MonkeyPatch) -> None:
    clean_pool_environment.setenv("DATABASE_POOL_MIN_SIZE", "8")
    clean_pool_environment.setenv("DATABASE_POOL_MAX_SIZE", "4")
    with pytest.raises(ImproperlyConfigured, match=r"DATABASE_POOL_MAX_SIZE \(4\) must be at least"):
        env.database_pool(enabled_by_default=True)
    clean_pool_environment.setenv("DATABASE_POOL_MIN_SIZE", "1")
    clean_pool_environment.setenv("DATABASE_POOL_TIMEOUT", "soon")
    with pytest.raises(ImproperlyConfigured, match="DATABASE_POOL_TIMEOUT must be a number"):
        env.database_pool(enabled_by_default=True)
    clean_pool_environment.setenv("DATABASE_POOL_TIMEOUT", "0")
    with pytest.raises(ImproperlyConfigured, match=r"DATABASE_POOL_TIMEOUT must be at least 0\.05"):
        env.database_pool(enabled_by_default=True)
    clean_pool_environment.setenv("DATABASE_POOL_TIMEOUT", "nan")
    with pytest.raises(ImproperlyConfigured, match="finite"):
        env.database_pool(enabled_by_default=True)


def database_settings(**variables: str) -> subprocess.CompletedProcess[str]:
    environment = {name: value for name, value in os.environ.items() if not name.startswith("DATABASE_POOL")}
    environment.pop("DATABASE_CONN_MAX_AGE", None)
    environment.update(variables)
    return subprocess.run(
        [sys.executable, "-c", "from poker_site import settings; print(settings.DATABASES['default'])"],
        cwd=PROJECT_DIRECTORY,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_pooled_settings_keep_prepared_statements_and_refuse_conn_max_age() -> None:
    pooled = database_settings(ENVIRONMENT="development", DATABASE_POOL_MAX_SIZE="7")
    assert pooled.returncode == 0, pooled.stderr
    assert "'pool': {'min_size': 2, 'max_size': 7, 'timeout': 3.0, 'max_waiting': 0}" in pooled.stdout
    assert "'server_side_binding': True, 'prepare_threshold': 5" in pooled.stdout
    assert "'CONN_MAX_AGE': 0" in pooled.stdout

    refused = database_settings(ENVIRONMENT="development", DATABASE_CONN_MAX_AGE="60")
    assert refused.returncode != 0
    assert "DATABASE_CONN_MAX_AGE must be 0 while DATABASE_POOL is on" in refused.stderr

    unpooled = database_settings(ENVIRONMENT="development", DATABASE_POOL="off", DATABASE_CONN_MAX_AGE="60")
    assert unpooled.returncode == 0, unpooled.stderr
    assert "'pool'" not in unpooled.stdout
    assert "'CONN_MAX_AGE': 60" in unpooled.stdout
