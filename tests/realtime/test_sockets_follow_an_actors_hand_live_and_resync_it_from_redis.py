"""Issue 27, step 4 over real sockets: a table actor's hand reaches the table's sockets as each message is applied
(published from memory, not at the hand's end), a resync and a socket that opens mid-hand are answered from the
durable rows plus the hand log in Redis, hole cards reach their owner alone (architecture rule 4), and when the hand
ends every sequence number has reached each socket exactly once."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from tests.realtime.conftest import Socket, deposit, make_table, make_user, open_socket, run

pytestmark = pytest.mark.django_db(transaction=True)

BUY_IN = 1000


class Table:
    """The table, its players by seat, and the actor holding its hands (driven from the test's worker thread)."""

    def __init__(self) -> None:
        from games.runtime.actor import TableActor
        from games.services import seat_take

        self.table = make_table(stake="NL10")
        self.users = [make_user(name) for name in ("alice", "bob", "carol")]
        for number, user in enumerate(self.users, start=1):
            deposit(user, 10 * BUY_IN)
            seat_take(user, self.table, BUY_IN, seat_number=number)
        self.actor = TableActor(self.table.pk, shuffler=lambda: random.Random(17))
        self.logged: list[int] = []

    def last_sequence(self) -> int:
        from games.models import Table as TableRow

        return int(TableRow.objects.get(pk=self.table.pk).last_sequence)

    def deal(self) -> None:
        from games.runtime.actor import DealNext

        assert self.actor.handle(DealNext(), timezone.now()).hand_started is not None

    def move(self) -> bool:
        """The player to act checks or calls; True when that ended the hand."""
        from games.runtime.play import PlayerAction

        live = self.actor.live
        assert live is not None
        legal = live.state.legal_actions()
        assert legal is not None
        assert live.hand.acting_seat is not None
        user = self.users[live.hand.acting_seat - 1]
        outcome = self.actor.handle(PlayerAction(user.pk, "check" if legal.check else "call"), timezone.now())
        assert outcome.refused is None
        self.logged.extend(outcome.sequences)
        return outcome.hand_ended is not None

    def cards_of(self, seat: int) -> list[str]:
        live = self.actor.live
        assert live is not None
        return [str(card) for card in live.state.hole_cards(seat)]


async def events_through(socket: Socket, last: int) -> list[dict[str, Any]]:
    """The events the socket receives until it has the one numbered ``last``."""
    events: list[dict[str, Any]] = []
    while not events or events[-1]["sequence"] < last:
        message = await socket.receive_until(lambda m: m["type"] == "events")
        events.extend(message["events"])
    return events


def test_sockets_see_an_actors_hand_as_it_is_played_and_resync_it_mid_hand_from_redis() -> None:
    table = Table()

    async def scenario() -> None:
        alice = await open_socket(f"/ws/tables/{table.table.pk}/", table.users[0])
        spectator = await open_socket(f"/ws/tables/{table.table.pk}/")
        for socket in (alice, spectator):
            await socket.receive_until(lambda m: m["type"] == "snapshot")
        await database_sync_to_async(table.deal)()
        dealt_through = await database_sync_to_async(table.last_sequence)()
        for socket in (alice, spectator):
            await events_through(socket, dealt_through)

        # Two calls, applied in memory: each reaches both sockets at once, numbered after the deal, nothing written.
        for _ in range(2):
            assert not await database_sync_to_async(table.move)()
        assert table.logged[0] == dealt_through + 1
        assert await database_sync_to_async(table.last_sequence)() == dealt_through
        for socket in (alice, spectator):
            live = await events_through(socket, table.logged[-1])
            assert [event["sequence"] for event in live] == table.logged
            assert [event["type"] for event in live].count("action_taken") == 2

        # The spectator lost track: its resync is answered from the hand log.
        await spectator.send({"type": "resync", "since": dealt_through, "request_id": "mid-hand"})
        answer = await spectator.receive_until(lambda m: m.get("request_id") == "mid-hand")
        assert answer["type"] == "events"
        assert [event["sequence"] for event in answer["events"]] == table.logged

        # Bob opens the table mid-hand: his snapshot is the hand as it stands, with his own cards only.
        bob = await open_socket(f"/ws/tables/{table.table.pk}/", table.users[1])
        snapshot = await bob.receive_until(lambda m: m["type"] == "snapshot")
        assert snapshot["sequence"] == table.logged[-1]
        assert snapshot["snapshot"]["viewer"]["hole_cards"] == table.cards_of(2)
        alice_cards = table.cards_of(1)

        # The hand is played out: the end's events follow, and each socket got every number exactly once.
        while not await database_sync_to_async(table.move)():
            pass
        ended_through = await database_sync_to_async(table.last_sequence)()
        for socket in (alice, spectator, bob):
            await events_through(socket, ended_through)
            await socket.drain()
        for socket, first in ((alice, 1), (spectator, 1), (bob, table.logged[-1] + 1)):
            numbers = [
                event["sequence"]
                for frame in socket.received
                for event in json.loads(frame).get("events", [])
                if json.loads(frame).get("resync") is not True and event["sequence"] >= first
            ]
            assert numbers == sorted(set(numbers)), "a sequence number was delivered twice"
            assert numbers[-1] == ended_through
        for token in (f'"{card}"' for card in alice_cards):
            assert not any(token in frame for frame in spectator.received + bob.received if '"hand_shown"' not in frame)
        for socket in (alice, spectator, bob):
            await socket.close()

    run(scenario)
