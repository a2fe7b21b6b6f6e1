"""The table snapshot of a hand in play carries the hand's deck commitment as its public ``deck_committed`` event
published it (algorithm, domain, commitment, client seeds), so a table page opened or reloaded during the hand can
show and keep the commitment before the hand ends (docs/fairness.md "Verifying a hand"; QA report G, finding 2); to a
spectator and to a player alike it never holds the server seed (docs/fairness.md "Who receives the seed", GEN-07). A
hand dealt without a commitment (an injected test shuffler) has none."""

from __future__ import annotations

import json

import pytest

from games.models import HandEvent
from games.runtime.views import table_snapshot
from games.services import hand_start
from tests.tables.support import START, deal, open_table, player, seat_players

pytestmark = pytest.mark.django_db


def test_a_hand_in_play_shows_the_published_commitment_to_players_and_spectators_without_the_seed() -> None:
    table = open_table()
    users = [player() for _ in range(3)]
    seat_players(table, users, 1000)
    hand = hand_start(table, now=START)  # the production deal: a committed deck
    assert hand is not None
    hand.refresh_from_db()
    published = HandEvent.objects.get(hand=hand, kind="deck_committed").payload

    for viewer in (None, users[0]):
        snapshot = table_snapshot(table, viewer)
        fairness = snapshot["hand"]["fairness"]
        assert fairness == {key: published[key] for key in ("algorithm", "domain", "commitment", "client_seeds")}
        assert fairness["commitment"] == hand.deck_commitment
        assert hand.server_seed not in json.dumps(snapshot)


def test_a_hand_dealt_without_a_commitment_has_none_in_the_snapshot() -> None:
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1000)
    deal(table)  # an injected shuffler: no provably fair deck
    assert table_snapshot(table, None)["hand"]["fairness"] is None
