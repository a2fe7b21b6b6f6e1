"""A full round with several players through the table socket, against the real Redis channel layer (UTH-02..UTH-20,
UTH-31, UTH-32, UTH-34): seats, bets, sequenced public events, decisions, automatic decisions, results, privacy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.uth.models import UthTable
from poker_site.accounts.models import User
from wallet.services import ledger_reconcile

from .conftest import Clock, balance
from .sockets import open_socket, run

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.usefixtures("clean_cache")]


def event_kinds(messages: list[dict[str, Any]]) -> list[str]:
    return [event["kind"] for message in messages if message.get("type") == "events" for event in message["events"]]


def test_three_players_play_a_round_over_their_sockets_and_a_visitor_watches(
    table: UthTable, future_clock: Clock, make_player: Callable[..., User]
) -> None:
    alice, bob, carol = (make_player(name, 100_000) for name in ("alice", "bob", "carol"))
    clock = future_clock

    async def scenario() -> None:
        tick = database_sync_to_async(clock.tick)
        sockets = {}
        for player in (alice, bob, carol):
            socket, snapshot = await open_socket(table.pk, player)
            assert snapshot["snapshot"]["me"]["seated"] is False
            assert (await socket.answer({"type": "take_seat"}))["type"] == "ok"
            sockets[player.username] = socket
        visitor, visitor_snapshot = await open_socket(table.pk)
        assert visitor_snapshot["snapshot"]["me"] is None

        assert await tick() == 1  # the betting time opens
        for socket in sockets.values():
            opened = await socket.event("round_opened")
            assert opened["round"]["phase"] == "betting"
            assert opened["round"]["display_number"] == "21:10:10"

        assert (await sockets["alice"].answer({"type": "bet", "spot": "ante", "amount": 1_000}))["type"] == "ok"
        assert (await sockets["alice"].answer({"type": "bet", "spot": "trips", "amount": 500}))["type"] == "ok"
        me = await sockets["alice"].me(lambda view: view["hand"] is not None and view["hand"]["trips"] == 500)
        assert (me["hand"]["ante"], me["hand"]["blind"], me["hand"]["total_bet"]) == (1_000, 1_000, 2_500)
        assert me["balance"] == 100_000 - 2_500
        assert me["controls"] == {"bet": True, "repeat": False, "double": True, "undo": True}
        assert (await sockets["bob"].answer({"type": "bet", "spot": "ante", "amount": 200}))["type"] == "ok"
        assert (await sockets["carol"].answer({"type": "bet", "spot": "ante", "amount": 400}))["type"] == "ok"

        # Player cards Ah 9h, dealer Kc Kd, board 2h 5h Jh 7c 3s.
        clock.rig("Ah 9h Kc Kd 2h 5h Jh 7c 3s")
        assert await tick(15) == 1
        dealt = await sockets["bob"].event("dealt")
        assert dealt["round"]["player_cards"] == ["Ah", "9h"]
        assert dealt["round"]["community"] == []
        assert dealt["round"]["dealer_cards"] == []  # face down until the result
        seen_by_visitor = await visitor.event("dealt")
        assert seen_by_visitor["round"]["player_cards"] == ["Ah", "9h"]
        me = await sockets["bob"].me(lambda view: view["hand"]["options"] != [])
        assert me["hand"]["options"] == ["play_4x", "play_3x", "check"]

        assert (await sockets["alice"].answer({"type": "decide", "decision": "play_4x"}))["type"] == "ok"
        me = await sockets["alice"].me(lambda view: view["hand"]["play"] == 4_000)
        assert me["hand"]["decisions"] == ["PLAY 4x"]
        assert me["hand"]["options"] == []
        stats = await visitor.until(lambda message: message.get("type") == "stats")
        assert stats["stats"]["counts"]["play_4x"] == 1

        assert await tick(10) == 1  # Bob and Carol are AUTO CHECKED; the flop is shown
        flop = await sockets["bob"].event("flop")
        assert flop["round"]["community"] == ["2h", "5h", "Jh"]
        assert flop["ended_phase_stats"]["percent"] == {"play_4x": 33, "play_3x": 0, "check": 0}
        me = await sockets["bob"].me(lambda view: view["hand"]["options"] == ["play_2x", "check"])
        assert me["hand"]["decisions"] == ["AUTO CHECKED"]
        assert (await sockets["bob"].answer({"type": "decide", "decision": "play_2x"}))["type"] == "ok"

        assert await tick(10) == 1
        river = await sockets["carol"].event("river")
        assert river["round"]["community"] == ["2h", "5h", "Jh", "7c", "3s"]
        await sockets["carol"].me(lambda view: view["hand"]["options"] == ["play_1x", "fold"])
        assert await tick(10) == 1  # Carol times out: AUTO FOLDED

        settled = await visitor.event("settled")
        assert settled["round"]["dealer_cards"] == ["Kc", "Kd"]
        assert settled["round"]["result"]["dealer_qualifies"] is True
        results = {}
        for name, socket in sockets.items():
            view = await socket.me(lambda view: view["hand"]["result"] is not None)
            results[name] = view["hand"]["result"]
        assert results["alice"]["net"] == 1_000 + 1_500 + 4_000 + 3_500
        assert {bet["spot"]: bet["outcome"] for bet in results["alice"]["bets"]} == {
            "ante": "win",
            "blind": "win",
            "play": "win",
            "trips": "win",
        }
        assert results["bob"]["net"] == 900
        assert results["carol"]["row"] == "player_folds"
        assert results["carol"]["net"] == -800

        # Every socket saw the public events in order without a gap; nobody else's bets reached anyone.
        for socket in (*sockets.values(), visitor):
            sequences = socket.sequences()
            assert sequences == list(range(sequences[0], sequences[0] + len(sequences)))
        assert all(message.get("type") != "you" for message in visitor.received)
        for message in sockets["bob"].received:
            if message.get("type") == "you":
                assert message["me"]["user"] == "bob"
        for socket in (*sockets.values(), visitor):
            await socket.close()

    run(scenario)
    assert balance(alice) == 100_000 + 10_000
    assert balance(bob) == 100_000 + 900
    assert balance(carol) == 100_000 - 800
    assert ledger_reconcile() == []
