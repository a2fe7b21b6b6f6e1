"""Malformed, out-of-phase and hostile socket messages get a clear error to that client and change nothing — not a
balance, a hand, a record or an event (UTH-02, UTH-07, UTH-09..UTH-12, UTH-22)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.uth.models import UthTable
from games.uth.services import uth_bet_place, uth_seat_take
from poker_site.accounts.models import User
from tests.socket_headers import SITE_HEADERS

from .conftest import Clock, ledger_state
from .sockets import Closed, open_socket, run

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.usefixtures("clean_cache")]


@pytest.fixture
def live(table: UthTable, future_clock: Clock, make_player: Callable[..., User]) -> dict[str, Any]:
    """Alice (seated, €10 Ante placed) and Bob (seated, no bets) in an open betting time."""
    clock = future_clock
    alice, bob = make_player("alice", 50_000), make_player("bob", 50_000)
    for player in (alice, bob):
        uth_seat_take(player, table.pk)
    clock.tick()
    uth_bet_place(alice, table.pk, "ante", 1_000)
    return {"clock": clock, "alice": alice, "bob": bob}


HOSTILE_FRAMES: list[tuple[Any, str]] = [
    ("not json at all", "bad_json"),
    ("[1, 2, 3]", "not_an_object"),
    ({"spot": "ante", "amount": 100}, "missing_type"),
    ({"type": "steal_the_bank"}, "unknown_type"),
    ({"type": "bet", "spot": "ante"}, "missing_field"),
    ({"type": "bet", "spot": "ante", "amount": 100, "seat": 1}, "unexpected_field"),
    ({"type": "bet", "spot": "blind", "amount": 100}, "bad_field"),
    ({"type": "bet", "spot": "ante", "amount": 1.5}, "bad_amount"),
    ({"type": "bet", "spot": "ante", "amount": "100"}, "bad_amount"),
    ({"type": "bet", "spot": "ante", "amount": True}, "bad_amount"),
    ({"type": "bet", "spot": "ante", "amount": -100}, "bad_amount"),
    ({"type": "bet", "spot": "ante", "amount": 0}, "bad_amount"),
    ({"type": "bet", "spot": "ante", "amount": 10**13}, "bad_amount"),
    ('{"type": "bet", "spot": "ante", "amount": NaN}', "bad_json"),
    ({"type": "decide", "decision": "raise_everything"}, "bad_field"),
    ({"type": "decide", "decision": "play_4x", "player": "alice"}, "unexpected_field"),
    ({"type": "resync", "since": -1}, "bad_sequence"),
    ({"type": "ping", "request_id": "<script>"}, "bad_request_id"),
]


def test_malformed_messages_are_refused_with_a_code_and_nothing_changes(table: UthTable, live: dict[str, Any]) -> None:
    before = ledger_state()

    async def scenario() -> None:
        socket, _ = await open_socket(table.pk, live["bob"])
        for frame, code in HOSTILE_FRAMES:
            await socket.send(frame)
            reply = await socket.until(lambda message: message.get("type") == "error")
            assert reply["code"] == code, (frame, reply)
            assert reply["message"]
        await socket.communicator.send_to(bytes_data=b"\x00\x01")
        assert (await socket.until(lambda message: message.get("type") == "error"))["code"] == "binary_not_supported"
        await socket.close()

    run(scenario)
    assert ledger_state() == before


def test_refused_commands_explain_themselves_in_plain_words_and_change_nothing(
    table: UthTable, live: dict[str, Any], make_player: Callable[..., User]
) -> None:
    stranger = make_player("stranger", 50_000)
    before = ledger_state()

    async def scenario() -> None:
        bob, _ = await open_socket(table.pk, live["bob"])
        alice, _ = await open_socket(table.pk, live["alice"])
        outsider, _ = await open_socket(table.pk, stranger)
        visitor, _ = await open_socket(table.pk)
        cases = [
            (alice, {"type": "take_seat"}, "already_seated", "only one seat"),
            (outsider, {"type": "bet", "spot": "ante", "amount": 100}, "not_seated", "Take a seat"),
            (visitor, {"type": "take_seat"}, "not_authenticated", "Log in to play"),
            (bob, {"type": "bet", "spot": "ante", "amount": 50}, "bet_refused", "minimum Ante"),
            (bob, {"type": "bet", "spot": "trips", "amount": 100}, "bet_refused", "Ante before the Trips"),
            (bob, {"type": "undo"}, "bet_refused", "no bet to undo"),
            (bob, {"type": "double"}, "bet_refused", "Place a bet before doubling"),
            (bob, {"type": "decide", "decision": "check"}, "no_bets", "no bets in this round"),
            (alice, {"type": "decide", "decision": "play_4x"}, "decision_refused", "betting is still open"),
        ]
        for socket, message, code, words in cases:
            reply = await socket.answer(message)
            assert (reply["type"], reply["code"]) == ("error", code), (message, reply)
            assert words in reply["message"]
        assert await database_sync_to_async(ledger_state)() == before
        # (Closing Alice's last socket during betting time then returns her bets: the disconnection policy.)
        for socket in (bob, alice, outsider, visitor):
            await socket.close()

    run(scenario)


def test_decisions_after_the_decision_time_and_bets_after_betting_closed_are_refused(
    table: UthTable, live: dict[str, Any]
) -> None:
    clock = live["clock"]

    async def scenario() -> None:
        alice, _ = await open_socket(table.pk, live["alice"])
        bob, _ = await open_socket(table.pk, live["bob"])
        await database_sync_to_async(clock.tick)(15)  # betting closes, the cards are dealt
        await alice.event("dealt")
        before = await database_sync_to_async(ledger_state)()
        reply = await bob.answer({"type": "bet", "spot": "ante", "amount": 100})
        assert (reply["code"], reply["message"]) == (
            "betting_closed",
            "Betting is closed for this round; wait for the next round.",
        )
        reply = await alice.answer({"type": "decide", "decision": "play_2x"})
        assert reply["code"] == "decision_refused"
        assert "PLAY 2x is not possible in the decision before the flop" in reply["message"]
        assert await database_sync_to_async(ledger_state)() == before
        for socket in (alice, bob):
            await socket.close()

    run(scenario)


def test_a_message_too_large_closes_the_socket(table: UthTable, live: dict[str, Any]) -> None:
    async def scenario() -> None:
        socket, _ = await open_socket(table.pk, live["bob"])
        await socket.send(json.dumps({"type": "ping", "padding": "x" * 5000}))
        reply = await socket.receive()
        assert reply["code"] == "message_too_large"
        with pytest.raises(Closed) as closed:
            await socket.receive()
        assert closed.value.code == 4009
        await socket.close()

    run(scenario)


def test_an_unknown_table_answers_with_an_error_and_closes(db: None) -> None:
    async def scenario() -> None:
        from channels.testing import WebsocketCommunicator

        from poker_site.asgi import application

        communicator = WebsocketCommunicator(application, "/ws/uth/999999/", headers=SITE_HEADERS)
        connected, _ = await communicator.connect()
        assert connected
        reply = json.loads((await communicator.receive_output(5))["text"])
        assert reply["code"] == "table_not_found"
        closing = await communicator.receive_output(5)
        assert (closing["type"], closing["code"]) == ("websocket.close", 4404)
        await communicator.disconnect()

    run(scenario)
