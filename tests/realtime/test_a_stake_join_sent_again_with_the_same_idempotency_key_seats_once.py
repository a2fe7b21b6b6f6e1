"""The REST stake join (``POST /api/games/stakes/<id>/queue/``) takes an optional ``Idempotency-Key`` header: a
request sent again with the same key (a double submit from the lobby, a network retry, a second tab) gets the first
answer (``Idempotent-Replayed: true``) and seats no one again. Without a key, a second request of a seated player
seats them at a second table of a stake without a table limit (CASH-09 allows it): the double submit the key guards
against. The same key for another request is a 409 ``idempotency_conflict``; a refused request gives its key back.

Requirement IDs: CASH-04 (seats are assigned by the stake queue), CASH-09 (more than one table of a stake); issue 30
(a resent request is applied once).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from tests.realtime.conftest import deposit, make_table, make_user
from tests.wallet.concurrency import run_simultaneously

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clean_cache")]


def ask_for_the_stake(user: Any, stake_id: int, body: dict[str, Any], key: str | None = None) -> Any:
    client = Client()
    client.force_login(user)
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return client.post(
        f"/api/games/stakes/{stake_id}/queue/", data=json.dumps(body), content_type="application/json", **headers
    )


@pytest.fixture
def two_tables() -> tuple[Any, Any]:
    first = make_table("holdem", "NL10", name="First")
    second = make_table("holdem", "NL10", name="Second")
    return first, second


def seats_of(user: Any) -> list[int]:
    from games.models import Seat

    return sorted(Seat.objects.filter(user=user).values_list("table_id", flat=True))


def test_without_a_key_a_second_request_seats_the_player_at_a_second_table(two_tables: tuple[Any, Any]) -> None:
    alice = make_user("alice")
    deposit(alice, 5000)
    stake_id = two_tables[0].stake_id
    assert ask_for_the_stake(alice, stake_id, {"buy_in": 1000}).json()["status"] == "seated"
    assert ask_for_the_stake(alice, stake_id, {"buy_in": 1000}).json()["status"] == "seated"
    assert len(seats_of(alice)) == 2


def test_the_same_key_gets_the_first_answer_and_seats_once(two_tables: tuple[Any, Any]) -> None:
    alice = make_user("alice")
    deposit(alice, 5000)
    stake_id = two_tables[0].stake_id

    first = ask_for_the_stake(alice, stake_id, {"buy_in": 1000}, key="join-1")
    again = ask_for_the_stake(alice, stake_id, {"buy_in": 1000}, key="join-1")

    assert first.status_code == again.status_code == 200, (first.content, again.content)
    assert first.json()["status"] == "seated"
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first
    assert seats_of(alice) == [first.json()["table_id"]]

    # Another key is another request: a second table, as CASH-09 allows.
    other = ask_for_the_stake(alice, stake_id, {"buy_in": 1000}, key="join-2")
    assert other.json()["status"] == "seated"
    assert len(seats_of(alice)) == 2


def test_simultaneous_requests_with_one_key_seat_once(two_tables: tuple[Any, Any]) -> None:
    alice = make_user("alice")
    deposit(alice, 5000)
    stake_id = two_tables[0].stake_id

    answers = run_simultaneously([lambda: ask_for_the_stake(alice, stake_id, {"buy_in": 1000}, key="double")] * 4)

    assert all(not isinstance(answer, BaseException) for answer in answers), answers
    assert {answer.status_code for answer in answers} == {200}
    assert len({json.dumps(answer.json(), sort_keys=True) for answer in answers}) == 1
    assert len(seats_of(alice)) == 1
    assert sum(answer.get("Idempotent-Replayed") == "true" for answer in answers) == 3


def test_the_same_key_for_another_request_is_a_conflict(two_tables: tuple[Any, Any]) -> None:
    alice = make_user("alice")
    deposit(alice, 5000)
    stake_id = two_tables[0].stake_id
    assert ask_for_the_stake(alice, stake_id, {"buy_in": 1000}, key="join-1").status_code == 200

    conflict = ask_for_the_stake(alice, stake_id, {"buy_in": 1500}, key="join-1")

    assert conflict.status_code == 409
    assert conflict.json()["code"] == "idempotency_conflict"
    assert len(seats_of(alice)) == 1


def test_a_refused_request_gives_its_key_back_and_a_malformed_key_is_a_400(two_tables: tuple[Any, Any]) -> None:
    alice = make_user("alice")
    stake_id = two_tables[0].stake_id
    refused = ask_for_the_stake(alice, stake_id, {"buy_in": 1000}, key="join-1")  # no money yet
    assert refused.status_code == 409, refused.content
    assert refused.json()["code"] != "idempotency_conflict"

    deposit(alice, 5000)
    accepted = ask_for_the_stake(alice, stake_id, {"buy_in": 1000}, key="join-1")
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["status"] == "seated"
    assert "Idempotent-Replayed" not in accepted

    malformed = ask_for_the_stake(alice, stake_id, {"buy_in": 1000}, key="not a key!")
    assert malformed.status_code == 400
    assert malformed.json()["code"] == "invalid"
    assert len(seats_of(alice)) == 1
