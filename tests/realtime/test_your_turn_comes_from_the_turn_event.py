"""``your_turn`` is made from the ``turn`` event that starts the turn (its legal actions) without reading the hand
again; the legal actions are the engine's."""

from __future__ import annotations

import random
from typing import Any

import pytest
from channels.db import database_sync_to_async

from tests.realtime.conftest import deposit, make_table, make_user, open_socket, run

pytestmark = pytest.mark.django_db(transaction=True)


def start_hand(table_id: int) -> int:
    from games.models import Table
    from games.services import hand_start

    hand = hand_start(Table.objects.get(pk=table_id), shuffler=random.Random(7))
    assert hand is not None
    return hand.pk


def engine_legal_actions(hand_id: int) -> tuple[int | None, dict[str, Any] | None]:
    from games.models import Hand
    from games.runtime.engine_state import hand_engine_state

    hand = Hand.objects.get(pk=hand_id)
    legal = hand_engine_state(hand).legal_actions()
    return hand.acting_seat, legal.to_dict() if legal is not None else None


def test_the_acting_player_is_told_their_legal_actions_without_a_read(monkeypatch: pytest.MonkeyPatch) -> None:
    from games.runtime import readside

    reads: list[Any] = []
    monkeypatch.setattr(readside, "turn_of", lambda *args: reads.append(args))
    table = make_table("holdem", "NL10")
    players = [make_user(name) for name in ("dora", "emil", "fred")]
    for user in players:
        deposit(user, 5000)

    async def scenario() -> None:
        sockets = {}
        for user in players:
            socket = await open_socket(f"/ws/tables/{table.pk}/", user)
            await socket.receive()
            await socket.send({"type": "seat_me", "buy_in": 1000})  # the stake queue assigns a seat (CASH-04)
            snapshot = await socket.receive_until(lambda m: m["type"] == "snapshot")
            sockets[snapshot["snapshot"]["viewer"]["seat"]] = socket
        hand_id = await database_sync_to_async(start_hand)(table.pk)
        for _ in range(2):
            acting, legal = await database_sync_to_async(engine_legal_actions)(hand_id)
            assert acting is not None
            assert legal is not None
            turn = await sockets[acting].receive_until(lambda m: m["type"] == "your_turn")
            assert (turn["hand_id"], turn["seat"], turn["legal_actions"]) == (hand_id, acting, legal)
            assert turn["deadline"]
            await sockets[acting].send({"type": "act", "action": "call"})
            ok = await sockets[acting].receive_until(lambda m: m["type"] in {"ok", "error"})
            assert ok["type"] == "ok", ok
        for socket in sockets.values():
            await socket.close()

    run(scenario)
    assert reads == []
