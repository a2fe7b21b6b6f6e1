"""Issue 30 (TRN-37, LOB-10): a ticket staff give a player is house money, so it needs two people. One support agent
proposes it with a reason; no ticket and no transfer exist until another one approves, and then the ticket, its
ledger transfer from the house's promotions, its event and the audit rows are written in the approval's transaction.
The proposer never approves their own; compliance reviewers and staff without a role neither propose nor approve; a
ticket worth more than support's goodwill limit needs an administrator. Voiding a ticket (its value leaves the player)
takes the same two people."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone

from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from poker_site.core.models import RuleChangeProposal
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve, rule_change_propose
from tests.foundation.staff_roles import WITHOUT_A_ROLE, staff_member
from tests.tournaments.support import player
from tests.tournaments.tickets_support import assert_the_ledger_reconciles, series
from tournaments.models import TicketStatus, TournamentTicket, TournamentTicketEvent
from tournaments.services.tickets import promotions_account
from tournaments.ticket_changes import ticket_target, ticket_void_target
from wallet.models import AuditEntry, Transfer
from wallet.services import balance_of

pytestmark = pytest.mark.django_db

KIND = "tournament_ticket"
VOID = "tournament_ticket_void"


def _ticket(value: int = 1_100, **changes: Any) -> dict[str, Any]:
    return {
        "value": value,
        "expires_at": (timezone.now() + timedelta(days=30)).isoformat(),
        "series_id": series().pk,
        "tournament_id": None,
        **changes,
    }


def test_the_ticket_is_issued_only_when_a_second_support_agent_approves() -> None:
    alice = player()
    proposer, approver = staff_member(SUPPORT_STAFF, "sue"), staff_member(SUPPORT_STAFF, "sid")
    house_before = balance_of(promotions_account())
    transfers_before = Transfer.objects.count()
    proposal = rule_change_propose(proposer, KIND, ticket_target(alice), _ticket(), "VIP promotion")
    assert not TournamentTicket.objects.exists()
    assert Transfer.objects.count() == transfers_before

    with pytest.raises(RuleChangeRefused, match="second staff member"):
        rule_change_approve(proposal, proposer)
    assert not TournamentTicket.objects.exists()
    rule_change_approve(proposal, approver)

    ticket = TournamentTicket.objects.get(user=alice)
    assert (ticket.value, ticket.status, ticket.issued_by, ticket.reason) == (
        1_100,
        TicketStatus.AVAILABLE,
        proposer,
        "VIP promotion",
    )
    assert balance_of(promotions_account()) == house_before - 1_100
    assert TournamentTicketEvent.objects.get(ticket=ticket).actor == approver
    issued = AuditEntry.objects.get(action="tournament_ticket_issued")
    assert (issued.actor, issued.player, issued.details["proposed_by"]) == (approver, alice, "sue")
    assert issued.details["rule_change"] == proposal.pk
    assert [entry.action for entry in AuditEntry.objects.filter(target=ticket_target(alice)).order_by("pk")] == [
        "rule_change_proposed",
        "rule_change_approved",
    ]
    assert_the_ledger_reconciles()


@override_settings(WALLET_ADJUSTMENT_SUPPORT_LIMITS={"goodwill": 2_000})
def test_a_ticket_over_supports_goodwill_limit_needs_an_administrator() -> None:
    alice = player()
    proposal = rule_change_propose(staff_member(SUPPORT_STAFF, "sue"), KIND, ticket_target(alice), _ticket(2_001), "x")
    assert proposal.needs_administrator

    with pytest.raises(RuleChangeRefused, match="goodwill limit"):
        rule_change_approve(proposal, staff_member(SUPPORT_STAFF, "sid"))
    assert not TournamentTicket.objects.exists()
    rule_change_approve(proposal, staff_member(ADMINISTRATORS, "ada"))
    assert TournamentTicket.objects.get(user=alice).value == 2_001


@pytest.mark.parametrize("role", [COMPLIANCE_REVIEWERS, WITHOUT_A_ROLE])
def test_reviewers_and_staff_without_a_role_neither_propose_nor_approve(role: str) -> None:
    alice = player()
    other = staff_member(role, "other")
    with pytest.raises(RuleChangeRefused, match=r"tournaments\.manage_tickets"):
        rule_change_propose(other, KIND, ticket_target(alice), _ticket(), "x")
    proposal = rule_change_propose(staff_member(SUPPORT_STAFF, "sue"), KIND, ticket_target(alice), _ticket(), "x")
    with pytest.raises(RuleChangeRefused, match=r"tournaments\.manage_tickets"):
        rule_change_approve(proposal, other)
    assert not TournamentTicket.objects.exists()


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"value": 0}, "whole positive number of cents"),
        ({"expires_at": "2001-01-01T00:00:00+00:00"}, "in the future"),
        ({"tournament_id": 1}, "exactly one"),
        ({"series_id": 999_999}, "no series"),
        ({"colour": "gold"}, "Not a field of a ticket"),
    ],
)
def test_a_bad_ticket_is_refused_when_proposed(changes: dict[str, Any], says: str) -> None:
    alice = player()
    with pytest.raises(RuleChangeRefused, match=says):
        rule_change_propose(staff_member(SUPPORT_STAFF, "sue"), KIND, ticket_target(alice), _ticket(**changes), "x")
    assert not RuleChangeProposal.objects.exists()


def test_a_ticket_whose_expiry_passed_before_the_approval_is_refused_then() -> None:
    alice = player()
    soon = (timezone.now() + timedelta(seconds=1)).isoformat()
    proposal = rule_change_propose(
        staff_member(SUPPORT_STAFF, "sue"), KIND, ticket_target(alice), _ticket(expires_at=soon), "x"
    )
    with pytest.MonkeyPatch.context() as patch:
        later = timezone.now() + timedelta(minutes=1)
        patch.setattr(timezone, "now", lambda: later)
        with pytest.raises(RuleChangeRefused, match="in the future"):
            rule_change_approve(proposal, staff_member(SUPPORT_STAFF, "sid"))
    assert not TournamentTicket.objects.exists()


def _issued(value: int = 1_100) -> TournamentTicket:
    alice = player()
    names = f"issuer-{alice.pk}", f"admin-{alice.pk}"
    proposal = rule_change_propose(
        staff_member(SUPPORT_STAFF, names[0]), KIND, ticket_target(alice), _ticket(value), "x"
    )
    rule_change_approve(proposal, staff_member(ADMINISTRATORS, names[1]))
    return TournamentTicket.objects.get(user=alice)


@override_settings(WALLET_ADJUSTMENT_SUPPORT_LIMITS={"goodwill": 2_000})
def test_voiding_a_ticket_needs_a_second_staff_member_and_above_the_limit_an_administrator() -> None:
    """Voiding takes the ticket's value from the player back to the house: the same four eyes as giving it."""
    small, big = _issued(1_100), _issued(2_500)
    proposer, colleague = staff_member(SUPPORT_STAFF, "sam"), staff_member(SUPPORT_STAFF, "sid")
    house_before = balance_of(promotions_account())

    proposal = rule_change_propose(proposer, VOID, ticket_void_target(small), {}, "issued twice")
    assert TournamentTicket.objects.get(pk=small.pk).status == TicketStatus.AVAILABLE  # proposed, nothing voided
    with pytest.raises(RuleChangeRefused, match="second staff member"):
        rule_change_approve(proposal, proposer)
    rule_change_approve(proposal, colleague)
    assert TournamentTicket.objects.get(pk=small.pk).status == TicketStatus.VOID
    assert balance_of(promotions_account()) == house_before + 1_100
    entry = AuditEntry.objects.get(action="tournament_ticket_voided", target=f"tournaments.tournamentticket:{small.pk}")
    assert entry.actor == colleague
    assert entry.details["proposed_by"] == proposer.pk

    over = rule_change_propose(proposer, VOID, ticket_void_target(big), {}, "fraud")
    assert over.needs_administrator
    with pytest.raises(RuleChangeRefused, match="goodwill limit"):
        rule_change_approve(over, colleague)
    assert TournamentTicket.objects.get(pk=big.pk).status == TicketStatus.AVAILABLE
    rule_change_approve(over, staff_member(ADMINISTRATORS, "ada2"))
    assert TournamentTicket.objects.get(pk=big.pk).status == TicketStatus.VOID
    with pytest.raises(RuleChangeRefused, match="only a usable ticket is voided"):
        rule_change_propose(proposer, VOID, ticket_void_target(big), {}, "again")
    assert_the_ledger_reconciles()


@pytest.mark.parametrize("role", [COMPLIANCE_REVIEWERS, WITHOUT_A_ROLE])
def test_reviewers_and_staff_without_a_role_neither_propose_nor_approve_a_voiding(role: str) -> None:
    ticket = _issued()
    other = staff_member(role, "other")
    with pytest.raises(RuleChangeRefused, match=r"tournaments\.manage_tickets"):
        rule_change_propose(other, VOID, ticket_void_target(ticket), {}, "x")
    proposal = rule_change_propose(staff_member(SUPPORT_STAFF, "sam"), VOID, ticket_void_target(ticket), {}, "x")
    with pytest.raises(RuleChangeRefused, match=r"tournaments\.manage_tickets"):
        rule_change_approve(proposal, other)
    assert TournamentTicket.objects.get(pk=ticket.pk).status == TicketStatus.AVAILABLE
