"""Every page, API call and socket connect finds its user through the session (issue 27: about 8 ms of a socket's
opening was the web process's own work, the session's user read among it). The user and the compliance standing that
may refuse them (FRD-18) are read with one statement compiled once per process: a warm process compiles no SQL for
it, and what it returns is what the ORM's query returns, a suspension included."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models.sql.compiler import SQLCompiler

from compliance.models import AccountStanding, Standing
from poker_site.accounts.backends import RateLimitedModelBackend
from tests.tables.support import player

pytestmark = pytest.mark.django_db


def test_a_warm_process_reads_a_sessions_user_and_standing_without_compiling_sql(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    backend = RateLimitedModelBackend()
    first, second = player(), player()
    assert backend.get_user(first.pk) == first  # the process's first read compiles
    compiled: list[str] = []
    original = SQLCompiler.as_sql

    def counting(self: SQLCompiler, *arguments: Any, **keywords: Any) -> Any:
        compiled.append(self.query.model.__name__ if self.query.model is not None else "?")
        return original(self, *arguments, **keywords)

    monkeypatch.setattr(SQLCompiler, "as_sql", counting)

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
