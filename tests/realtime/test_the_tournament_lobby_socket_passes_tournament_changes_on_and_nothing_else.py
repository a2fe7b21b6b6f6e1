"""The tournament lobby socket (``/ws/tournaments/``, the tournament list page's, LOB-02): anyone may open it; it
passes each ``tournament_changed`` notice on, sends nothing on connect and nothing about cash tables (unlike the
cash-game lobby socket, which starts with every table's row), answers ``ping`` and refuses any other frame."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from tests.realtime.conftest import make_user, open_socket, run
from tournaments import realtime as tournament_realtime

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_tournament_change_reaches_every_tournament_lobby_socket_anonymous_or_not() -> None:
    alice = make_user("alice")

    async def scenario() -> None:
        anonymous = await open_socket("/ws/tournaments/")
        logged_in = await open_socket("/ws/tournaments/", alice)
        assert await anonymous.nothing_more(wait=0.5)  # no list on connect: the page reads its own

        await database_sync_to_async(tournament_realtime.tournament_changed)(42)

        for socket in (anonymous, logged_in):
            assert await socket.receive() == {"type": "tournament_changed", "tournament_id": 42}
            await socket.close()

    run(scenario)


def test_the_socket_answers_ping_and_refuses_other_frames() -> None:
    async def scenario() -> None:
        socket = await open_socket("/ws/tournaments/")
        await socket.send({"type": "ping", "request_id": "p-1"})
        assert await socket.receive() == {"type": "pong", "request_id": "p-1"}
        await socket.send({"type": "refresh", "request_id": "r-1"})
        refused = await socket.receive()
        assert refused["type"] == "error"
        assert refused["request_id"] == "r-1"
        await socket.close()

    run(scenario)
