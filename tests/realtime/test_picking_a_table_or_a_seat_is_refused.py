"""Seats are assigned, not picked (CASH-04, LOB-01): the retired REST join and socket ``take_seat`` refuse with a clear
error that points to the stake queue and change nothing; the table socket's ``seat_me`` goes through the stake queue and
answers seated here, seated at another table, or queued with the reason."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from tests.realtime.conftest import deposit, make_table, make_user, open_socket, run

pytestmark = pytest.mark.django_db(transaction=True)


def state_of(user: Any) -> dict[str, Any]:
    from games.models import HandEvent, Seat, SeatingRequest
    from wallet.models import Transfer
    from wallet.services.accounts import balance_of, player_cash_account

    return {
        "seats": list(Seat.objects.filter(user__isnull=False).values_list("table_id", "number", "user_id")),
        "requests": SeatingRequest.objects.count(),
        "events": HandEvent.objects.count(),
        "transfers": Transfer.objects.count(),
        "balance": balance_of(player_cash_account(user)),
    }


def test_cash_04_the_retired_rest_join_refuses_with_a_pointer_to_the_stake_queue_and_changes_nothing(
    clean_cache: None,
) -> None:
    table = make_table("holdem", "NL10")
    alice = make_user("alice")
    deposit(alice, 5000)
    client = Client()
    client.force_login(alice)
    before = state_of(alice)

    for body in ({"buy_in": 1000}, {"buy_in": 1000, "seat": 3, "post_big_blind": True}, {}):
        response = client.post(f"/api/games/tables/{table.pk}/join/", json.dumps(body), content_type="application/json")
        assert response.status_code == 410
        assert response.json()["code"] == "seats_are_assigned"
        assert "/api/games/stakes/<stake id>/queue/" in response.json()["message"]

    assert state_of(alice) == before


def test_cash_04_the_retired_socket_take_seat_refuses_with_a_pointer_to_seat_me_and_changes_nothing() -> None:
    table = make_table("holdem", "NL10")
    alice = make_user("alice")
    deposit(alice, 5000)
    before = state_of(alice)

    async def scenario() -> dict[str, Any]:
        socket = await open_socket(f"/ws/tables/{table.pk}/", alice)
        await socket.receive()
        await socket.send({"type": "take_seat", "buy_in": 1000, "seat": 2, "request_id": "pick"})
        answer: dict[str, Any] = await socket.receive_until(lambda m: m["type"] in {"ok", "error"})
        await socket.close()
        return answer

    answer = run(scenario)
    assert (answer["type"], answer["code"], answer["request_id"]) == ("error", "seats_are_assigned", "pick")
    assert "seat_me" in answer["message"]
    assert state_of(alice) == before


def seat_me(user: Any, table: Any) -> dict[str, Any]:
    async def scenario() -> dict[str, Any]:
        socket = await open_socket(f"/ws/tables/{table.pk}/", user)
        await socket.receive()
        await socket.send({"type": "seat_me", "buy_in": 1000, "request_id": "play"})
        answer: dict[str, Any] = await socket.receive_until(lambda m: m["type"] in {"ok", "error"})
        await socket.close()
        return answer

    return run(scenario)


def test_cash_04_seat_me_on_a_tables_socket_seats_the_player_at_the_table_the_stake_queue_assigns() -> None:
    """Asked from an empty table while another table of the stake has players: the player joins the players."""
    from games.models import Seat
    from games.services import seat_take

    watched = make_table("holdem", "NL10", name="Watched")
    busy = make_table("holdem", "NL10", name="Busy")
    for number, name in ((1, "bob"), (2, "carol")):
        user = make_user(name)
        deposit(user, 5000)
        seat_take(user, busy, 1000, seat_number=number)
    alice = make_user("alice")
    deposit(alice, 5000)

    answer = seat_me(alice, watched)

    assert (answer["type"], answer["of"], answer["status"], answer["table_id"]) == ("ok", "seat_me", "seated", busy.pk)
    assert Seat.objects.get(user=alice).table_id == busy.pk


def test_cash_05_seat_me_at_a_full_table_queues_the_player_and_says_why() -> None:
    from games.models import SeatingRequest
    from games.services import seat_take

    full = make_table("holdem", "NL10", name="Full")
    for number in range(1, full.seat_count + 1):
        user = make_user(f"sitter{number}")
        deposit(user, 5000)
        seat_take(user, full, 1000, seat_number=number)
    alice = make_user("alice")
    deposit(alice, 5000)

    answer = seat_me(alice, full)

    assert (answer["type"], answer["status"], answer["table_id"], answer["position"]) == ("ok", "waiting", None, 1)
    assert answer["message"].startswith("The only open Texas Hold'em NL10 table is full.")
    assert SeatingRequest.objects.get(user=alice).status == "waiting"
