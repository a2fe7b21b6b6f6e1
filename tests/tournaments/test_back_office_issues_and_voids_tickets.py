"""Staff and tickets in the back office (TRN-37, LOB-08, LOB-10): support proposes a ticket on its page, issued when a
second support agent approves it (issue 30), and voids it with the list's action, both audited and through the
ledger; a compliance reviewer reads tickets but may do neither; bad input on the issue page is refused in words and
changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from poker_site.core.models import RuleChangeProposal
from tests.tournaments.back_office import client_of
from tests.tournaments.support import player
from tests.tournaments.tickets_support import assert_the_ledger_reconciles, series
from tournaments.models import TicketStatus, TournamentTicket
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db

TICKETS = "/admin/tournaments/tournamentticket/"
PROPOSALS = "/admin/core/rulechangeproposal/"
ISSUE = TICKETS + "issue/"


def issue_form(player_name: str, **changes: str) -> dict[str, str]:
    values = {
        "username": player_name,
        "value": "11.00",
        "series": str(series().pk),
        "tournament": "",
        "expires_at": (timezone.now() + timedelta(days=30)).strftime("%Y-%m-%d %H:%M:%S"),
        "reason": "VIP promotion",
    }
    values.update(changes)
    return values


def test_support_issues_a_ticket_and_voids_it_both_audited() -> None:
    support = client_of(SUPPORT_STAFF)
    alice = player()
    assert "Issue a ticket" in support.get(TICKETS).content.decode()
    answer = support.post(ISSUE, issue_form(alice.username))
    assert answer.status_code == 302
    assert not TournamentTicket.objects.exists()  # proposed: a second staff member approves it
    proposal = RuleChangeProposal.objects.get(kind="tournament_ticket")
    approver = client_of(SUPPORT_STAFF, "second-agent")
    assert approver.post(f"{PROPOSALS}{proposal.pk}/approve/", {"note": ""}).status_code == 302
    ticket = TournamentTicket.objects.get(user=alice)
    assert (ticket.value, ticket.status, ticket.reason) == (1_100, TicketStatus.AVAILABLE, "VIP promotion")
    assert AuditEntry.objects.filter(action="tournament_ticket_issued", player=alice).count() == 1
    page = support.get(f"{TICKETS}{ticket.pk}/change/").content.decode()
    assert "issued" in page
    support.post(
        TICKETS,
        {"action": "void_tickets", "_selected_action": [ticket.pk], "confirm": "yes", "reason": "sent by mistake"},
    )
    # Voiding takes the ticket's value from the player: proposed here, voided when a second staff member approves.
    assert TournamentTicket.objects.get(pk=ticket.pk).status == TicketStatus.AVAILABLE
    void = RuleChangeProposal.objects.get(kind="tournament_ticket_void")
    assert support.post(f"{PROPOSALS}{void.pk}/approve/", {"note": ""}).status_code != 302  # never their own
    assert TournamentTicket.objects.get(pk=ticket.pk).status == TicketStatus.AVAILABLE
    assert approver.post(f"{PROPOSALS}{void.pk}/approve/", {"note": ""}).status_code == 302
    assert TournamentTicket.objects.get(pk=ticket.pk).status == TicketStatus.VOID
    voided = AuditEntry.objects.get(action="tournament_ticket_voided", reason="sent by mistake")
    assert voided.actor is not None
    assert voided.actor.username == "second-agent"
    assert voided.details["proposal"] == void.pk
    assert_the_ledger_reconciles()


def test_a_reviewer_reads_tickets_but_may_not_issue_or_void() -> None:
    reviewer = client_of(COMPLIANCE_REVIEWERS)
    alice = player()
    assert reviewer.get(TICKETS).status_code == 200
    assert "Issue a ticket" not in reviewer.get(TICKETS).content.decode()
    assert reviewer.post(ISSUE, issue_form(alice.username)).status_code == 403
    assert not TournamentTicket.objects.exists()


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"value": "-5"}, "amount"),
        ({"value": "abc"}, "amount"),
        ({"username": "nobody"}, "no active player"),
        ({"reason": ""}, "required"),
        ({"expires_at": "2001-01-01 00:00:00"}, "in the future"),
        ({"tournament": "12"}, "exactly one"),
    ],
)
def test_bad_input_on_the_issue_page_is_refused_and_changes_nothing(changes: dict[str, str], says: str) -> None:
    support = client_of(SUPPORT_STAFF)
    alice = player()
    answer = support.post(ISSUE, issue_form(alice.username, **changes))
    assert answer.status_code == 200
    assert says in answer.content.decode()
    assert not TournamentTicket.objects.exists()
    assert not RuleChangeProposal.objects.exists()
    assert not AuditEntry.objects.filter(action="tournament_ticket_issued").exists()
