"""Every error the tournament API answers (``/api/tournaments/``, HexaPro's endpoints included) is one JSON shape,
``{"code", "message"}`` (with ``errors`` by field for a refused body), as docs/protocol.md documents it (QA finding:
the services' refusals came in that shape, while DRF's own answers — not logged in, a stale CSRF token, an unknown
tournament, unreadable JSON, too many requests, a method not taken — came as ``{"detail": ...}``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.throttling import AnonRateThrottle

from tests.tournaments.support import player, scheduled
from tournaments.models import TournamentEntry

pytestmark = pytest.mark.django_db

UNKNOWN = 987_654


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    """The answer has ``status`` and the one error shape with ``code`` and a message for people."""
    assert response.status_code == status, response.content[:300]
    body = response.json()
    assert set(body) <= {"code", "message", "errors"}, body
    assert body["code"] == code, body
    assert isinstance(body["message"], str), body
    assert body["message"], body
    return dict(body)


@pytest.mark.parametrize(
    "path",
    [
        f"/api/tournaments/{UNKNOWN}/",
        f"/api/tournaments/{UNKNOWN}/bar/",
    ],
)
def test_an_unknown_tournament_is_not_found_with_code_and_message(client: Client, path: str) -> None:
    body = assert_error(client.get(path), 404, "not_found")
    assert str(UNKNOWN) in body["message"]


@pytest.mark.parametrize("action", ["registration", "rebuy", "add-on"])
def test_posting_to_an_unknown_tournament_is_not_found_with_code_and_message(client: Client, action: str) -> None:
    client.force_login(player())
    assert_error(
        client.post(f"/api/tournaments/{UNKNOWN}/{action}/", {}, content_type="application/json"), 404, "not_found"
    )


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("post", "/api/tournaments/{id}/registration/"),
        ("delete", "/api/tournaments/{id}/registration/"),
        ("post", "/api/tournaments/{id}/rebuy/"),
        ("get", "/api/tournaments/tickets/"),
        ("get", "/api/tournaments/hexapro/mine/"),
        ("post", "/api/tournaments/hexapro/registrations/"),
    ],
)
def test_an_anonymous_caller_is_told_to_log_in_with_code_and_message(client: Client, method: str, path: str) -> None:
    tournament = scheduled()
    response = getattr(client, method)(path.format(id=tournament.pk), {}, content_type="application/json")
    assert_error(response, 403, "not_authenticated")


def test_a_post_without_the_csrf_token_says_csrf() -> None:
    tournament = scheduled()
    client = Client(enforce_csrf_checks=True)
    client.force_login(player())
    response = client.post(f"/api/tournaments/{tournament.pk}/registration/", {}, content_type="application/json")
    assert_error(response, 403, "csrf")
    assert not TournamentEntry.objects.exists()


def test_unreadable_json_is_a_parse_error_with_code_and_message(client: Client) -> None:
    tournament = scheduled()
    client.force_login(player())
    response = client.post(f"/api/tournaments/{tournament.pk}/registration/", "{", content_type="application/json")
    body = assert_error(response, 400, "parse_error")
    assert "JSON parse error" in body["message"]
    assert not TournamentEntry.objects.exists()


def test_a_method_an_endpoint_does_not_take_is_refused_with_code_and_message(client: Client) -> None:
    tournament = scheduled()
    client.force_login(player())
    assert_error(client.put(f"/api/tournaments/{tournament.pk}/registration/"), 405, "method_not_allowed")


def test_an_unknown_field_is_invalid_with_the_field_named_in_errors(client: Client) -> None:
    tournament = scheduled()
    client.force_login(player())
    response = client.post(
        f"/api/tournaments/{tournament.pk}/registration/", {"user": 1}, content_type="application/json"
    )
    body = assert_error(response, 400, "invalid")
    assert "user" in body["errors"]


def test_a_malformed_idempotency_key_is_an_invalid_request_with_code_and_message(client: Client) -> None:
    tournament = scheduled()
    client.force_login(player())
    response = client.post(
        f"/api/tournaments/{tournament.pk}/registration/",
        {},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="a b",
    )
    assert_error(response, 400, "invalid_request")
    assert not TournamentEntry.objects.exists()


def test_a_service_refusal_keeps_its_own_code_and_message(client: Client) -> None:
    tournament = scheduled(buy_in=1_000, fee=100)
    client.force_login(player(cash=500))
    response = client.post(f"/api/tournaments/{tournament.pk}/registration/", {}, content_type="application/json")
    body = assert_error(response, 409, "insufficient_balance")
    assert "your balance is €5.00" in body["message"]


def test_withdrawing_an_unknown_hexapro_registration_is_a_404_with_the_services_code_and_message(
    client: Client,
) -> None:
    client.force_login(player())
    assert_error(client.delete(f"/api/tournaments/hexapro/registrations/{UNKNOWN}/"), 404, "not_registered")


@pytest.mark.usefixtures("clean_cache")
def test_too_many_requests_are_throttled_with_code_message_and_retry_after(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament = scheduled()
    monkeypatch.setitem(AnonRateThrottle.THROTTLE_RATES, "anon", "1/min")
    path = f"/api/tournaments/{tournament.pk}/"
    assert client.get(path).status_code == 200
    response = client.get(path)
    assert_error(response, 429, "throttled")
    assert int(response["Retry-After"]) > 0
