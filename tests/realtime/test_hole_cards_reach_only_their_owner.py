"""Architecture rule 4: a player's hole cards reach that player's sockets alone; spectators see no hidden card.

Every frame received by the other player and by a spectator is scanned for the owner's card texts.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from tests.realtime.conftest import make_table, make_user, open_socket, run
from tests.realtime.events_helper import append_events, hole_cards, public

pytestmark = pytest.mark.django_db(transaction=True)

ALICE_CARDS = ["As", "Kd"]
BOB_CARDS = ["7c", "2h"]


def card_tokens(cards: list[str]) -> list[str]:
    return [f'"{card}"' for card in cards]


def test_each_player_receives_only_their_own_hole_cards_and_spectators_none() -> None:
    table = make_table()
    alice, bob = make_user("alice"), make_user("bob")

    async def scenario() -> None:
        alice_socket = await open_socket(f"/ws/tables/{table.pk}/", alice)
        bob_socket = await open_socket(f"/ws/tables/{table.pk}/", bob)
        spectator = await open_socket(f"/ws/tables/{table.pk}/")
        for socket in (alice_socket, bob_socket, spectator):
            await socket.receive()
        await database_sync_to_async(append_events)(
            table.pk,
            public("hand_started", number=1),
            hole_cards(1, alice.pk, ALICE_CARDS),
            hole_cards(2, bob.pk, BOB_CARDS),
            public("action_taken", seat=1, resolved="call", amount=10),
        )
        views = {}
        for name, socket in (("alice", alice_socket), ("bob", bob_socket), ("spectator", spectator)):
            events = []
            while len(events) < 4:
                message = await socket.receive_until(lambda m: m["type"] == "events")
                events.extend(message["events"])
            base = table.last_sequence
            assert [event["sequence"] for event in events] == [base + 1, base + 2, base + 3, base + 4], name
            assert await socket.nothing_more(), f"{name} received a duplicate copy"
            views[name] = events
        assert views["alice"][1]["cards"] == ALICE_CARDS
        assert "cards" not in views["alice"][2]
        assert views["bob"][2]["cards"] == BOB_CARDS
        assert "cards" not in views["bob"][1]
        assert all("cards" not in event for event in views["spectator"])
        assert views["spectator"][1]["card_count"] == 2

        for token in card_tokens(ALICE_CARDS):
            assert not any(token in frame for frame in bob_socket.received + spectator.received)
        for token in card_tokens(BOB_CARDS):
            assert not any(token in frame for frame in alice_socket.received + spectator.received)

        # A resync and a fresh snapshot keep the same rules.
        for socket in (bob_socket, spectator):
            await socket.send({"type": "resync", "since": 0})
            await socket.receive_until(lambda m: m.get("resync") is True)
            await socket.send({"type": "snapshot"})
            await socket.receive_until(lambda m: m["type"] == "snapshot")
        for token in card_tokens(ALICE_CARDS):
            assert not any(token in frame for frame in bob_socket.received + spectator.received)
        for socket in (alice_socket, bob_socket, spectator):
            await socket.close()

    run(scenario)


def test_a_second_tab_of_the_owner_also_gets_the_cards() -> None:
    table = make_table()
    alice = make_user("alice")

    async def scenario() -> None:
        tabs = [await open_socket(f"/ws/tables/{table.pk}/", alice) for _ in range(2)]
        for tab in tabs:
            await tab.receive()
        await database_sync_to_async(append_events)(table.pk, hole_cards(1, alice.pk, ALICE_CARDS))
        for tab in tabs:
            message = await tab.receive_until(lambda m: m["type"] == "events")
            assert message["events"][0]["cards"] == ALICE_CARDS
            await tab.close()

    run(scenario)
