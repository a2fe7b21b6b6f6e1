"""Provably fair UTH rounds (issue 29, docs/fairness.md "When what is published", UTH-07/UTH-08, QA G finding 1): a
player who opens the table page after the round opened still gets its commitment before the deal, because the
snapshot (page and REST) and every public event's round carry the commitment and domain of the round in play. The
server seed is in none of them while the round is in play."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.engine.fairness import ALGORITHM, uth_round_domain
from games.uth.models import UthEvent
from games.uth.readside import snapshot
from games.uth.services import uth_bet_place, uth_seat_take
from tests.uth.conftest import current_round

pytestmark = pytest.mark.django_db


def test_the_snapshot_carries_the_commitment_during_the_betting_time_and_no_seed_until_the_end(
    table: Any, clock: Any, make_player: Any
) -> None:
    alice = make_player("alice", 100_000)
    uth_seat_take(alice, table.pk, now=clock.now)
    clock.tick()  # the round opens: betting time, no card yet
    round_ = current_round(table)
    client = Client()
    client.force_login(alice)
    for view in (snapshot(table, alice), client.get(f"/api/uth/tables/{table.pk}/").json()):
        assert view["round"]["phase"] == "betting"
        assert view["round"]["player_cards"] == []
        assert view["round"]["fairness"] == {
            "algorithm": ALGORITHM,
            "domain": uth_round_domain(table.pk, round_.number),
            "commitment": round_.deck_commitment,
            "client_seeds": {},
        }
        assert round_.server_seed not in json.dumps(view)
    uth_bet_place(alice, table.pk, "ante", 100, now=clock.now)
    clock.tick(15)  # dealt
    for phase in ("preflop", "flop", "river"):
        assert current_round(table).phase == phase
        view = snapshot(table, alice)
        assert view["round"]["fairness"]["commitment"] == round_.deck_commitment
        assert round_.server_seed not in json.dumps(view)
        assert round_.server_seed not in json.dumps(client.get(f"/api/uth/tables/{table.pk}/").json())
        assert round_.server_seed not in json.dumps(client.get("/api/uth/history/").json())
        clock.tick(10)
    assert current_round(table).phase == "settled"
    in_play_events = UthEvent.objects.filter(round=round_).exclude(kind="deck_revealed")
    for event in in_play_events:
        assert round_.server_seed not in json.dumps(event.payload)
        if "round" in event.payload:
            assert event.payload["round"]["fairness"]["commitment"] == round_.deck_commitment
