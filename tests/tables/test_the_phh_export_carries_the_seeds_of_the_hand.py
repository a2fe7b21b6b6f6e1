"""Provably fair hands (issue 29): a player's PHH export of an ended hand carries the commitment, the server seed and
the client seeds as user-defined fields; other players' unshown hole cards are written ``????``; a hand in play has
no export."""

from __future__ import annotations

import tomllib

import pytest
from django.test import Client

from games.engine.fairness import ALGORITHM, deck_domain
from games.services import hand_start
from tests.tables.support import START, fold_to_the_end, open_table, player, seat_players

pytestmark = pytest.mark.django_db


def test_the_export_of_an_ended_hand_carries_the_seeds_and_only_the_cards_the_player_saw() -> None:
    table = open_table()
    users = [player() for _ in range(3)]
    seat_players(table, users, 1000)
    hand = hand_start(table, now=START)
    assert hand is not None
    client = Client()
    client.force_login(users[0])
    assert client.get(f"/api/games/hands/{hand.pk}/phh/").status_code == 404  # in play: nothing to export yet

    fold_to_the_end(table, now=START)
    hand.refresh_from_db()
    response = client.get(f"/api/games/hands/{hand.pk}/phh/")

    assert response.status_code == 200
    fields = tomllib.loads(response.content.decode())
    assert fields["_fairness_algorithm"] == ALGORITHM
    assert fields["_fairness_domain"] == deck_domain(table.pk, hand.number)
    assert fields["_deck_commitment"] == hand.deck_commitment
    assert fields["_server_seed"] == hand.server_seed
    assert fields["_client_seeds"] == [f"{seat}:{seed}" for seat, seed in sorted(hand.client_seeds.items())]
    dealt = [line for line in fields["actions"] if line.startswith("d dh ")]
    mine = "".join(hand.deck[index] for index in _hole_positions(fields["seats"], 1))
    assert sum(1 for line in dealt if line.endswith("????")) == 2  # nobody showed at the end of a fold
    assert [line for line in dealt if not line.endswith("????")] == [f"d dh p{fields['seats'].index(1) + 1} {mine}"]


def test_another_players_hand_has_no_export() -> None:
    table = open_table()
    users = [player() for _ in range(3)]
    seat_players(table, users, 1000)
    hand = hand_start(table, now=START)
    assert hand is not None
    fold_to_the_end(table, now=START)
    client = Client()
    client.force_login(player())
    assert client.get(f"/api/games/hands/{hand.pk}/phh/").status_code == 404


def _hole_positions(seats_in_dealing_order: list[int], seat: int) -> list[int]:
    index = seats_in_dealing_order.index(seat)
    return [index, index + len(seats_in_dealing_order)]
