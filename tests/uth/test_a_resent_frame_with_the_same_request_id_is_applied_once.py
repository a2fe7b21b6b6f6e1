"""A UTH command frame resent with the same ``request_id`` (a network retry, a double click) is applied once (issue 30,
the security review's replay finding; UTH-27 bets, UTH-29 DOUBLE): before, eight ``bet`` frames of one request id
added up eight times and a ``double`` was applied four times. A copy gets the first answer again (marked
``duplicate``) on this socket or another socket of the same player; a new request id is applied; a malformed request
id is refused and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.uth.models import UthHand, UthTable
from games.uth.services import uth_bet_place, uth_seat_take
from poker_site.accounts.models import User

from .conftest import Clock, balance, ledger_state
from .sockets import Socket, open_socket, run

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.usefixtures("clean_cache")]


@pytest.fixture
def live(table: UthTable, future_clock: Clock, make_player: Callable[..., User]) -> dict[str, Any]:
    """Alice (seated, €10 Ante placed) in an open betting time."""
    alice = make_player("alice", 50_000)
    uth_seat_take(alice, table.pk)
    future_clock.tick()
    uth_bet_place(alice, table.pk, "ante", 1_000)
    return {"clock": future_clock, "alice": alice}


def bets(user: User) -> tuple[int, int]:
    hand = UthHand.objects.filter(player=user).order_by("-pk").first()
    assert hand is not None
    return int(hand.ante), int(hand.trips)


async def answers(socket: Socket, request_id: str, count: int) -> list[dict[str, Any]]:
    """The next ``count`` answers (``ok`` or ``error``) to ``request_id``."""
    found = []
    for _ in range(count):
        found.append(
            await socket.until(
                lambda reply: reply.get("type") in ("ok", "error") and reply.get("request_id") == request_id
            )
        )
    return found


def test_issue_30_eight_bet_frames_with_one_request_id_place_one_bet(table: UthTable, live: dict[str, Any]) -> None:
    alice = live["alice"]
    balance_before = balance(alice)

    async def scenario() -> None:
        socket, _ = await open_socket(table.pk, alice)
        for _ in range(8):
            await socket.send({"type": "bet", "spot": "ante", "amount": 500, "request_id": "bet-1"})
        replies = await answers(socket, "bet-1", 8)
        assert [reply["type"] for reply in replies] == ["ok"] * 8
        assert [reply.get("duplicate", False) for reply in replies] == [False] + [True] * 7
        assert all(reply["of"] == "bet" for reply in replies)
        assert await database_sync_to_async(bets)(alice) == (1_500, 0)
        # A new request id is a new bet.
        await socket.send({"type": "bet", "spot": "ante", "amount": 500, "request_id": "bet-2"})
        (reply,) = await answers(socket, "bet-2", 1)
        assert reply["type"] == "ok"
        assert "duplicate" not in reply
        assert await database_sync_to_async(bets)(alice) == (2_000, 0)
        # Two Antes of €5 with their Blinds, not nine.
        assert await database_sync_to_async(balance)(alice) == balance_before - 2_000
        await socket.close()

    run(scenario)


def test_issue_30_a_double_resent_four_times_doubles_once_even_from_another_socket(
    table: UthTable, live: dict[str, Any]
) -> None:
    alice = live["alice"]

    async def scenario() -> None:
        first, _ = await open_socket(table.pk, alice)
        second, _ = await open_socket(table.pk, alice)  # a second tab, or the socket of a reconnect
        for socket in (first, first, second, second):
            await socket.send({"type": "double", "request_id": "double-1"})
        replies = await answers(first, "double-1", 2) + await answers(second, "double-1", 2)
        assert sum(1 for reply in replies if reply["type"] == "ok" and not reply.get("duplicate")) == 1
        # Each copy is answered as the first was, or told that it is a copy still being handled.
        for reply in replies:
            assert reply["type"] == "ok" or reply["code"] == "duplicate_request", reply
            if reply["type"] == "error":
                assert "double-1" in reply["message"]
        assert await database_sync_to_async(bets)(alice) == (2_000, 0)
        for socket in (first, second):
            await socket.close()

    run(scenario)


def test_issue_30_a_refused_frame_resent_is_refused_again_and_a_malformed_request_id_changes_nothing(
    table: UthTable, live: dict[str, Any]
) -> None:
    alice = live["alice"]

    async def scenario() -> None:
        socket, _ = await open_socket(table.pk, alice)
        before = await database_sync_to_async(ledger_state)()
        for request_id in ("<script>", "x" * 65, 7, ""):
            await socket.send({"type": "bet", "spot": "ante", "amount": 500, "request_id": request_id})
            reply = await socket.until(lambda message: message.get("type") == "error")
            assert reply["code"] == "bad_request_id"
            assert reply["message"]
        for _ in range(2):
            await socket.send({"type": "decide", "decision": "play_4x", "request_id": "too-soon"})
        replies = await answers(socket, "too-soon", 2)
        assert [reply.get("code") for reply in replies] == ["decision_refused", "decision_refused"], replies
        assert replies[1]["duplicate"] is True
        assert "duplicate" not in replies[0]
        assert await database_sync_to_async(ledger_state)() == before
        await socket.close()

    run(scenario)
