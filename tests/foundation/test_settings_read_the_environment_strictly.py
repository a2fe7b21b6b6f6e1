"""Settings come from the environment through strict typed helpers; production refuses unsafe defaults."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

from poker_site import env
from poker_site.embedded import PROJECT_DIRECTORY


def test_a_boolean_accepts_the_usual_words_and_refuses_anything_else(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLAG", "Yes")
    assert env.boolean("FLAG", default=False) is True
    monkeypatch.setenv("FLAG", "off")
    assert env.boolean("FLAG", default=True) is False
    monkeypatch.setenv("FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="FLAG must be a boolean"):
        env.boolean("FLAG", default=False)


def test_an_integer_must_be_a_whole_number_within_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COUNT", "12")
    assert env.integer("COUNT", 1, minimum=1, maximum=20) == 12
    monkeypatch.setenv("COUNT", "1.5")
    with pytest.raises(ImproperlyConfigured, match="whole number"):
        env.integer("COUNT", 1)
    monkeypatch.setenv("COUNT", "0")
    with pytest.raises(ImproperlyConfigured, match="at least 1"):
        env.integer("COUNT", 1, minimum=1)


def test_a_required_string_names_the_missing_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOT_THERE", raising=False)
    with pytest.raises(ImproperlyConfigured, match="NOT_THERE must be set"):
        env.string("NOT_THERE")


def test_a_list_is_comma_separated_and_ignores_blanks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOSTS", "a.example, b.example,,")
    assert env.string_list("HOSTS", []) == ["a.example", "b.example"]


def test_a_database_url_is_parsed_including_a_socket_directory() -> None:
    address = env.database_address("postgresql://postgres:secret@db.internal:6543/poker")
    assert (address.user, address.password, address.host, address.port, address.name) == (
        "postgres",
        "secret",
        "db.internal",
        "6543",
        "poker",
    )
    socket_address = env.database_address("postgresql://postgres:@/poker?host=/srv/var/postgres")
    assert socket_address.host == "/srv/var/postgres"
    with pytest.raises(ImproperlyConfigured, match="postgresql://"):
        env.database_address("sqlite:///db.sqlite3")


def _import_settings_with(**variables: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, **variables}
    return subprocess.run(
        [sys.executable, "-c", "import django; from django.conf import settings; settings.INSTALLED_APPS"],
        cwd=PROJECT_DIRECTORY,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_refuses_to_start_with_the_default_secret_key() -> None:
    environment = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    environment.update(ENVIRONMENT="production", DEBUG="false", DJANGO_SETTINGS_MODULE="poker_site.settings")
    result = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; settings.INSTALLED_APPS"],
        cwd=PROJECT_DIRECTORY,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_refuses_to_start_with_debug_on() -> None:
    result = _import_settings_with(
        ENVIRONMENT="production", DEBUG="true", SECRET_KEY="x" * 50, DJANGO_SETTINGS_MODULE="poker_site.settings"
    )
    assert result.returncode != 0
    assert "DEBUG must be off" in result.stderr


def test_production_starts_with_a_real_secret_and_debug_off() -> None:
    result = _import_settings_with(
        ENVIRONMENT="production", DEBUG="false", SECRET_KEY="x" * 50, DJANGO_SETTINGS_MODULE="poker_site.settings"
    )
    assert result.returncode == 0, result.stderr
