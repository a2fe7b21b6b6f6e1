"""The address the log-in lock counts is REMOTE_ADDR unless TRUSTED_PROXY_COUNT says how many reverse proxies add to
X-Forwarded-For: a client cannot pick a fresh address per guess by sending the header itself (the hardening issue,
item 4)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from poker_site.accounts.models import User
from poker_site.accounts.throttle import client_address

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

PASSWORD = "a-long-enough-passphrase-42"


def request_from(remote: str, forwarded_for: str | None = None) -> Any:
    extra = {"REMOTE_ADDR": remote}
    if forwarded_for is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded_for
    return RequestFactory().post("/accounts/log-in/", **extra)


def test_the_forwarded_header_is_ignored_unless_a_proxy_is_trusted(settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_address(request_from("10.0.0.5", "203.0.113.9")) == "10.0.0.5"


def test_with_one_trusted_proxy_the_client_is_the_entry_it_added(settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    assert client_address(request_from("10.0.0.5", "203.0.113.9")) == "203.0.113.9"
    # The client sent its own X-Forwarded-For; the proxy appended the real address: only the last entry counts.
    assert client_address(request_from("10.0.0.5", "198.51.100.1, 203.0.113.9")) == "203.0.113.9"


def test_with_two_trusted_proxies_the_client_is_the_second_entry_from_the_right(settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 2
    assert client_address(request_from("10.0.0.6", "198.51.100.1, 203.0.113.9, 10.0.0.5")) == "203.0.113.9"


def test_a_short_or_malformed_forwarded_header_falls_back_to_the_peer(settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 2
    assert client_address(request_from("10.0.0.6", "203.0.113.9")) == "10.0.0.6"
    settings.TRUSTED_PROXY_COUNT = 1
    assert client_address(request_from("10.0.0.6", "not-an-address")) == "10.0.0.6"
    assert client_address(request_from("10.0.0.6", "203.0.113.9\x00")) == "10.0.0.6"


def test_varying_the_header_does_not_buy_more_guesses_when_no_proxy_is_trusted(client: Client, settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 0
    User.objects.create_user("alice", "a@example.com", PASSWORD)
    for number in range(5):
        client.post(
            reverse("accounts:login"),
            {"username": "alice", "password": "wrong"},
            HTTP_X_FORWARDED_FOR=f"203.0.113.{number + 1}",
        )
    client.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD}, HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert "_auth_user_id" not in client.session


def test_behind_a_trusted_proxy_players_are_told_apart_by_the_forwarded_address(client: Client, settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    User.objects.create_user("alice", "a@example.com", PASSWORD)
    for _ in range(5):
        client.post(
            reverse("accounts:login"),
            {"username": "alice", "password": "wrong"},
            REMOTE_ADDR="10.0.0.5",
            HTTP_X_FORWARDED_FOR="203.0.113.7",
        )
    client.post(
        reverse("accounts:login"),
        {"username": "alice", "password": PASSWORD},
        REMOTE_ADDR="10.0.0.5",
        HTTP_X_FORWARDED_FOR="198.51.100.2",
    )
    assert "_auth_user_id" in client.session
