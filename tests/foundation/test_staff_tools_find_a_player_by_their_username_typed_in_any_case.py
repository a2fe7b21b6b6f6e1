"""A username belongs to one account whatever its case (accounts 0004), so staff who type "ANNE" for the player
"anne" mean her, and at most one account can be meant. The staff tools looked players up in exact case and found
nobody: the payouts of an unresolved game's funds, muting a player's chat, proposing a ticket (and the ticket
service's check), the "player:<username>" search of the admin lists and the table-move search of the hand events.
Each now finds the player whatever the case typed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib import admin
from django.utils import timezone

from games.admin import HandEventAdmin
from games.models import ChatMute, HandEvent
from poker_site.accounts.roles import SUPPORT_STAFF
from poker_site.core.models import RuleChangeProposal
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in
from tests.tables.support import player
from tests.tournaments.tickets_support import series
from tournaments.services.tickets import TicketRequest, ticket_request_check
from tournaments.ticket_changes import ticket_target
from wallet.forms import ResolutionProposalForm
from wallet.models import Account
from wallet.services import player_cash_account

pytestmark = pytest.mark.django_db


def test_the_payouts_of_a_games_funds_name_a_player_in_any_case() -> None:
    anne = player("anne")

    form = ResolutionProposalForm({"payouts": "ANNE 6.00", "reason": "the table's server failed"})

    assert form.is_valid(), form.errors
    assert form.cleaned_data["payouts"] == [{"account": player_cash_account(anne).pk, "amount": 600}]


def test_support_mutes_a_players_chat_named_in_any_case() -> None:
    anne = player("anne")
    support = logged_in(staff_member(SUPPORT_STAFF, "sam"))

    answer = support.post("/admin/games/chatmute/add/", {"player": "Anne", "minutes": "45", "reason": "insults"})

    assert answer.status_code == 302
    assert ChatMute.objects.filter(player=anne).count() == 1


def test_support_proposes_a_ticket_for_a_player_named_in_any_case() -> None:
    anne = player("anne")
    support = logged_in(staff_member(SUPPORT_STAFF, "sam"))
    expires = (timezone.now() + timedelta(days=30)).strftime("%Y-%m-%d %H:%M:%S")

    answer = support.post(
        "/admin/tournaments/tournamentticket/issue/",
        {
            "username": "ANNE",
            "value": "11.00",
            "series": str(series().pk),
            "tournament": "",
            "expires_at": expires,
            "reason": "VIP promotion",
        },
    )

    assert answer.status_code == 302
    proposal = RuleChangeProposal.objects.get(kind="tournament_ticket")
    assert proposal.target == ticket_target(anne)


def test_the_ticket_service_finds_the_player_named_in_any_case() -> None:
    anne = player("anne")
    now = timezone.now()

    checked = ticket_request_check(TicketRequest("ANNE", 1_100, now + timedelta(days=1), series_id=series().pk), now)

    assert checked.user == anne


def test_an_admin_lists_player_search_finds_the_player_named_in_any_case() -> None:
    anne = player("anne")
    player("bob")
    support = logged_in(staff_member(SUPPORT_STAFF, "sam"))

    answer = support.get("/admin/wallet/account/", {"q": "player:ANNE"})

    assert answer.status_code == 200
    assert list(answer.context["cl"].result_list) == list(Account.objects.filter(owner=anne))


def test_the_hand_events_table_move_search_finds_the_player_named_in_any_case() -> None:
    anne = player("anne")
    events = HandEventAdmin(HandEvent, admin.site)

    found = events.player_filter(HandEvent.objects.all(), "ANNE")

    assert str(found.query) == str(HandEvent.objects.filter(kind="player_moved", payload__user_id=anne.pk).query)
