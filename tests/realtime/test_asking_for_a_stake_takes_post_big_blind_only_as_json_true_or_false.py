"""Asking for a stake over the REST API takes ``post_big_blind`` only as JSON ``true`` or ``false``, as the table
socket does (``games.runtime.protocol``): DRF's BooleanField took ``"yes"``, ``"on"``, ``"1"``, ``1`` and ``0`` as
a flag (QA finding). Anything else is a 400 naming the field, and no one is queued or seated; JSON true then is
taken."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from tests.realtime.conftest import deposit, make_table, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def ask_for_the_stake(user: Any, stake_id: int, body: dict[str, Any]) -> Any:
    client = Client()
    client.force_login(user)
    return client.post(f"/api/games/stakes/{stake_id}/queue/", data=json.dumps(body), content_type="application/json")


@pytest.mark.parametrize("flag", ["yes", "true", "on", "1", 1, 0, "false"])
def test_a_post_big_blind_that_is_not_json_true_or_false_is_refused_and_queues_no_one_until_it_is(
    flag: object, clean_cache: None
) -> None:
    from games.models import Seat, SeatingRequest

    table = make_table("holdem", "NL10")
    alice = make_user("alice")
    deposit(alice, 5000)

    response = ask_for_the_stake(alice, table.stake_id, {"buy_in": 1000, "post_big_blind": flag})

    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"
    assert list(response.json()["errors"]) == ["post_big_blind"]
    assert "JSON true or false" in response.json()["errors"]["post_big_blind"][0]
    assert not SeatingRequest.objects.exists()
    assert not Seat.objects.filter(table=table, user=alice).exists()

    accepted = ask_for_the_stake(alice, table.stake_id, {"buy_in": 1000, "post_big_blind": True})
    assert accepted.status_code == 200, accepted.content
