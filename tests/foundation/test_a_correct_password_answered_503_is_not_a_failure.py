"""Only a checked wrong password counts against the log-in lock: an attempt whose request fails before its password
is checked (no database connection: 503) gives its reservation back, and so does a right password of an account that
may not log in (issue 25: 18 accounts whose only attempt was a right password ended with failure counts after a burst
answered 503)."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from poker_site.accounts import throttle
from poker_site.accounts.models import User
from poker_site.core.redis_clients import blocking_client
from tests.foundation.test_a_busy_database_answers_503_not_500 import pool_timeout, raiser

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

PASSWORD = "a-long-enough-passphrase-42"
ADDRESS = "203.0.113.9"


def attempt(client: Client, username: str, password: str) -> int:
    response = client.post(reverse("accounts:login"), {"username": username, "password": password}, REMOTE_ADDR=ADDRESS)
    return response.status_code


def counted(username: str) -> list[int]:
    """The (address, account, pair) failure counters of ``username`` from :data:`ADDRESS`."""
    keys = throttle.counters(username, ADDRESS).keys
    return [int(blocking_client().get(key) or 0) for key in keys]


def test_a_log_in_answered_503_before_the_password_check_counts_nothing(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    User.objects.create_user("alice", "a@example.com", PASSWORD)
    with monkeypatch.context() as patched:
        patched.setattr(User._default_manager, "get_by_natural_key", raiser(pool_timeout()))
        for _ in range(settings.LOGIN_FAILURE_LIMIT + 1):
            assert attempt(client, "alice", PASSWORD) == 503

    assert counted("alice") == [0, 0, 0]
    attempt(client, "alice", PASSWORD)
    assert "_auth_user_id" in client.session, "the burst of 503s locked nothing"


def test_a_right_password_of_an_account_that_may_not_log_in_counts_nothing(client: Client) -> None:
    User.objects.create_user("alice", "a@example.com", PASSWORD, is_active=False)
    for _ in range(settings.LOGIN_FAILURE_LIMIT + 1):
        attempt(client, "alice", PASSWORD)
        assert "_auth_user_id" not in client.session

    assert counted("alice") == [0, 0, 0]
    User.objects.filter(username="alice").update(is_active=True)
    attempt(client, "alice", PASSWORD)
    assert "_auth_user_id" in client.session


def test_a_checked_wrong_password_still_counts_on_every_counter(client: Client) -> None:
    User.objects.create_user("alice", "a@example.com", PASSWORD)
    attempt(client, "alice", "wrong")
    attempt(client, "nobody-of-that-name", "wrong")
    assert counted("alice") == [2, 1, 1]


def test_the_reservation_is_given_back_when_the_password_check_itself_fails(monkeypatch: Any) -> None:
    """An error between the reservation and the password's verdict (here in the hashing) leaves the counters as
    they were, whatever the error."""
    User.objects.create_user("alice", "a@example.com", PASSWORD)
    monkeypatch.setattr(User, "check_password", raiser(RuntimeError("the hasher broke")))
    with pytest.raises(RuntimeError):
        Client(raise_request_exception=True).post(
            reverse("accounts:login"), {"username": "alice", "password": PASSWORD}, REMOTE_ADDR=ADDRESS
        )
    assert counted("alice") == [0, 0, 0]
