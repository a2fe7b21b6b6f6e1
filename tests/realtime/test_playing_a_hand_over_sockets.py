"""Players sit down and play a real hand over their sockets: turns, sequence-numbered events, refusals, privacy.

Covers the table socket end to end against the domain services: ``seat_me`` → ``table_join_queue`` (CASH-04: the stake
queue assigns the seat), ``act`` → ``hand_act``,
``your_turn`` pushed to the acting player only, out-of-turn actions refused with nothing changed, and every frame the
other players and a spectator received scanned for each player's hole cards and, until the hand has ended, for the
hand's server seed (issue 29: provably fair decks; each player also sends a client seed).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from tests.realtime.conftest import Socket, deposit, make_table, make_user, open_socket, run

pytestmark = pytest.mark.django_db(transaction=True)

BUY_IN = 1000  # €10.00 at NL10 (0.05/0.10): 100 big blinds
CLIENT_SEEDS = {1: "01" * 16, 2: "02" * 24, 3: "0a" * 32}  # by the order the players sit down


def start_hand(table_id: int) -> int:
    from games.models import Table
    from games.services import hand_start

    hand = hand_start(Table.objects.get(pk=table_id))  # the production deal: a provably fair deck (issue 29)
    assert hand is not None
    return hand.pk


def hand_seeds(hand_id: int) -> dict[str, Any]:
    from games.models import Hand

    return Hand.objects.filter(pk=hand_id).values("server_seed", "client_seeds").get()


def hand_row(hand_id: int) -> dict[str, Any]:
    from games.models import Hand

    return Hand.objects.filter(pk=hand_id).values("status", "acting_seat", "version").get()


def event_count(table_id: int) -> int:
    from games.models import HandEvent

    return HandEvent.objects.filter(table_id=table_id).count()


def own_cards(socket: Socket, user_id: int) -> list[str]:
    for frame in socket.received:
        message = json.loads(frame)
        for event in message.get("events", []):
            if event["type"] == "hole_cards_dealt" and "cards" in event:
                return list(event["cards"])
    raise AssertionError(f"user {user_id} never received their hole cards")


def test_three_players_play_a_hand_and_nobody_sees_another_players_cards() -> None:
    table = make_table("holdem", "NL10")
    players = [make_user(name) for name in ("alice", "bob", "carol")]
    for player in players:
        deposit(player, 5000)

    async def scenario() -> dict[str, Any]:
        sockets = {}
        owners = {}
        for index, player in enumerate(players, start=1):
            socket = await open_socket(f"/ws/tables/{table.pk}/", player)
            await socket.receive()
            await socket.send({"type": "seat_me", "buy_in": BUY_IN, "request_id": f"sit-{index}"})
            ok = await socket.receive_until(lambda m: m["type"] in {"ok", "error"})
            assert (ok["type"], ok["request_id"], ok["of"]) == ("ok", f"sit-{index}", "seat_me")
            assert (ok["status"], ok["table_id"]) == ("seated", table.pk)  # the stake's only table
            snapshot = await socket.receive_until(lambda m: m["type"] == "snapshot")
            number = snapshot["snapshot"]["viewer"]["seat"]
            assert number is not None
            sockets[number] = socket
            owners[number] = player
            # Each player contributes a client seed to the deck (issue 29).
            await socket.send({"type": "client_seed", "seed": CLIENT_SEEDS[index], "request_id": f"seed-{index}"})
            ok = await socket.receive_until(lambda m: m["type"] in {"ok", "error"})
            assert (ok["type"], ok["of"]) == ("ok", "client_seed"), ok
        spectator = await open_socket(f"/ws/tables/{table.pk}/")
        await spectator.receive()

        hand_id = await database_sync_to_async(start_hand)(table.pk)
        actions = 0
        while True:
            row = await database_sync_to_async(hand_row)(hand_id)
            if row["status"] != "running":
                break
            acting = row["acting_seat"]
            turn = await sockets[acting].receive_until(lambda m: m["type"] == "your_turn")
            assert turn["seat"] == acting
            assert turn["hand_id"] == hand_id
            assert "fold" in turn["legal_actions"]["kinds"]
            # Someone else tries to act first: refused, nothing changes.
            other = next(seat for seat in sockets if seat != acting)
            before = (await database_sync_to_async(event_count)(table.pk), row["version"])
            await sockets[other].send({"type": "act", "action": "call", "request_id": "sneaky"})
            refusal = await sockets[other].receive_until(lambda m: m["type"] == "error")
            assert refusal["code"] == "not_your_turn"
            assert refusal["request_id"] == "sneaky"
            after_row = await database_sync_to_async(hand_row)(hand_id)
            assert (await database_sync_to_async(event_count)(table.pk), after_row["version"]) == before
            # The acting player folds; every socket sees the action with the next sequence number.
            await sockets[acting].send({"type": "act", "action": "fold", "request_id": f"fold-{actions}"})
            ok = await sockets[acting].receive_until(lambda m: m["type"] in {"ok", "error"})
            assert ok["type"] == "ok", ok
            for socket in (*sockets.values(), spectator):
                await socket.receive_until(
                    lambda m, seat=acting: (
                        m["type"] == "events"
                        and any(e["type"] == "action_taken" and e["seat"] == seat for e in m["events"])
                    )
                )
            actions += 1
        assert actions == 2  # two folds end a three-handed hand preflop

        for socket in (*sockets.values(), spectator):
            await socket.drain(0.5)
            assert any('"hand_ended"' in frame for frame in socket.received)
        cards = {seat: own_cards(sockets[seat], owners[seat].pk) for seat in sockets}
        for seat, hole in cards.items():
            others = [frame for other, s in sockets.items() if other != seat for frame in s.received]
            for card in hole:
                token = f'"{card}"'
                assert not any(token in frame for frame in others), f"seat {seat}'s {card} leaked to a player"
                assert not any(token in frame for frame in spectator.received), f"seat {seat}'s {card} leaked"
        # The server seed reaches nobody before the hand has ended, then each player of the hand with the reveal
        # (issue 29), and never the spectator: it gives every folded hole card.
        seeds = await database_sync_to_async(hand_seeds)(hand_id)
        assert sorted(seeds["client_seeds"].values()) == sorted(CLIENT_SEEDS.values())
        for socket in sockets.values():
            ended = next(index for index, frame in enumerate(socket.received) if '"hand_ended"' in frame)
            with_seed = [index for index, frame in enumerate(socket.received) if seeds["server_seed"] in frame]
            assert with_seed, "the seed was never revealed"
            assert with_seed[0] >= ended, "the server seed reached a client before the hand ended"
            assert '"deck_revealed"' in socket.received[with_seed[0]]
        assert not [frame for frame in spectator.received if seeds["server_seed"] in frame], "the seed leaked"
        assert any('"deck_revealed"' in frame for frame in spectator.received)  # told, without the seed
        sequences = []
        for frame in spectator.received:
            message = json.loads(frame)
            if message["type"] == "events":
                sequences.extend(event["sequence"] for event in message["events"])
        assert sequences == list(range(sequences[0], sequences[0] + len(sequences))), "gap or duplicate"
        for socket in (*sockets.values(), spectator):
            await socket.close()
        return {"hand_id": hand_id, "cards": cards, "owners": owners}

    outcome = run(scenario)

    # The hand history of each player shows their own cards and nobody else's (no showdown happened).
    for seat, player in outcome["owners"].items():
        client = Client()
        client.force_login(player)
        listing = client.get("/api/games/hands/")
        assert listing.status_code == 200
        assert [row["id"] for row in listing.json()["results"]] == [outcome["hand_id"]]
        replay = client.get(f"/api/games/hands/{outcome['hand_id']}/")
        assert replay.status_code == 200
        body = replay.content.decode()
        assert replay.json()["hand"]["my_cards"] == outcome["cards"][seat]
        for other, hole in outcome["cards"].items():
            if other != seat:
                assert not any(f'"{card}"' in body for card in hole)
