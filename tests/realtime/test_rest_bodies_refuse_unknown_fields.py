"""Every REST request body takes only the fields its endpoint declares, as the socket protocol does: an unknown field
is a 400 that names it, and nothing changes (the hardening issue, item 6: ``"user": 1`` on a join was ignored and the
caller seated). The walk over every write endpoint keeps a new one from forgetting."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from drf_spectacular.generators import EndpointEnumerator

from tests.realtime.conftest import deposit, make_table, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clean_cache")]

WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def send_json(client: Client, method: str, path: str, body: Any) -> Any:
    return getattr(client, method.lower())(
        path, data=json.dumps(body), content_type="application/json", HTTP_IDEMPOTENCY_KEY="walk-unknown-field"
    )


def test_asking_for_a_stake_with_a_user_field_is_refused_and_seats_no_one() -> None:
    from games.models import Seat, SeatingRequest

    table = make_table()
    alice, bob = make_user("alice"), make_user("bob")
    deposit(alice, 5000)
    response = send_json(
        logged_in(alice), "POST", f"/api/games/stakes/{table.stake_id}/queue/", {"buy_in": 1000, "user": bob.pk}
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert response.json()["errors"] == {
        "user": ["Unknown field 'user': this request takes only buy_in, post_big_blind, banzai_choice."]
    }
    assert not Seat.objects.filter(table=table, user__isnull=False).exists()
    assert not SeatingRequest.objects.exists()


def test_leaving_with_a_body_that_names_fields_is_refused() -> None:
    table = make_table()
    alice = make_user("alice")
    response = send_json(logged_in(alice), "POST", f"/api/games/tables/{table.pk}/leave/", {"seat": 3})
    assert response.status_code == 400
    assert response.json()["errors"] == {"seat": ["Unknown field 'seat': this request takes no fields."]}
    assert send_json(logged_in(alice), "POST", f"/api/games/tables/{table.pk}/leave/", {}).status_code == 409


def write_endpoints() -> list[tuple[str, str]]:
    """(method, path) of every API operation that takes a body, path parameters filled with an id that exists not."""
    found = []
    for path, _regex, method, _view in EndpointEnumerator().get_api_endpoints():
        if method in WRITE_METHODS and path.startswith("/api/"):
            found.append((method, re.sub(r"\{[^}]+\}", "999999", path)))
    return sorted(found)


def test_the_walk_finds_the_write_endpoints() -> None:
    endpoints = write_endpoints()
    assert ("POST", "/api/wallet/deposits/") in endpoints
    assert ("POST", "/api/games/stakes/999999/queue/") in endpoints
    assert len(endpoints) >= 6


RETIRED = {("POST", "/api/games/tables/999999/join/")}
"""Endpoints kept only to refuse every request with a pointer to their replacement (410, whatever the body):
picking a table (CASH-04: seats are assigned; the test of the refusal is test_picking_a_table_or_a_seat_is_refused)."""


@pytest.mark.parametrize(("method", "path"), [endpoint for endpoint in write_endpoints() if endpoint not in RETIRED])
def test_every_write_endpoint_refuses_an_unknown_field_by_name(method: str, path: str) -> None:
    from wallet.models import Transfer

    player = make_user("walker")
    deposit(player, 5000)
    transfers = Transfer.objects.count()
    response = send_json(logged_in(player), method, path, {"buy_in": 1000, "amount": "10", "surprise_field": 1})
    assert response.status_code == 400, (path, response.content)
    assert "surprise_field" in response.content.decode()
    assert Transfer.objects.count() == transfers
