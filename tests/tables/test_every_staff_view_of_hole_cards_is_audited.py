"""Issue 30 (LOB-10): every staff view of players' hole cards is written to the audit log — who, when, which hand,
on which page: the admin's hand page (the deck) and a private hand event's page once the hand is over, and the
compliance desk's replayer. A hand in play shows no cards, so its page writes nothing."""

from __future__ import annotations

import pytest

from games.models import HandEvent
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import HANDS, logged_in, support_agent
from tests.tables.support import deal, fold_to_the_end, open_table, player, seat_players
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db


def _views() -> list[tuple[str, int | None, str, str]]:
    return [
        (entry.target, entry.actor_id, entry.details["page"], entry.action)
        for entry in AuditEntry.objects.filter(action="hole_cards_viewed").order_by("pk")
    ]


def test_the_hand_page_of_an_ended_hand_records_who_saw_its_cards_and_a_running_one_records_nothing() -> None:
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1000)
    hand = deal(table)
    support = support_agent()
    staff = logged_in(support)

    assert staff.get(f"{HANDS}{hand.pk}/change/").status_code == 200
    assert _views() == []

    fold_to_the_end(table)
    assert staff.get(f"{HANDS}{hand.pk}/change/").status_code == 200
    assert _views() == [(f"games.hand:{hand.pk}", support.pk, "admin hand page (deck)", "hole_cards_viewed")]


def test_a_hole_card_event_page_of_an_ended_hand_is_recorded_and_a_public_event_is_not() -> None:
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1000)
    hand = deal(table)
    fold_to_the_end(table)
    support = support_agent()
    staff = logged_in(support)
    public = HandEvent.objects.filter(hand=hand, audience="public").first()
    assert public is not None
    assert staff.get(f"/admin/games/handevent/{public.pk}/change/").status_code == 200
    assert _views() == []

    hole_cards = HandEvent.objects.filter(hand=hand, kind="hole_cards_dealt").first()
    assert hole_cards is not None
    assert staff.get(f"/admin/games/handevent/{hole_cards.pk}/change/").status_code == 200
    assert _views() == [
        (f"games.hand:{hand.pk}", support.pk, "admin hand event page (hole_cards_dealt)", "hole_cards_viewed")
    ]


def test_the_compliance_replayer_records_the_reviewer_and_the_hand() -> None:
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1000)
    hand = deal(table)
    fold_to_the_end(table)
    reviewer = staff_member(COMPLIANCE_REVIEWERS, "rita")

    assert logged_in(reviewer).get(f"/compliance/hands/{hand.pk}/").status_code == 200

    assert _views() == [(f"games.hand:{hand.pk}", reviewer.pk, "compliance desk replayer", "hole_cards_viewed")]
