"""The addresses players and password managers try first (``/accounts/login/``, ``/login/``) lead to the log-in page,
keeping ``?next=``; HEAD /healthz is answered (the launcher's readiness probe and load balancers send it)."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.parametrize(
    ("address", "page"),
    [
        ("/accounts/login/", "/accounts/log-in/"),
        ("/accounts/signin/", "/accounts/log-in/"),
        ("/login/", "/accounts/log-in/"),
        ("/accounts/signup/", "/accounts/sign-up/"),
        ("/accounts/register/", "/accounts/sign-up/"),
        ("/signup/", "/accounts/sign-up/"),
    ],
)
def test_a_usual_address_redirects_permanently_to_the_page(client: Client, address: str, page: str) -> None:
    response = client.get(address)
    assert response.status_code == 301
    assert response["Location"] == page


def test_the_redirect_keeps_where_the_player_was_going(client: Client) -> None:
    response = client.get("/accounts/login/?next=/games/")
    assert response.status_code == 301
    assert response["Location"] == "/accounts/log-in/?next=/games/"


@pytest.mark.django_db
def test_head_healthz_is_answered_like_get_without_a_body(client: Client) -> None:
    get = client.get("/healthz")
    head = client.head("/healthz")
    assert head.status_code == get.status_code  # 503 here: no Celery worker runs in this test
    assert head.status_code != 405
    assert head.content == b""
