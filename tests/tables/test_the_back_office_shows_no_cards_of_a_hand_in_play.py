"""Support staff see a hand's deck and hole cards in the back office only once the hand is over (architecture rule
4: a player's hole cards reach that player alone until a showdown; nobody sees the coming board)."""

from __future__ import annotations

import json

import pytest

from games.models import HandEvent
from tests.tables.back_office import HANDS, logged_in, support_agent
from tests.tables.support import deal, fold_to_the_end, open_table, player, seat_players

pytestmark = pytest.mark.django_db

EVENTS = "/admin/games/handevent/"


def _cards_of(hand: object) -> list[str]:
    return list(hand.deck)  # type: ignore[attr-defined]


def test_the_hand_page_hides_the_deck_while_the_hand_runs_and_shows_it_after() -> None:
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1000)
    hand = deal(table)
    staff = logged_in(support_agent())
    deck_as_shown = json.dumps(list(hand.deck)).replace('"', "&quot;")  # the read-only JSON field, escaped

    while_running = staff.get(f"{HANDS}{hand.pk}/change/")

    assert while_running.status_code == 200
    assert "Hidden until the hand ends" in while_running.content.decode()
    assert deck_as_shown not in while_running.content.decode()

    fold_to_the_end(table)
    after = staff.get(f"{HANDS}{hand.pk}/change/")
    assert "Hidden until the hand ends" not in after.content.decode()
    assert deck_as_shown in after.content.decode()


@pytest.mark.parametrize("kind", ["hole_cards_dealt", "deck_recorded"])
def test_hole_card_and_deck_events_hide_their_payload_while_the_hand_runs(kind: str) -> None:
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1000)
    hand = deal(table)
    event = HandEvent.objects.filter(hand=hand, kind=kind).order_by("sequence").first()
    assert event is not None
    staff = logged_in(support_agent())

    payload = json.dumps(event.payload)
    cards_in_it = [f"&quot;{card}&quot;" for card in _cards_of(hand) if f'"{card}"' in payload]
    assert cards_in_it

    while_running = staff.get(f"{EVENTS}{event.pk}/change/").content.decode()

    assert "Hidden until the hand ends" in while_running
    assert not [card for card in cards_in_it if card in while_running]
    fold_to_the_end(table)
    after = staff.get(f"{EVENTS}{event.pk}/change/").content.decode()
    assert "Hidden until the hand ends" not in after
    assert [card for card in cards_in_it if card in after]


def test_a_public_event_of_a_running_hand_shows_its_payload() -> None:
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1000)
    hand = deal(table)
    event = HandEvent.objects.filter(hand=hand, audience="public").order_by("sequence").first()
    assert event is not None
    page = logged_in(support_agent()).get(f"{EVENTS}{event.pk}/change/").content.decode()
    assert "Hidden until the hand ends" not in page
