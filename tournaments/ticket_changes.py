"""A tournament ticket issued by staff is money the house gives a player (TRN-37), so it needs two people (issue 30):
one staff member proposes it, another approves it, as a kind of rule of :mod:`poker_site.core.rule_changes`.

A proposal names the player (``accounts.user:<pk>``) and the ticket: ``value`` (cents), ``expires_at`` (ISO time with
its zone) and exactly one of ``series_id`` and ``tournament_id``. It is checked as the ticket service checks a
request (:func:`tournaments.services.tickets.ticket_request_check`), again at the approval, which issues the ticket
(:func:`tournaments.services.tickets.ticket_issue_approved`: the ledger transfer from the house's promotions, the
ticket's event and the audit entry naming both staff members) in its transaction. A ticket worth more than the
goodwill credit support may approve (``WALLET_ADJUSTMENT_SUPPORT_LIMITS["goodwill"]``) needs an administrator.
Holders of ``tournaments.manage_tickets`` (support staff, administrators) propose and approve, never their own.

Voiding a usable ticket takes its value from the player back to the house, so it is a proposal too
(:data:`TICKET_VOID`: target ``tournaments.tournamentticket:<pk>``, no fields), applied by
:func:`tournaments.services.tickets.ticket_void_approved` at the approval; a ticket worth more than support's
goodwill limit needs an administrator to approve its voiding as well.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from poker_site.core.models import RuleChangeProposal
from poker_site.core.rule_changes import (
    CheckedChange,
    RuleChangeRefused,
    RuleKind,
    owners_of,
    target_key,
    target_row,
)
from tournaments.models import USABLE_TICKET_STATUSES, TournamentTicket
from tournaments.services.errors import TournamentError
from tournaments.services.tickets import (
    TicketRequest,
    ticket_issue_approved,
    ticket_request_check,
    ticket_void_approved,
)
from wallet.errors import format_cents
from wallet.services.adjustments import support_limit

MANAGE_TICKETS = "tournaments.manage_tickets"
TARGET_PREFIX = "accounts.user:"
TICKET_FIELDS = ("value", "expires_at", "series_id", "tournament_id")


def ticket_target(user: Any) -> str:
    return f"{TARGET_PREFIX}{user.pk}"


def _request(target: str, changes: dict[str, Any]) -> TicketRequest:
    user = target_row(target, TARGET_PREFIX, get_user_model().objects.all(), "player")
    unknown = set(changes) - set(TICKET_FIELDS)
    if unknown:
        raise RuleChangeRefused(f"Not a field of a ticket: {', '.join(sorted(unknown))}.")
    expires = changes.get("expires_at")
    moment = parse_datetime(expires) if isinstance(expires, str) else None
    if moment is None or timezone.is_naive(moment):
        raise RuleChangeRefused("A ticket needs its expiry (a time with its time zone).")
    return TicketRequest(
        username=user.get_username(),
        value=changes.get("value"),  # type: ignore[arg-type]  # checked by ticket_request_check
        expires_at=moment,
        series_id=changes.get("series_id"),
        tournament_id=changes.get("tournament_id"),
    )


def ticket_change_check(target: str, changes: dict[str, Any]) -> CheckedChange:
    request = _request(target, changes)
    try:
        checked = ticket_request_check(request, timezone.now())
    except TournamentError as error:
        raise RuleChangeRefused(error.message) from error
    limit = support_limit("goodwill")
    over = limit is None or request.value > limit
    target_name = str(checked.tournament if checked.tournament is not None else checked.series)
    return CheckedChange(
        summary=f"a ticket worth {format_cents(request.value)} for {target_name} to {request.username}, "
        f"valid until {request.expires_at:%Y-%m-%d %H:%M %Z}",
        before={},
        changes={
            "value": request.value,
            "expires_at": request.expires_at.isoformat(),
            "series_id": request.series_id,
            "tournament_id": request.tournament_id,
        },
        needs_administrator=over,
        why_administrator=f"a ticket worth more than support's goodwill limit ({format_cents(limit or 0)})"
        if over
        else "",
    )


def ticket_change_apply(proposal: RuleChangeProposal, changes: dict[str, Any]) -> None:
    request = _request(proposal.target, changes)
    ticket_issue_approved(
        request,
        proposed_by=proposal.proposed_by,
        approved_by=proposal.decided_by,
        reason=proposal.reason,
        proposal=proposal.pk,
    )


def ticket_issue_concerns(target: str, changes: dict[str, Any]) -> list[int]:
    """The player who would get the ticket."""
    key = target_key(target, TARGET_PREFIX)
    return [key] if key is not None else []


TICKET_ISSUE = RuleKind(
    name="tournament_ticket",
    label="a tournament ticket given by the house",
    propose_permission=MANAGE_TICKETS,
    approve_permission=MANAGE_TICKETS,
    check=ticket_change_check,
    concerns=ticket_issue_concerns,
    apply_decided=ticket_change_apply,
    refusals=(TournamentError,),
)


VOID_TARGET_PREFIX = "tournaments.tournamentticket:"


def ticket_void_target(ticket: TournamentTicket) -> str:
    return f"{VOID_TARGET_PREFIX}{ticket.pk}"


def _usable_ticket(target: str) -> TournamentTicket:
    ticket = target_row(
        target, VOID_TARGET_PREFIX, TournamentTicket.objects.select_related("user", "series", "tournament"), "ticket"
    )
    if ticket.status not in USABLE_TICKET_STATUSES:
        raise RuleChangeRefused(f"Ticket {ticket.pk} is {ticket.get_status_display()}: only a usable ticket is voided.")
    return ticket


def ticket_void_check(target: str, changes: dict[str, Any]) -> CheckedChange:
    if changes:
        raise RuleChangeRefused("Voiding a ticket changes no field: send no changes.")
    ticket = _usable_ticket(target)
    limit = support_limit("goodwill")
    over = limit is None or ticket.value > limit
    return CheckedChange(
        summary=f"void ticket {ticket.pk} worth {format_cents(ticket.value)} of {ticket.user.get_username()} "
        f"(its value goes back to the house)",
        before={"status": ticket.status, "value": ticket.value},
        changes={},
        needs_administrator=over,
        why_administrator=f"a ticket worth more than support's goodwill limit ({format_cents(limit or 0)})"
        if over
        else "",
    )


def ticket_void_apply(proposal: RuleChangeProposal, changes: dict[str, Any]) -> None:
    ticket = _usable_ticket(proposal.target)
    ticket_void_approved(
        ticket.pk,
        actor=proposal.decided_by,
        reason=proposal.reason,
        proposed_by=proposal.proposed_by,
        proposal=proposal.pk,
    )


def ticket_void_concerns(target: str, changes: dict[str, Any]) -> list[int]:
    """The player whose ticket it is."""
    return owners_of(TournamentTicket.objects.all(), target, VOID_TARGET_PREFIX, "user_id")


TICKET_VOID = RuleKind(
    name="tournament_ticket_void",
    label="voiding a player's tournament ticket",
    propose_permission=MANAGE_TICKETS,
    approve_permission=MANAGE_TICKETS,
    check=ticket_void_check,
    concerns=ticket_void_concerns,
    apply_decided=ticket_void_apply,
    refusals=(TournamentError,),
)
