"""Provably fair decks (issue 29): the back office's monthly deck audit runs a card-position chi-square test over the
committed decks of the month's hands, with the HexaPro multiplier audit's statistics code; derived decks pass, a
shuffle that favours some cards is flagged; staff without the hands' view permission are refused."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.engine.cards import FULL_DECK
from games.engine.fairness import deck_domain, derived_order
from games.fairness_audit import deck_audit, month_bounds
from games.models import Hand
from games.services import hand_start
from tests.tables.back_office import logged_in, support_agent
from tests.tables.support import START, fold_to_the_end, open_table, player, seat_players

pytestmark = pytest.mark.django_db

AUDIT = "/admin/games/hand/deck-audit/"
HANDS = 2_000


def months_of_hands(deck_of: object) -> Hand:
    """One real hand of March 2026, then ``HANDS`` copies with the decks ``deck_of(number)`` gives."""
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1000)
    hand = hand_start(table, now=START)
    assert hand is not None
    fold_to_the_end(table, now=START)
    hand.refresh_from_db()
    copies = []
    for number in range(2, HANDS + 2):
        copy = Hand.objects.get(pk=hand.pk)
        copy.pk = None
        copy.number = number
        copy.settlement = None
        copy.deck = deck_of(number)  # type: ignore[operator]
        copies.append(copy)
    Hand.objects.bulk_create(copies)
    return hand


def derived(number: int) -> list[str]:
    seed = hashlib.sha256(number.to_bytes(4, "big")).digest()
    return [str(card) for card in derived_order(FULL_DECK, seed, {1: b"x"}, deck_domain(1, number))]


def favouring_aces(number: int) -> list[str]:
    """Every fifth deck puts the ace of spades on top: a shuffle no audit should pass."""
    deck = derived(number)
    if number % 5 == 0:
        deck.remove("As")
        deck.insert(0, "As")
    return deck


def test_derived_decks_pass_every_position() -> None:
    months_of_hands(derived)
    audit = deck_audit(*month_bounds("2026-03", START.date()))
    assert audit.hands == HANDS + 1
    assert len(audit.positions) == 52
    assert all(position.test is not None for position in audit.positions)
    assert audit.flagged == ()
    assert month_bounds("2026-04", START.date()) == (
        datetime(2026, 4, 1, tzinfo=UTC).date(),
        datetime(2026, 5, 1, tzinfo=UTC).date(),
    )
    assert deck_audit(*month_bounds("2026-04", START.date())).hands == 0


def test_a_biased_shuffle_is_flagged_on_the_back_office_page() -> None:
    months_of_hands(favouring_aces)
    page = logged_in(support_agent()).get(AUDIT, {"month": "2026-03"})
    assert page.status_code == 200
    audit = page.context["audit"]
    assert [position.position for position in audit.flagged] == [1]
    body = page.content.decode()
    assert f"{HANDS + 1} hands from 2026-03-01" in body
    assert "1 position flagged" in body


def test_staff_without_the_hands_view_permission_are_refused() -> None:
    clerk = get_user_model().objects.create_user(username="clerk", password="x", is_staff=True)
    client = Client()
    client.force_login(clerk)
    assert client.get(AUDIT).status_code == 403
