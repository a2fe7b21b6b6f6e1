"""The lobby's view of the seating queue (CASH-04/05): after joining a stake's queue through the API, the page
endpoint tells the player whether they wait (and their place), were seated (and where) or were refused (and why)."""

from __future__ import annotations

import json
from typing import Any

from django.test import Client
from django.urls import reverse

from games.models import Stake
from games.services import seed_stakes


def status_url(stake: Stake) -> str:
    return reverse("games:stake_queue", args=[stake.pk])


def api_url(stake: Stake) -> str:
    return reverse("games-api:stake-queue", args=[stake.pk])


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_waiting_player_sees_their_place_and_then_that_they_left(make_player: Any) -> None:
    seed_stakes()
    stake = Stake.objects.get(game_type__code="omaha", label="PL4")
    first, second = logged_in(make_player("alice")), logged_in(make_player("bob"))
    assert first.get(status_url(stake)).json()["status"] == "none"
    for client in (first, second):
        joined = client.post(api_url(stake), json.dumps({"buy_in": 400}), content_type="application/json")
        assert joined.status_code == 200
        assert joined.json()["status"] == "waiting"
    assert first.get(status_url(stake)).json() == {"status": "waiting", "table_id": None, "message": "", "position": 1}
    assert second.get(status_url(stake)).json()["position"] == 2
    assert first.delete(api_url(stake)).status_code == 200
    assert first.get(status_url(stake)).json()["status"] == "cancelled"


def test_a_refused_request_says_why(make_player: Any) -> None:
    seed_stakes()
    stake = Stake.objects.get(game_type__code="omaha", label="PL4")
    players = [logged_in(make_player(name)) for name in ("a", "b", "c")]
    for client, buy_in in zip(players, (400, 400, 1000), strict=True):  # €10 is above PL4's €4 maximum
        client.post(api_url(stake), json.dumps({"buy_in": buy_in}), content_type="application/json")
    answers = [client.get(status_url(stake)).json() for client in players]
    assert answers[0]["status"] == answers[1]["status"] == "seated"
    assert answers[0]["table_id"] == answers[1]["table_id"] is not None
    assert answers[2]["status"] == "failed"
    assert answers[2]["message"]


def test_an_unknown_stake_is_not_found_and_a_visitor_is_sent_to_log_in(make_player: Any) -> None:
    seed_stakes()
    client = logged_in(make_player("alice"))
    assert client.get(reverse("games:stake_queue", args=[999_999])).status_code == 404
    stake = Stake.objects.get(game_type__code="omaha", label="PL4")
    assert client.post(status_url(stake), "{}", content_type="application/json").status_code == 405
    response = Client().get(status_url(stake))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))
