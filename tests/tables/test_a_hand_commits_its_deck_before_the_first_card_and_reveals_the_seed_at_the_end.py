"""Provably fair hands (issue 29) at a cash table: the commitment is in the event log before any card, the server
seed in no event until the hand has ended, and then revealed to each player dealt in, to them alone (the seed gives
every folded and mucked hole card: spectators and other players must not get it); the dealt deck is the one the seeds
give."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.cards import FULL_DECK, Card
from games.engine.fairness import commitment, deck_domain, derived_order
from games.models import Hand, HandEvent
from games.runtime.recovery import hand_cancel
from games.services import hand_start
from tests.tables.support import START, fold_to_the_end, open_table, player, seat_players

pytestmark = pytest.mark.django_db

CARD_KINDS = {"hole_cards_dealt", "deck_recorded", "street_dealt", "hand_shown"}


def kinds_of(hand: Hand) -> list[str]:
    return list(HandEvent.objects.filter(hand=hand).order_by("sequence").values_list("kind", flat=True))


def payloads_of(hand: Hand) -> list[dict[str, Any]]:
    return list(HandEvent.objects.filter(hand=hand).order_by("sequence").values_list("payload", flat=True))


def dealt_hand() -> tuple[Any, Hand]:
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1000)
    hand = hand_start(table, now=START)  # no injected shuffler: the production deal
    assert hand is not None
    hand.refresh_from_db()
    return table, hand


def test_the_commitment_comes_before_the_hand_starts_and_before_any_card() -> None:
    _table, hand = dealt_hand()
    kinds = kinds_of(hand)
    assert kinds[0] == "deck_committed"
    assert kinds[1] == "hand_started"
    assert CARD_KINDS & set(kinds)
    committed = HandEvent.objects.get(hand=hand, kind="deck_committed")
    assert committed.audience == "public"
    assert committed.payload["commitment"] == hand.deck_commitment
    assert committed.payload["domain"] == deck_domain(hand.table_id, hand.number)
    assert committed.payload["client_seeds"] == hand.client_seeds
    assert "server_seed" not in committed.payload


def test_the_server_seed_is_in_no_event_while_the_hand_runs() -> None:
    _table, hand = dealt_hand()
    assert len(hand.server_seed) == 64
    assert "deck_revealed" not in kinds_of(hand)
    assert not [payload for payload in payloads_of(hand) if hand.server_seed in str(payload)]


def test_the_seed_is_revealed_after_the_hand_ends_and_gives_the_dealt_deck() -> None:
    table, hand = dealt_hand()
    fold_to_the_end(table, now=START)
    hand.refresh_from_db()
    kinds = kinds_of(hand)
    assert kinds[-1] == "deck_revealed"
    assert kinds.index("hand_ended") < kinds.index("hand_settled") < kinds.index("deck_revealed")
    reveals = list(HandEvent.objects.filter(hand=hand, kind="deck_revealed").order_by("sequence"))
    players = {int(seat): data["user"] for seat, data in hand.participants.items()}
    assert {(row.private_to_seat, row.private_to_user_id) for row in reveals} == set(players.items())
    assert {row.audience for row in reveals} == {"seat"}
    assert {row.payload["server_seed"] for row in reveals} == {hand.server_seed}
    seed = bytes.fromhex(hand.server_seed)
    domain = deck_domain(hand.table_id, hand.number)
    assert commitment(domain, seed) == hand.deck_commitment
    client_seeds = {int(seat): bytes.fromhex(text) for seat, text in hand.client_seeds.items()}
    assert set(client_seeds) == {int(seat) for seat in hand.participants}
    assert [str(card) for card in derived_order(FULL_DECK, seed, client_seeds, domain)] == hand.deck


def test_the_seed_reaches_the_players_of_the_hand_and_nobody_else() -> None:
    from games.runtime.views import event_view

    table, hand = dealt_hand()
    fold_to_the_end(table, now=START)
    hand.refresh_from_db()
    bystander = player()
    players = [data["user"] for data in hand.participants.values()]
    rows = list(HandEvent.objects.filter(hand=hand).order_by("sequence"))

    for viewer in (None, bystander.pk):
        assert not [row for row in rows if hand.server_seed in str(event_view(row, viewer))]
    for viewer in players:
        assert len([row for row in rows if hand.server_seed in str(event_view(row, viewer))]) == 1


def test_a_cancelled_hand_reveals_its_seed_too() -> None:
    _table, hand = dealt_hand()
    assert hand_cancel(hand.pk)
    kinds = kinds_of(hand)
    assert kinds.index("hand_cancelled") < kinds.index("deck_revealed")


def test_each_hand_has_its_own_server_seed_and_commitment() -> None:
    table, first = dealt_hand()
    fold_to_the_end(table, now=START)
    second = hand_start(table, now=START)
    assert second is not None
    assert second.server_seed != first.server_seed
    assert second.deck_commitment != first.deck_commitment
    assert [Card.from_text(text) for text in second.deck] != [Card.from_text(text) for text in first.deck]
