"""A cash table frame resent with the same ``request_id`` (a network retry, a double click) is applied once per player
and table (issue 30, the security review's replay finding; CASH-15 top-ups): a copy, on the same socket or another
socket of the player, gets the first answer again (``duplicate: true``) and changes nothing. A new request id is
applied; frames that change nothing (``ping``) are answered every time; a malformed request id is refused."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from tests.realtime.conftest import Socket, deposit, make_table, make_user, open_socket, run

pytestmark = pytest.mark.django_db(transaction=True)


def stack_of(user: Any, table: Any) -> int:
    from games.models import Seat
    from wallet.services import balance_of

    seat = Seat.objects.select_related("session__account").get(table=table, user=user)
    assert seat.session is not None
    return int(balance_of(seat.session.account))


async def answers(socket: Socket, request_id: str, count: int) -> list[dict[str, Any]]:
    found = []
    for _ in range(count):
        found.append(
            await socket.receive_until(
                lambda reply: reply.get("type") in ("ok", "error", "pong") and reply.get("request_id") == request_id
            )
        )
    return found


def test_issue_30_a_top_up_resent_with_one_request_id_is_added_once() -> None:
    from channels.db import database_sync_to_async

    from games.services import seat_take

    table = make_table()
    terms = table.cash_stake.terms_at(timezone.now())
    alice = make_user("alice")
    deposit(alice, 100 * terms.max_buy_in)
    seat_take(alice, table, terms.min_buy_in)
    step = terms.big_blind

    async def scenario() -> None:
        first = await open_socket(f"/ws/tables/{table.pk}/", alice)
        second = await open_socket(f"/ws/tables/{table.pk}/", alice)
        for socket in (first, first, first):
            await socket.send({"type": "top_up", "amount": step, "request_id": "top-1"})
        replies = await answers(first, "top-1", 3)
        assert [reply["type"] for reply in replies] == ["ok"] * 3
        assert [reply.get("duplicate", False) for reply in replies] == [False, True, True]
        await second.send({"type": "top_up", "amount": step, "request_id": "top-1"})  # another tab resends it
        (reply,) = await answers(second, "top-1", 1)
        assert (reply["type"], reply["of"], reply["duplicate"]) == ("ok", "top_up", True)
        assert await database_sync_to_async(stack_of)(alice, table) == terms.min_buy_in + step
        await first.send({"type": "top_up", "amount": step, "request_id": "top-2"})  # a new request id: applied
        (reply,) = await answers(first, "top-2", 1)
        assert reply["type"] == "ok"
        assert "duplicate" not in reply
        assert await database_sync_to_async(stack_of)(alice, table) == terms.min_buy_in + 2 * step
        for _ in range(2):
            await first.send({"type": "ping", "request_id": "ping-1"})
        assert [reply["type"] for reply in await answers(first, "ping-1", 2)] == ["pong", "pong"]
        await first.send({"type": "top_up", "amount": step, "request_id": "top 3"})
        refused = await first.receive_until(lambda reply: reply.get("type") == "error")
        assert refused["code"] == "bad_request_id"
        assert await database_sync_to_async(stack_of)(alice, table) == terms.min_buy_in + 2 * step
        for socket in (first, second):
            await socket.close()

    run(scenario)


def test_issue_30_a_refused_frame_resent_gets_the_same_refusal_and_another_player_has_their_own_request_ids() -> None:
    table = make_table()
    alice, bob = make_user("alice"), make_user("bob")

    async def scenario() -> None:
        sockets = [
            await open_socket(f"/ws/tables/{table.pk}/", alice),
            await open_socket(f"/ws/tables/{table.pk}/", bob),
        ]
        for socket in sockets:
            for _ in range(2):
                await socket.send({"type": "leave", "request_id": "same-id"})
            replies = await answers(socket, "same-id", 2)
            assert [reply["code"] for reply in replies] == ["not_seated", "not_seated"]
            assert "duplicate" not in replies[0]
            assert replies[1]["duplicate"] is True
            await socket.close()

    run(scenario)


def test_issue_30_a_used_request_id_that_asks_something_else_is_a_new_request_and_is_applied() -> None:
    """A client whose id counter started again after a reload (or a bot that took over a name) reuses an id for another
    command: only a copy (the same type and fields) is a resend; the bots' live soak lost its actions to this."""
    from channels.db import database_sync_to_async

    from games.services import seat_take

    table = make_table()
    terms = table.cash_stake.terms_at(timezone.now())
    alice = make_user("alice")
    deposit(alice, 100 * terms.max_buy_in)
    seat_take(alice, table, terms.min_buy_in)
    step = terms.big_blind

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/", alice)
        await socket.send({"type": "top_up", "amount": step, "request_id": "q-1"})
        (first,) = await answers(socket, "q-1", 1)
        await socket.send({"type": "top_up", "amount": 2 * step, "request_id": "q-1"})
        (second,) = await answers(socket, "q-1", 1)
        assert (first["type"], second["type"]) == ("ok", "ok")
        assert "duplicate" not in second
        assert await database_sync_to_async(stack_of)(alice, table) == terms.min_buy_in + 3 * step
        await socket.close()

    run(scenario)
