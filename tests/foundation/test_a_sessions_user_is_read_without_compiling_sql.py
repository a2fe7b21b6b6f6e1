"""Every page, API call and socket connect reads its session and finds its user through it (issue 27: about 8 ms of
a socket's opening was the web process's own work, the session and user reads among it). The session row, and the
user with the compliance standing that may refuse them (FRD-18), are each read with one statement compiled once per
process: a warm process compiles no SQL for them, and what they return is what the ORM's queries return, an expired
session and a suspension included."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from compliance.models import AccountStanding, Standing
from poker_site.accounts.backends import RateLimitedModelBackend
from poker_site.accounts.sessions import SessionStore
from tests.compilations import compilations_counted
from tests.tables.support import player

pytestmark = pytest.mark.django_db


def stored_session(data: dict[str, Any]) -> str:
    store = SessionStore()
    store.update(data)
    store.create()
    assert store.session_key is not None
    return store.session_key


def test_the_site_reads_its_sessions_with_its_own_engine() -> None:
    assert settings.SESSION_ENGINE == "poker_site.accounts.sessions"


def test_a_warm_process_reads_a_session_without_compiling_sql(monkeypatch: pytest.MonkeyPatch) -> None:
    SessionStore(stored_session({"warm": 1})).load()  # the process's first read compiles
    key = stored_session({"player": 41, "language": "et"})
    compiled = compilations_counted(monkeypatch)

    loaded = SessionStore(key).load()
    missing = SessionStore("x" * 32)

    assert compiled == []
    assert loaded == {"player": 41, "language": "et"}
    assert missing.load() == {}
    assert missing.session_key is None


def test_an_expired_session_reads_as_empty_and_its_key_is_forgotten() -> None:
    key = stored_session({"player": 41})
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    store = SessionStore(key)

    assert store.load() == {}
    assert store.session_key is None


def test_a_logged_in_player_stays_logged_in_from_one_request_to_the_next() -> None:
    client = Client()
    user = player()
    client.force_login(user)

    assert client.get("/").wsgi_request.user == user
    assert client.get("/").wsgi_request.user == user
    client.logout()
    assert not client.get("/").wsgi_request.user.is_authenticated


def test_a_warm_process_reads_a_sessions_user_and_standing_without_compiling_sql(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    backend = RateLimitedModelBackend()
    first, second = player(), player()
    assert backend.get_user(first.pk) == first  # the process's first read compiles
    compiled = compilations_counted(monkeypatch)

    found = backend.get_user(second.pk)
    missing = backend.get_user(second.pk + 1_000_000)

    assert compiled == []
    assert found is not None
    assert (found.pk, found.username, found.is_active) == (second.pk, second.username, True)
    assert found.sign_in_blocked is False
    assert missing is None


@pytest.mark.parametrize("state", [Standing.SUSPENDED, Standing.TERMINATED])
def test_a_suspended_or_terminated_players_session_finds_nobody(state: str) -> None:
    backend = RateLimitedModelBackend()
    user = player()
    assert backend.get_user(user.pk) == user
    AccountStanding.objects.update_or_create(user=user, defaults={"state": state, "reason": "Review."})

    assert backend.get_user(user.pk) is None


@pytest.mark.parametrize("key", ["not-a-number", None, "12.5"])
def test_a_session_key_that_is_not_a_number_finds_nobody(key: object) -> None:
    assert RateLimitedModelBackend().get_user(key) is None
