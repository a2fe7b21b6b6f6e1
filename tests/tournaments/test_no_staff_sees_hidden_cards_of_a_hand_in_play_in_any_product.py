"""Nobody sees the hole cards or the coming board of a hand in play, staff of every role included, at cash tables,
tournament tables and HexaPro tables alike: not through the back office's hand and event pages, not through the
compliance desk's replayer, not through the REST hand replay (architecture rule 4, FRD-04, GEN-07). Once the hand is
over, the role table (docs/roles.md) applies: every role that reads hands (support staff, compliance reviewers,
administrators) sees the deck in the back office; the desk's replayer with every card is for compliance reviewers and
administrators, and support staff do not open the desk at all.

The UTH counterpart is tests/uth/test_no_staff_sees_the_dealers_cards_or_the_coming_board_of_a_round_in_play.py."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from games.models import Hand, HandEvent, HandStatus, Table
from games.services import hand_start
from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from tests.cards_on_pages import cards_shown
from tests.foundation.staff_roles import staff_member
from tests.tables.conftest import catalogue  # noqa: F401 (autouse: the cash tables' catalogue)
from tests.tables.support import deal, fold_to_the_end, open_table, player, seat_players
from tests.tournaments.hexapro_support import three_players_register
from tests.tournaments.support import START, open_tables, register_players, running_hand, sit_and_go
from tournaments.services import tournaments_advance_all

pytestmark = pytest.mark.django_db

ROLES = [SUPPORT_STAFF, COMPLIANCE_REVIEWERS, ADMINISTRATORS]
DESK_ROLES = {COMPLIANCE_REVIEWERS, ADMINISTRATORS}


def _cash_table() -> Table:
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1_000)
    deal(table)
    return table


def _tournament_table() -> Table:
    tournament = sit_and_go(3)
    register_players(tournament, 3)
    tournaments_advance_all(now=START, randomness=random.Random(1))
    (table,) = open_tables(tournament)
    if running_hand(table) is None:
        hand_start(table, now=START, shuffler=random.Random(1))
    return table


def _hexapro_table() -> Table:
    _, game = three_players_register(1_000, multiplier=30)
    (table,) = open_tables(game.tournament)
    if running_hand(table) is None:
        hand_start(table, now=START, shuffler=random.Random(1))
    return table


PRODUCTS: dict[str, Callable[[], Table]] = {
    "cash": _cash_table,
    "tournament": _tournament_table,
    "hexapro": _hexapro_table,
}


def _hand_in_play(product: str) -> Hand:
    """A hand of ``product`` dealt and still before the flop: not one of its cards is public yet."""
    hand = running_hand(PRODUCTS[product]())
    assert hand is not None
    assert hand.status == HandStatus.RUNNING
    assert not HandEvent.objects.filter(hand=hand, kind__in=("flop_dealt", "street_dealt")).exists()
    return hand


def _shown(client: Client, path: str) -> tuple[int, str]:
    response = client.get(path)
    return response.status_code, response.content.decode()


def _back_office_pages(hand: Hand) -> list[str]:
    return [
        f"/admin/games/hand/{hand.pk}/change/",
        f"/admin/games/hand/?q={hand.pk}",
        f"/admin/games/handevent/?q={hand.pk}",
        *(f"/admin/games/handevent/{event.pk}/change/" for event in HandEvent.objects.filter(hand=hand)),
    ]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("product", list(PRODUCTS))
def test_staff_of_every_role_see_no_card_of_a_hand_in_play(product: str, role: str, in_english: Any) -> None:
    hand = _hand_in_play(product)
    deck: list[str] = list(hand.deck)
    client = Client()
    client.force_login(staff_member(role))

    for path in _back_office_pages(hand):
        status, page = _shown(client, path)
        assert status == 200, path
        assert cards_shown(deck, page) == [], path
    desk_status, desk_page = _shown(client, f"/compliance/hands/{hand.pk}/")
    api_status, api_answer = _shown(client, f"/api/games/hands/{hand.pk}/")

    assert desk_status == (409 if role in DESK_ROLES else 403)
    assert cards_shown(deck, desk_page) == []
    assert api_status == 404
    assert cards_shown(deck, api_answer) == []


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("product", list(PRODUCTS))
def test_once_the_hand_is_over_each_role_sees_what_the_role_table_gives_it(
    product: str, role: str, in_english: Any
) -> None:
    hand = _hand_in_play(product)
    fold_to_the_end(hand.table)
    hand.refresh_from_db()
    assert hand.status == HandStatus.FINISHED
    hole_cards = [
        card
        for event in HandEvent.objects.filter(hand=hand, kind="hole_cards_dealt")
        for card in event.payload["cards"]
    ]
    client = Client()
    client.force_login(staff_member(role))

    _, hand_page = _shown(client, f"/admin/games/hand/{hand.pk}/change/")
    desk_status, desk_page = _shown(client, f"/compliance/hands/{hand.pk}/")

    assert "Hidden until the hand ends" not in hand_page
    assert all(f"&quot;{card}&quot;" in hand_page for card in hand.deck)
    if role in DESK_ROLES:
        assert desk_status == 200
        assert cards_shown(hole_cards, desk_page) == hole_cards
    else:
        assert desk_status == 403
        assert cards_shown(hole_cards, desk_page) == []
