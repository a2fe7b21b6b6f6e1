"""Provably fair hands (issue 29) on the tournament products: a Sit & Go, a scheduled tournament and a HexaPro game
deal through the shared table runtime, so each hand's commitment comes before any card and its seed is revealed
after its end. (Nobody has a socket open here, so every player is acted for at once and the hand ends at its start,
TRN-04.)"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games.engine.cards import FULL_DECK
from games.engine.fairness import commitment, deck_domain, derived_order
from games.models import Hand, HandEvent, Table
from games.services import hand_start
from tests.tournaments.hexapro_support import three_players_register
from tests.tournaments.support import START, open_tables, register_players, scheduled, sit_and_go
from tournaments.services import tournaments_advance_all

pytestmark = pytest.mark.django_db

CARD_KINDS = {"hole_cards_dealt", "deck_recorded", "street_dealt", "hand_shown"}


def assert_committed_before_cards_and_revealed_after_the_end(table: Table) -> None:
    hand = hand_start(table, now=START + timedelta(hours=2))
    assert hand is not None
    hand = Hand.objects.get(pk=hand.pk)
    assert hand.status == "finished"
    kinds = list(HandEvent.objects.filter(hand=hand).order_by("sequence").values_list("kind", flat=True))
    first_card = min(kinds.index(kind) for kind in CARD_KINDS if kind in kinds)
    assert kinds.index("deck_committed") < kinds.index("hand_started") < first_card
    assert kinds.index("hand_ended") < kinds.index("deck_revealed")
    (seed_text,) = {row.payload["server_seed"] for row in HandEvent.objects.filter(hand=hand, kind="deck_revealed")}
    seed = bytes.fromhex(seed_text)
    domain = deck_domain(table.pk, hand.number)
    assert commitment(domain, seed) == hand.deck_commitment
    client_seeds = {int(seat): bytes.fromhex(text) for seat, text in hand.client_seeds.items()}
    assert [str(card) for card in derived_order(FULL_DECK, seed, client_seeds, domain)] == hand.deck


def test_a_sit_and_go_hand(absent_everywhere: Any) -> None:
    tournament = sit_and_go(seats=3)
    register_players(tournament, 3)
    (table,) = open_tables(tournament)
    assert_committed_before_cards_and_revealed_after_the_end(table)


def test_a_scheduled_tournament_hand(absent_everywhere: Any) -> None:
    tournament = scheduled(starts_at=START + timedelta(minutes=5))
    register_players(tournament, 4)
    tournaments_advance_all(now=START + timedelta(minutes=6))
    (table,) = open_tables(tournament)
    assert_committed_before_cards_and_revealed_after_the_end(table)


def test_a_hexapro_game_hand(absent_everywhere: Any) -> None:
    _users, game = three_players_register(1_000, multiplier=30)
    (table,) = open_tables(game.tournament)
    assert_committed_before_cards_and_revealed_after_the_end(table)
