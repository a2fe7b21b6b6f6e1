"""The table page draws the viewer's first snapshot on the server: a spectator's page holds no hole card, a player's
page holds their own cards and nobody else's (architecture rule 4)."""

from __future__ import annotations

import json
import re
from typing import Any

from django.test import Client
from django.urls import reverse

from games.models import Table
from games.runtime.engine_state import hand_engine_state
from games.services import seat_take
from tests.pages.conftest import deal


def embedded_snapshot(body: str) -> dict[str, Any]:
    match = re.search(r'<script id="initial-snapshot" type="application/json">(.*?)</script>', body, re.S)
    assert match, "the page embeds its first snapshot"
    return dict(json.loads(match.group(1)))


def all_cards_in(value: Any) -> set[str]:
    text = json.dumps(value)
    return set(re.findall(r'"([2-9TJQKA][shdc])"', text))


def test_a_spectator_page_holds_no_hole_card_and_a_player_page_only_their_own(
    heads_up_table: Table, make_player: Any
) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    seat_take(alice, heads_up_table, 1000, seat_number=1)
    seat_take(bob, heads_up_table, 1000, seat_number=4)
    hand = deal(heads_up_table)
    state = hand_engine_state(hand)
    alice_cards = {str(card) for card in state.hole_cards(1)}
    bob_cards = {str(card) for card in state.hole_cards(4)}

    spectator = Client().get(reverse("games:table", args=[heads_up_table.pk]))
    assert spectator.status_code == 200
    body = spectator.content.decode()
    assert not all_cards_in(embedded_snapshot(body)) & (alice_cards | bob_cards)
    assert not any(card in body for card in (f'"{code}"' for code in alice_cards | bob_cards))

    client = Client()
    client.force_login(alice)
    snapshot = embedded_snapshot(client.get(reverse("games:table", args=[heads_up_table.pk])).content.decode())
    assert set(snapshot["viewer"]["hole_cards"]) == alice_cards
    assert not all_cards_in(snapshot) & bob_cards


def test_an_unknown_table_is_not_found(heads_up_table: Table) -> None:
    assert Client().get(reverse("games:table", args=[heads_up_table.pk + 1000])).status_code == 404
