"""LOB-05, TRN-35, TRN-26: the site-wide player socket (``/ws/player/``, open on every page of a logged-in player)
says "take your seat" once a Sit & Go seats the player, wherever the player is on the site; every transfer that
changes the player's cash balance pushes the new balance (the header shows it live); on connect it lists the
tournament tables the player is seated at. Another player's notices never reach it; an anonymous socket is closed."""

from __future__ import annotations

import random
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.runtime.consumers import CLOSE_SIGNED_OUT
from tests.realtime.conftest import deposit, make_user, open_socket, run
from tournaments.models import TournamentEntry

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_celery(monkeypatch: pytest.MonkeyPatch) -> None:
    from tournaments import tasks

    monkeypatch.setattr(tasks, "tournament_coordinate_later", lambda *args: None)


def register(user: Any, tournament: Any) -> None:
    from tournaments.services import tournament_register

    tournament_register(user, tournament, randomness=random.Random(7))


def test_the_last_registrant_fills_a_sit_and_go_and_both_players_are_called_to_their_seats() -> None:
    from tests.tournaments.support import sit_and_go

    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    for user in (alice, bob, carol):
        deposit(user, 5_000)
    tournament = sit_and_go(2, buy_in=1_000, fee=100)

    async def scenario() -> None:
        alice_socket = await open_socket("/ws/player/", alice)
        hello = await alice_socket.receive()
        assert hello == {"type": "hello", "seats": [], "balance_cents": 5_000, "request_id": None}
        carol_socket = await open_socket("/ws/player/", carol)
        await carol_socket.receive()

        await database_sync_to_async(register)(alice, tournament)
        balance = await alice_socket.receive_until(lambda message: message.get("kind") == "balance")
        assert balance["type"] == "notice"
        assert balance["cents"] == 3_900  # 5,000 - 1,000 buy-in - 100 fee

        await database_sync_to_async(register)(bob, tournament)  # the last seat: the Sit & Go starts
        call = await alice_socket.receive_until(lambda message: message.get("kind") == "take_your_seat")
        entry = await database_sync_to_async(TournamentEntry.objects.get)(tournament=tournament, user=alice)
        assert call["table_id"] == entry.table_id
        assert call["tournament_id"] == tournament.pk
        assert call["tournament_name"] == tournament.name
        assert call["tournament_kind"] == "sit_and_go"
        assert call["reason"] == "start"
        assert call["deal_at"]  # the first deal, for the countdown

        again = await open_socket("/ws/player/", alice)
        hello = await again.receive()
        (seat,) = hello["seats"]
        assert seat["table_id"] == entry.table_id
        assert seat["tournament_id"] == tournament.pk
        assert seat["tournament_kind"] == "sit_and_go"
        assert seat["reason"] == "start"  # just started: the page calls the player to the table with a countdown
        assert seat["deal_at"]
        assert hello["balance_cents"] == 3_900
        assert await carol_socket.nothing_more(wait=0.5)  # carol registered for nothing: she is told nothing
        for socket in (alice_socket, carol_socket, again):
            await socket.close()

    run(scenario)


def test_an_anonymous_visitor_gets_no_player_socket() -> None:
    async def scenario() -> None:
        from tests.realtime.conftest import Socket, headers_for

        socket = Socket("/ws/player/", headers_for(None))
        connected, code = await socket.communicator.connect(timeout=30)
        assert not connected
        assert code == CLOSE_SIGNED_OUT

    run(scenario)
