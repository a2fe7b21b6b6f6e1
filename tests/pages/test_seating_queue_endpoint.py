"""The lobby's view of the seating queue (CASH-04/05): after joining a stake's queue through the API, the page
endpoint tells the player whether they wait (their place and why), were seated (and where) or were refused (and why)."""

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
    assert first.get(status_url(stake)).json() == {
        "stake_id": stake.pk,
        "status": "waiting",
        "table_id": None,
        "message": f"No {stake} table is open. A new table opens when 3 players wait; 2 are waiting now.",
        "position": 1,
    }
    assert second.get(status_url(stake)).json()["position"] == 2
    assert first.delete(api_url(stake)).status_code == 200
    assert first.get(status_url(stake)).json()["status"] == "cancelled"


def test_a_buy_in_no_table_of_the_stake_could_take_is_refused_at_once_and_never_waits(make_player: Any) -> None:
    """A waiting request counts towards opening a table (CASH-05): €10 at PL4 (at most €4) is refused with the
    reason when it is asked, and the two players who wait are not seated at a table that cannot deal."""
    seed_stakes()
    stake = Stake.objects.get(game_type__code="omaha", label="PL4")
    first, second, third = (logged_in(make_player(name)) for name in ("a", "b", "c"))
    for client in (first, second):
        client.post(api_url(stake), json.dumps({"buy_in": 400}), content_type="application/json")

    refused = third.post(api_url(stake), json.dumps({"buy_in": 1000}), content_type="application/json")

    assert refused.status_code == 409
    assert refused.json()["code"] == "buy_in_refused"
    assert "€4.00" in refused.json()["message"]
    assert third.get(status_url(stake)).json()["status"] == "none"
    assert [client.get(status_url(stake)).json()["status"] for client in (first, second)] == ["waiting", "waiting"]


def test_a_request_its_new_table_refuses_says_why(make_player: Any) -> None:
    """The player's balance covered the buy-in when they asked, not when the table opened: that request fails with
    the reason, the others are seated together."""
    from wallet.services import withdrawal_request

    seed_stakes()
    stake = Stake.objects.get(game_type__code="omaha", label="PL4")
    users = [make_player(name) for name in ("a", "b", "c")]
    first, spender, last = (logged_in(user) for user in users)
    for client in (first, spender):
        client.post(api_url(stake), json.dumps({"buy_in": 400}), content_type="application/json")
    withdrawal_request(users[1], 5000, "all-of-it")
    last.post(api_url(stake), json.dumps({"buy_in": 400}), content_type="application/json")

    answers = [client.get(status_url(stake)).json() for client in (first, spender, last)]

    assert answers[0]["status"] == answers[2]["status"] == "seated"
    assert answers[0]["table_id"] == answers[2]["table_id"] is not None
    assert answers[1]["status"] == "failed"
    assert "balance" in answers[1]["message"].lower()


def test_an_unknown_stake_is_not_found_and_a_visitor_is_sent_to_log_in(make_player: Any) -> None:
    seed_stakes()
    client = logged_in(make_player("alice"))
    assert client.get(reverse("games:stake_queue", args=[999_999])).status_code == 404
    stake = Stake.objects.get(game_type__code="omaha", label="PL4")
    assert client.post(status_url(stake), "{}", content_type="application/json").status_code == 405
    response = Client().get(status_url(stake))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))
