"""A username belongs to one account whatever its case, so the name a player types finds their account however they
type it: "PAT" logs in to "Pat". Before, log-in compared in exact case, while the log-in lock already counted "Pat" and
"pat" as one name; a wrong password in another case still counts on that one lock."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user
from django.test import Client

from poker_site.accounts.models import User
from tests.accounts.support import PASSWORD, player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

LOG_IN = "/accounts/log-in/"


@pytest.mark.parametrize("typed", ["Pat", "pat", "PAT"])
def test_a_player_logs_in_with_their_username_in_any_case(typed: str) -> None:
    pat = player("Pat")
    client = Client()

    answer = client.post(LOG_IN, {"username": typed, "password": PASSWORD})

    assert answer.status_code == 302
    assert get_user(client).pk == pat.pk


def test_a_name_no_account_has_in_any_case_logs_nobody_in() -> None:
    player("Pat")
    client = Client()

    answer = client.post(LOG_IN, {"username": "Patricia", "password": PASSWORD})

    assert answer.status_code == 200
    assert not get_user(client).is_authenticated


def test_wrong_passwords_in_every_case_count_on_the_one_accounts_lock(settings: Any) -> None:
    player("Pat")
    settings.LOGIN_FAILURE_LIMIT = 5
    client = Client()

    for typed in ("pat", "PAT", "Pat", "pAt", "paT"):  # five spellings, not five guesses for each
        client.post(LOG_IN, {"username": typed, "password": "not-the-password"})
    answer = client.post(LOG_IN, {"username": "pat", "password": PASSWORD})

    assert "Too many failed log-in attempts" in answer.content.decode()
    assert not get_user(client).is_authenticated
    assert User.objects.get(username="Pat").last_login is None
