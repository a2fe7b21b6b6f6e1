"""The throttles count an IPv6 client by its /64 network (QA pass D, F5): one connection usually has a whole /64, so
counting each address let one client rotate through addresses past the "Forgot your password?" limit per client (and
the log-in lock's per-address counters). IPv4 addresses count one by one, as before; the connection records of the
compliance desk keep the full address (``client_address``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse

from poker_site.accounts import throttle
from poker_site.accounts.models import User

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

PASSWORD = "a-long-enough-passphrase-42"


@pytest.mark.parametrize(
    ("address", "counted"),
    [
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::ffff:192.0.2.1", "192.0.2.1"),
        ("192.0.2.1", "192.0.2.1"),
        ("unknown", "unknown"),
    ],
)
def test_an_ipv6_address_counts_by_its_64_network_and_an_ipv4_address_as_it_is(address: str, counted: str) -> None:
    assert throttle.address_counted(address) == counted


def test_the_full_address_is_still_the_clients_address() -> None:
    request = RequestFactory().get("/", REMOTE_ADDR="2001:db8:1:2::7")

    assert throttle.client_address(request) == "2001:db8:1:2::7"
    assert throttle.counted_address(request) == "2001:db8:1:2::/64"


@override_settings(PASSWORD_RESET_EMAIL_LIMIT=100, PASSWORD_RESET_ADDRESS_LIMIT=3)
def test_rotating_ipv6_addresses_within_one_64_does_not_pass_the_reset_pages_client_limit() -> None:
    answers = [
        Client(REMOTE_ADDR=f"2001:db8::{number + 1:x}").post(
            "/accounts/password-reset/", {"email": f"g{number}@x.example"}
        )
        for number in range(4)
    ]

    assert [answer.status_code for answer in answers] == [302, 302, 302, 429]
    other_network = Client(REMOTE_ADDR="2001:db8:0:1::1").post("/accounts/password-reset/", {"email": "g9@x.example"})
    assert other_network.status_code == 302


def test_rotating_ipv6_addresses_within_one_64_does_not_pass_the_log_in_locks_address_counter(settings: Any) -> None:
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 3
    User.objects.create_user("someone", "s@example.com", PASSWORD)
    for number in range(3):
        Client().post(
            reverse("accounts:login"),
            {"username": f"guess{number}", "password": "wrong"},
            REMOTE_ADDR=f"2001:db8::{number + 1:x}",
        )

    browser = Client()
    browser.post(reverse("accounts:login"), {"username": "someone", "password": PASSWORD}, REMOTE_ADDR="2001:db8::99")
    assert "_auth_user_id" not in browser.session  # the /64 is locked
    browser.post(
        reverse("accounts:login"), {"username": "someone", "password": PASSWORD}, REMOTE_ADDR="2001:db8:0:1::1"
    )
    assert "_auth_user_id" in browser.session
