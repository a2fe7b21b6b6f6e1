"""Issue 30, LOB-08: support answers every ticket from the player overview. It links to every list about the player
(balance and ledger, seats and sessions, hands and the table moves with their reasons, tournament registrations and
results, responsible-gaming limits and exclusions, holds, the audit entries about the player), each searched for the
player; a role sees only the lists it may open. Every list takes one search syntax: ``player:<name>`` or the bare
name. A refused page is a friendly 403."""

from __future__ import annotations

import pytest
from django.db import transaction

from games.models import HandEvent, Table
from games.runtime.events import NewEvent, events_append
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from tests.foundation.staff_roles import WITHOUT_A_ROLE
from tests.tables.support import open_table, player
from tests.tournaments.back_office import client_of
from wallet.models import Leg

pytestmark = pytest.mark.django_db

OVERVIEW = "/admin/compliance/playeroverview/{}/change/"


def overview_links(role: str, user: object) -> str:
    page = client_of(role).get(OVERVIEW.format(user.pk))  # type: ignore[attr-defined]
    assert page.status_code == 200
    return page.content.decode().replace("&amp;", "&")


def test_the_overview_links_support_to_every_list_about_the_player() -> None:
    alice = player("alice")

    text = overview_links(SUPPORT_STAFF, alice)

    for changelist in (
        "wallet/account",
        "wallet/leg",
        "wallet/transfer",
        "wallet/cashiertransaction",
        "games/seat",
        "games/tablesession",
        "games/hand",
        "games/handevent",
        "tournaments/tournamententry",
        "responsible_gaming/depositlimitchange",
        "responsible_gaming/selfexclusion",
        "wallet/auditentry",
    ):
        assert f"/admin/{changelist}/?q=player%3Aalice" in text, changelist
    assert "/admin/wallet/hold/?q=player%3Aalice&status__exact=held" in text  # that a hold exists
    assert "why was I moved" in text


def test_a_role_sees_only_the_links_to_lists_it_may_open() -> None:
    alice = player("alice")

    page = client_of(WITHOUT_A_ROLE).get(OVERVIEW.format(alice.pk))

    assert page.status_code == 403
    assert "/admin/wallet/leg/?q=player%3Aalice" in overview_links(COMPLIANCE_REVIEWERS, alice)


@pytest.mark.parametrize("term", ["player:alice", "alice"])
def test_one_search_syntax_finds_the_players_rows_in_every_list(term: str) -> None:
    alice, _bob = player("alice", cash=1_250), player("bob", cash=700)
    support = client_of(SUPPORT_STAFF)

    legs = support.get("/admin/wallet/leg/", {"q": term})
    sessions = support.get("/admin/games/tablesession/", {"q": term})
    limits = support.get("/admin/responsible_gaming/depositlimitchange/", {"q": term})

    assert [leg.pk for leg in legs.context["cl"].result_list] == list(
        Leg.objects.filter(account__owner=alice).values_list("pk", flat=True)
    )
    assert sessions.status_code == limits.status_code == 200


def test_a_bare_term_that_is_nobodys_name_searches_the_lists_own_fields() -> None:
    table = open_table("holdem", "NL10")
    support = client_of(SUPPORT_STAFF)

    found = support.get("/admin/games/seat/", {"q": table.name})

    assert found.status_code == 200
    assert {seat.table_id for seat in found.context["cl"].result_list} == {table.pk}


def test_why_was_i_moved_is_answered_from_the_players_table_move_events() -> None:
    alice, bob = player("alice"), player("bob")
    table = open_table("holdem", "NL10")
    with transaction.atomic():
        events_append(
            Table.objects.select_for_update().get(pk=table.pk),
            [
                NewEvent(
                    "player_moved",
                    {"seat": 3, "user_id": user.pk, "to_table": 77, "reason": "balancing", "message": message},
                )
                for user, message in ((alice, "Moved to balance the tables."), (bob, "Table broken."))
            ],
        )

    page = client_of(SUPPORT_STAFF).get("/admin/games/handevent/", {"q": "player:alice"})

    events = list(page.context["cl"].result_list)
    assert [event.payload["user_id"] for event in events] == [alice.pk]
    assert "is moved to table #77 (balancing): Moved to balance the tables." in page.content.decode()
    assert HandEvent.objects.filter(kind="player_moved").count() == 2


def test_a_refused_page_is_a_friendly_403_without_a_traceback() -> None:
    page = client_of(SUPPORT_STAFF, "sam").get("/admin/compliance/flag/")

    assert page.status_code == 403
    text = page.content.decode()
    assert "This page is not open to you" in text
    assert "signed in as sam" in text
    assert "ask an administrator" in text
    assert "Traceback" not in text
