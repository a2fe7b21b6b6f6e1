"""Provably fair UTH rounds (issue 29, docs/fairness.md "Who receives the seed" for UTH, AMB-38, UTH-35 Game History,
UTH-34 recall by game number, QA G finding 1): once a round is settled, the player's game history
(``GET /api/uth/history/`` and the table page's), the recall ``GET /api/uth/rounds/<game number>/`` and the proof
download ``.../verification/`` give its commitment, domain and server seed; the seed verifies against the commitment
and the dealt cards (player deck[0:2], dealer deck[2:4], board deck[4:9]) with docs/verify_hand.py's own code. While
the round is in play none of them gives the seed, and the download is refused."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from django.test import Client

from games.uth.readside import history
from games.uth.services import uth_bet_place, uth_decide, uth_seat_take
from tests.uth.conftest import current_round

pytestmark = pytest.mark.django_db

VERIFY_HAND = Path(__file__).resolve().parents[2] / "docs" / "verify_hand.py"


def verify_hand_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("verify_hand", VERIFY_HAND)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_seed_comes_after_the_settlement_and_verifies_the_commitment_and_the_dealt_cards(
    table: Any, clock: Any, make_player: Any
) -> None:
    alice = make_player("alice", 100_000)
    client = Client()
    client.force_login(alice)
    uth_seat_take(alice, table.pk, now=clock.now)
    clock.tick()
    uth_bet_place(alice, table.pk, "ante", 100, now=clock.now)
    clock.tick(15)
    round_ = current_round(table)
    uth_decide(alice, table.pk, "play_4x", now=clock.now)
    recall = client.get(f"/api/uth/rounds/{round_.game_number}/").json()
    assert recall["fairness"]["commitment"] == round_.deck_commitment
    assert "server_seed" not in recall["fairness"]
    assert client.get(f"/api/uth/rounds/{round_.game_number}/verification/").status_code == 409
    assert client.get("/api/uth/history/").json()["rounds"] == []  # in play: not in the history yet
    for _phase in ("flop", "river", "settlement"):
        clock.tick(10)
    round_.refresh_from_db()
    assert round_.phase == "settled"

    verify_hand = verify_hand_module()
    deck = [str(card) for card in round_.deck_cards]
    rows = client.get("/api/uth/history/").json()["rounds"]
    assert rows == history(alice)  # the page's Game history is the same rows
    proof = rows[0]["fairness"]
    assert proof["game_number"] == round_.game_number
    assert proof["commitment"] == round_.deck_commitment
    assert proof["server_seed"] == round_.server_seed
    assert (proof["player_cards"], proof["dealer_cards"], proof["board"]) == (deck[0:2], deck[2:4], deck[4:9])
    assert proof["player_cards"] == rows[0]["player_cards"]
    assert proof["dealer_cards"] == rows[0]["dealer_cards"]
    assert proof["board"] == rows[0]["community"]
    assert verify_hand.verify_uth(proof) == []
    assert verify_hand.derived_deck(bytes.fromhex(proof["server_seed"]), {}, proof["domain"]) == deck

    recall = client.get(f"/api/uth/rounds/{round_.game_number}/").json()
    assert recall["fairness"]["server_seed"] == round_.server_seed
    assert recall["round"]["dealer_cards"] == deck[2:4]
    download = client.get(f"/api/uth/rounds/{round_.game_number}/verification/")
    assert download.status_code == 200
    assert "attachment" in download["Content-Disposition"]
    assert download.json() == proof


def test_a_player_who_was_not_in_the_round_gets_no_proof_of_it(table: Any, clock: Any, make_player: Any) -> None:
    alice, bob = make_player("alice", 100_000), make_player("bob", 100_000)
    uth_seat_take(alice, table.pk, now=clock.now)
    clock.tick()
    uth_bet_place(alice, table.pk, "ante", 100, now=clock.now)
    for seconds in (15, 10, 10, 10):
        clock.tick(seconds)
    round_ = current_round(table)
    assert round_.phase == "settled"
    client = Client()
    client.force_login(bob)
    assert client.get(f"/api/uth/rounds/{round_.game_number}/verification/").status_code == 404
    assert client.get("/api/uth/history/").json()["rounds"] == []
