"""Malformed or hostile frames get a clear error or a closed socket, and change nothing in the database."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.realtime.conftest import ConnectionClosed, make_table, make_user, open_socket, run

pytestmark = pytest.mark.django_db(transaction=True)


def database_state(table_id: int) -> dict[str, Any]:
    """Everything a table command could change: events, seats, sessions, hands, money movements."""
    from games.models import Hand, HandEvent, Seat, Table, TableSession
    from wallet.models import Transfer

    return {
        "table": list(Table.objects.filter(pk=table_id).values()),
        "seats": list(Seat.objects.filter(table_id=table_id).order_by("pk").values()),
        "sessions": TableSession.objects.count(),
        "hands": Hand.objects.count(),
        "events": HandEvent.objects.count(),
        "transfers": Transfer.objects.count(),
    }


HOSTILE_FRAMES: list[tuple[str, str]] = [
    ("{oops", "bad_json"),
    ("[]", "not_an_object"),
    ("42", "not_an_object"),
    ('"seat_me"', "not_an_object"),
    ("{}", "missing_type"),
    ('{"type": "drop_table"}', "unknown_type"),
    ('{"type": "act", "action": "raise", "amount": true}', "bad_amount"),
    ('{"type": "act", "action": "raise", "amount": 2.5}', "bad_amount"),
    ('{"type": "act", "action": "raise", "amount": "250"}', "bad_amount"),
    ('{"type": "act", "action": "raise", "amount": -250}', "bad_amount"),
    ('{"type": "act", "action": "raise", "amount": 100000000000000000000000}', "bad_amount"),
    ('{"type": "act", "action": "fold", "seat": 2}', "unexpected_field"),
    ('{"type": "seat_me", "buy_in": 1000, "user_id": 1}', "unexpected_field"),
    ('{"type": "seat_me", "buy_in": 1e3}', "bad_amount"),
    ('{"type": "top_up", "amount": null}', "bad_amount"),
    ('{"type": "resync", "since": -5}', "bad_sequence"),
    ('{"type": "sit_out_next_big_blind", "enabled": "yes"}', "bad_field"),
]


def test_each_hostile_frame_gets_its_error_code_and_nothing_changes() -> None:
    table = make_table()
    mallory = make_user("mallory")
    before = database_state(table.pk)

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/", mallory)
        await socket.receive()
        for frame, code in HOSTILE_FRAMES:
            await socket.send(frame)
            answer = await socket.receive()
            assert answer["type"] == "error", frame
            assert answer["code"] == code, frame
            assert answer["message"]
        await socket.close()

    run(scenario)
    assert database_state(table.pk) == before


def test_binary_frames_are_refused() -> None:
    table = make_table()

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/")
        await socket.receive()
        await socket.communicator.send_to(bytes_data=b"\x00\x01")
        answer = await socket.receive()
        assert answer["code"] == "binary_not_supported"
        await socket.close()

    run(scenario)


def test_a_huge_frame_is_refused_and_the_socket_closed() -> None:
    table = make_table()
    mallory = make_user("mallory")
    before = database_state(table.pk)

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/", mallory)
        await socket.receive()
        await socket.send(json.dumps({"type": "seat_me", "buy_in": 1000, "padding": "x" * 100_000}))
        answer = await socket.receive()
        assert answer["code"] == "message_too_large"
        with pytest.raises(ConnectionClosed) as closed:
            await socket.receive()
        assert closed.value.code == 4009

    run(scenario)
    assert database_state(table.pk) == before


def test_a_flood_is_rate_limited_then_the_socket_is_closed() -> None:
    table = make_table()
    mallory = make_user("mallory")
    before = database_state(table.pk)

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/", mallory)
        await socket.receive()
        for _ in range(200):
            await socket.send({"type": "seat_me", "buy_in": 1})
        codes = []
        while socket.closed_with is None:
            try:
                codes.append((await socket.receive())["code"])
            except ConnectionClosed:
                break
        assert socket.closed_with == 4008
        assert "rate_limited" in codes
        assert codes[-1] == "flood"

    run(scenario)
    assert database_state(table.pk) == before


def test_a_spectator_cannot_act_or_sit_down() -> None:
    table = make_table()
    before = database_state(table.pk)

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/")
        await socket.receive()
        for message in (
            {"type": "act", "action": "fold", "request_id": "a"},
            {"type": "seat_me", "buy_in": 500, "request_id": "b"},
            {"type": "top_up", "amount": 100, "request_id": "c"},
            {"type": "leave", "request_id": "d"},
        ):
            await socket.send(message)
            answer = await socket.receive()
            assert answer == {
                "type": "error",
                "code": "not_authenticated",
                "message": "log in to play; spectators may only watch",
                "request_id": message["request_id"],
            }
        await socket.close()

    run(scenario)
    assert database_state(table.pk) == before


def test_a_socket_from_a_foreign_origin_is_refused() -> None:
    from channels.testing import WebsocketCommunicator

    from poker_site.asgi import application

    table = make_table()

    async def scenario() -> None:
        communicator = WebsocketCommunicator(
            application, f"/ws/tables/{table.pk}/", headers=[(b"origin", b"http://evil.example")]
        )
        connected, _ = await communicator.connect(timeout=30)
        assert not connected

    run(scenario)
