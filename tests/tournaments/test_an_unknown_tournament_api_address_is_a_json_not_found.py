"""An address under ``/api/tournaments/`` that no endpoint answers — a word where a tournament's number goes, a
number's unknown sub-address — is answered 404 in the API's one error shape, ``{"code": "not_found", "message"}``, as
an unknown tournament's number is (QA finding: ``/api/tournaments/abc/`` answered Django's HTML 404 page)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.tournaments.support import player

pytestmark = pytest.mark.django_db


def assert_not_found(response: Any) -> None:
    assert response.status_code == 404, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"code", "message"}, body
    assert body["code"] == "not_found", body
    assert isinstance(body["message"], str), body
    assert body["message"], body


@pytest.mark.parametrize(
    "path",
    [
        "/api/tournaments/abc/",
        "/api/tournaments/abc/bar/",
        "/api/tournaments/-1/",
        "/api/tournaments/12/no-such-thing/",
        "/api/tournaments/hexapro/registrations/abc/",
        "/api/tournaments/no/such/address/",
    ],
)
def test_an_address_no_endpoint_answers_is_not_found_in_the_error_shape(client: Client, path: str) -> None:
    assert_not_found(client.get(path))


@pytest.mark.parametrize("method", ["post", "delete", "put"])
def test_any_method_on_such_an_address_is_not_found_for_a_logged_in_player_too(client: Client, method: str) -> None:
    client.force_login(player())
    assert_not_found(getattr(client, method)("/api/tournaments/abc/registration/", {}, content_type="application/json"))


def test_such_an_address_without_its_slash_ends_at_the_same_answer(client: Client) -> None:
    assert_not_found(client.get("/api/tournaments/abc", follow=True))
