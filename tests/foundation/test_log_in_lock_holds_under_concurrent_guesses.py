"""The log-in lock holds when many wrong passwords arrive at once: an attempt reserves its place on the atomic
counters before its password is checked, so at most a limit's worth of passwords is ever checked, and the account is
locked afterwards (the hardening issue, item 4: 40 concurrent guesses for one account used to be checked all)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.db import connection
from django.test import Client
from django.urls import reverse

from poker_site.accounts.models import User

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clean_cache")]

PASSWORD = "a-long-enough-passphrase-42"
CONCURRENT_GUESSES = 40


@pytest.fixture
def checked_passwords(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every password the backend checks, each check made slow so that the other guesses arrive meanwhile."""
    checked: list[str] = []
    checked_lock = threading.Lock()
    real_check_password = User.check_password

    def counted_check_password(user: User, raw_password: str) -> bool:
        with checked_lock:
            checked.append(raw_password)
        time.sleep(0.05)
        return bool(real_check_password(user, raw_password))

    monkeypatch.setattr(User, "check_password", counted_check_password)
    return checked


def at_once(count: int, attempt: Callable[[int, Client], Any]) -> None:
    """Run ``attempt(number, client)`` in ``count`` threads released together, each with its own client."""
    start = threading.Barrier(count)

    def run(number: int) -> None:
        try:
            client = Client()
            start.wait(timeout=30)
            attempt(number, client)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(number,)) for number in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)


def test_forty_concurrent_wrong_passwords_check_at_most_the_limit_and_then_lock_the_account(
    checked_passwords: list[str],
) -> None:
    User.objects.create_user("target", "t@example.com", PASSWORD)
    answers: list[int] = []

    def guess(number: int, client: Client) -> None:
        response = client.post(reverse("accounts:login"), {"username": "target", "password": f"guess-{number}"})
        answers.append(response.status_code)
        assert "_auth_user_id" not in client.session

    at_once(CONCURRENT_GUESSES, guess)

    assert answers == [200] * CONCURRENT_GUESSES, "every guess got the log-in page back, none a server error"
    assert 1 <= len(checked_passwords) <= settings.LOGIN_FAILURE_LIMIT
    client = Client()
    response = client.post(reverse("accounts:login"), {"username": "target", "password": PASSWORD})
    assert "Too many failed log-in attempts. Try again in 15 minutes." in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert PASSWORD not in checked_passwords, "the right password was not even checked while locked"


def test_concurrent_guesses_at_different_accounts_from_one_address_stop_at_the_address_limit(
    checked_passwords: list[str], settings: Any
) -> None:
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 12
    hashed = make_password(PASSWORD)  # hashed once: forty accounts, one slow hash
    User.objects.bulk_create(User(username=f"player{number}", password=hashed) for number in range(CONCURRENT_GUESSES))

    def guess(number: int, client: Client) -> None:
        client.post(reverse("accounts:login"), {"username": f"player{number}", "password": "wrong"})

    at_once(CONCURRENT_GUESSES, guess)

    assert 1 <= len(checked_passwords) <= 12
