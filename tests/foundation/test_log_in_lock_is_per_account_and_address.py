"""The log-in lock counts per (username, address), per username from any address and per address far above those:
five failures for one player from an address (a reverse proxy's, say) no longer lock everyone else behind it (the
hardening issue, item 4)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from poker_site.accounts.models import User

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

PASSWORD = "a-long-enough-passphrase-42"


def log_in(client: Client, username: str, password: str, address: str = "127.0.0.1") -> bool:
    client.post(reverse("accounts:login"), {"username": username, "password": password}, REMOTE_ADDR=address)
    logged_in = "_auth_user_id" in client.session
    client.logout()
    return logged_in


def test_five_failures_for_one_player_do_not_lock_another_player_at_the_same_address(client: Client) -> None:
    User.objects.create_user("alice", "a@example.com", PASSWORD)
    User.objects.create_user("bob", "b@example.com", PASSWORD)
    for _ in range(5):
        assert not log_in(client, "alice", "wrong")
    assert not log_in(client, "alice", PASSWORD), "alice is locked from that address"
    assert log_in(client, "bob", PASSWORD), "bob, behind the same address, is not"


def test_a_locked_player_can_still_log_in_from_another_address(client: Client) -> None:
    User.objects.create_user("alice", "a@example.com", PASSWORD)
    for _ in range(5):
        log_in(client, "alice", "wrong", address="203.0.113.7")
    assert not log_in(client, "alice", PASSWORD, address="203.0.113.7")
    assert log_in(client, "alice", PASSWORD, address="198.51.100.2")


def test_guesses_at_one_account_from_many_addresses_lock_it_at_the_account_limit(client: Client, settings: Any) -> None:
    settings.LOGIN_ACCOUNT_FAILURE_LIMIT = 8
    User.objects.create_user("alice", "a@example.com", PASSWORD)
    for number in range(8):
        assert not log_in(client, "alice", "wrong", address=f"203.0.113.{number + 1}")
    assert not log_in(client, "alice", PASSWORD, address="198.51.100.2")
    response = client.post(
        reverse("accounts:login"), {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="198.51.100.2"
    )
    assert "Too many failed log-in attempts." in response.content.decode()


def test_the_address_throttle_trips_only_at_its_own_much_higher_limit(client: Client, settings: Any) -> None:
    assert settings.LOGIN_ADDRESS_FAILURE_LIMIT == 10 * settings.LOGIN_FAILURE_LIMIT
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 12
    User.objects.create_user("someone", "s@example.com", PASSWORD)
    for number in range(11):
        assert not log_in(client, f"guess{number}", "wrong")
    assert log_in(client, "someone", PASSWORD), "eleven failures over many names leave the address open"
    assert not log_in(client, "guess-last", "wrong")
    assert not log_in(client, "someone", PASSWORD), "the twelfth closes it, for every name"
    assert log_in(client, "someone", PASSWORD, address="198.51.100.2"), "other addresses are not affected"


def test_a_success_gives_its_place_on_the_address_counter_back(client: Client, settings: Any) -> None:
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 3
    User.objects.create_user("regular", "r@example.com", PASSWORD)
    for _ in range(10):
        assert log_in(client, "regular", PASSWORD), "log-ins that succeed do not count against the address"


def test_the_admin_log_in_explains_the_lock(client: Client) -> None:
    User.objects.create_superuser("boss", "boss@example.com", PASSWORD)
    for _ in range(5):
        client.post("/admin/login/", {"username": "boss", "password": "nope"})
    response = client.post("/admin/login/", {"username": "boss", "password": PASSWORD})
    assert "Too many failed log-in attempts. Try again in 15 minutes." in response.content.decode()
    assert "_auth_user_id" not in client.session
