"""The account-wide log-in lock slows an attacker, not the owner: failures from any address still lock the account for
every browser that has not logged in to it, but the owner's browser, recognised by the signed device cookie it got at
its last successful log-in, is not refused by the account-wide counter as long as it has not failed itself (issue 25,
docs/roles.md "Log-in lock"). The per-(username, address) and per-address limits apply to it as always."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from poker_site.accounts.devices import LOGIN_DEVICE_COOKIE
from poker_site.accounts.models import User
from poker_site.accounts.throttle import account_key

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

PASSWORD = "a-long-enough-passphrase-42"
HOME = "198.51.100.2"
ACCOUNT_LIMIT = 8


@pytest.fixture(autouse=True)
def small_account_limit(settings: Any) -> None:
    settings.LOGIN_ACCOUNT_FAILURE_LIMIT = ACCOUNT_LIMIT


def log_in(client: Client, username: str, password: str, address: str = HOME) -> bool:
    """One attempt; logged out again afterwards, the browser keeping its log-in device cookie."""
    response = client.post(reverse("accounts:login"), {"username": username, "password": password}, REMOTE_ADDR=address)
    logged_in = "_auth_user_id" in client.session
    device = client.cookies.get(LOGIN_DEVICE_COOKIE)
    client.logout()
    if device is not None:
        client.cookies[LOGIN_DEVICE_COOKIE] = device.value
    assert response.status_code in (200, 302)
    return logged_in


def owners_browser(username: str = "alice") -> Client:
    """A browser in which the owner logged in once (and logged out): it holds the device cookie for the account."""
    User.objects.create_user(username, f"{username}@example.com", PASSWORD)
    browser = Client()
    assert log_in(browser, username, PASSWORD)
    assert LOGIN_DEVICE_COOKIE in browser.cookies
    return browser


def attacker_locks(username: str = "alice") -> None:
    """Wrong passwords from as many addresses as the account-wide limit: every other browser is refused."""
    attacker = Client()
    for number in range(ACCOUNT_LIMIT):
        assert not log_in(attacker, username, "guess", address=f"203.0.113.{number + 1}")


def test_the_owners_known_browser_logs_in_while_an_attacker_has_locked_the_account() -> None:
    browser = owners_browser()
    attacker_locks()

    assert log_in(browser, "alice", PASSWORD)
    assert log_in(browser, "alice", PASSWORD), "and again: logging in through the device leaves it trusted"


def test_the_owner_without_the_cookie_from_a_fresh_address_is_refused() -> None:
    owners_browser()
    attacker_locks()

    assert not log_in(Client(), "alice", PASSWORD, address="192.0.2.50")
    assert not log_in(Client(), "alice", PASSWORD, address=HOME), "the owner's address alone is not enough"


def test_a_known_browser_that_has_itself_failed_does_not_bypass_the_lock() -> None:
    browser = owners_browser()
    attacker_locks()

    assert not log_in(browser, "alice", "a typo")
    assert not log_in(browser, "alice", PASSWORD)


def test_the_owners_log_in_through_the_device_does_not_reset_the_attackers_count() -> None:
    browser = owners_browser()
    attacker_locks()
    assert log_in(browser, "alice", PASSWORD)

    assert not log_in(Client(), "alice", PASSWORD, address="192.0.2.50")


def test_the_cookie_of_another_account_or_a_forged_one_does_not_bypass() -> None:
    owners_browser("alice")
    bobs_browser = owners_browser("bob")
    attacker_locks("alice")
    forged = Client()
    _, rest = bobs_browser.cookies[LOGIN_DEVICE_COOKIE].value.split(":", 1)
    forged.cookies[LOGIN_DEVICE_COOKIE] = f"{account_key('alice')}:{rest}"  # bob's device and signature
    tampered = Client()
    tampered.cookies[LOGIN_DEVICE_COOKIE] = "0" * 32 + ":" + "f" * 32

    assert not log_in(bobs_browser, "alice", PASSWORD)
    assert not log_in(forged, "alice", PASSWORD)
    assert not log_in(tampered, "alice", PASSWORD)


def test_the_per_address_and_per_pair_limits_still_hold_for_a_known_browser(settings: Any) -> None:
    browser = owners_browser()
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 3
    stranger = Client()
    for number in range(3):
        assert not log_in(stranger, f"guess{number}", "wrong", address=HOME)

    assert not log_in(browser, "alice", PASSWORD), "the owner's address is locked for every name"
    assert log_in(browser, "alice", PASSWORD, address="192.0.2.77")


def test_failures_through_a_known_browser_still_count_on_the_account() -> None:
    """A stolen cookie buys the thief one guess per window, and that guess counts towards the account-wide lock."""
    browser = owners_browser()
    attacker = Client()
    for number in range(ACCOUNT_LIMIT - 1):
        assert not log_in(attacker, "alice", "guess", address=f"203.0.113.{number + 1}")
    assert not log_in(browser, "alice", "a typo")

    assert not log_in(Client(), "alice", PASSWORD, address="192.0.2.50"), "the eighth failure locked the account"
