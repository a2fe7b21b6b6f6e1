"""The lobby's "seat me at this stake" endpoint (CASH-04/05): validates the buy-in, queues or seats through the domain
service, reports the player's place in the queue, and lets them leave it."""

from __future__ import annotations

import json
from typing import Any

from django.test import Client
from django.urls import reverse

from games.models import SeatingRequest, SeatingRequestStatus, Stake
from games.services import seed_stakes


def queue_url(stake: Stake) -> str:
    return reverse("games:stake_queue", args=[stake.pk])


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_player_joins_the_queue_sees_the_place_and_leaves(make_player: Any) -> None:
    seed_stakes()
    stake = Stake.objects.get(game_type__code="omaha", label="PL4")
    client = logged_in(make_player("alice"))
    answer = client.post(queue_url(stake), json.dumps({"buy_in": 400}), content_type="application/json").json()
    assert answer == {"status": "waiting", "table_id": None, "message": "", "position": 1}
    assert client.get(queue_url(stake)).json()["status"] == "waiting"
    assert client.delete(queue_url(stake)).json()["status"] == "cancelled"
    assert client.get(queue_url(stake)).json()["status"] == "cancelled"
    assert not SeatingRequest.objects.filter(status=SeatingRequestStatus.WAITING).exists()


def test_a_bad_buy_in_is_refused_in_words_and_changes_nothing(make_player: Any) -> None:
    seed_stakes()
    stake = Stake.objects.get(game_type__code="omaha", label="PL4")
    client = logged_in(make_player("alice"))
    for body in ('{"buy_in": "400"}', '{"buy_in": 4.5}', '{"buy_in": -1}', '{"buy_in": true}', "[]", "not json"):
        response = client.post(queue_url(stake), body, content_type="application/json")
        assert response.status_code == 400, body
        assert response.json()["message"]
    assert not SeatingRequest.objects.exists()


def test_an_unknown_stake_is_not_found_and_a_visitor_is_sent_to_log_in(make_player: Any) -> None:
    seed_stakes()
    client = logged_in(make_player("alice"))
    assert client.get(reverse("games:stake_queue", args=[999_999])).status_code == 404
    stake = Stake.objects.get(game_type__code="omaha", label="PL4")
    response = Client().post(queue_url(stake), "{}", content_type="application/json")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))
