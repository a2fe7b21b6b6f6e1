"""Tournament tickets and satellite seats (TRN-10, TRN-11, TRN-37, AMB-54, FEE-04).

A ticket is money-equivalent, so its value lives in the ledger: each ticket has its own ``tournament_ticket`` account
(``ticket:<id>``, owned by the player) that holds the value while the ticket is usable, and every change of the
ticket is one idempotent transfer plus one :class:`~tournaments.models.TournamentTicketEvent` (its audit trail):

* issued — won in a satellite: from the satellite's prize pool (:func:`satellite_seat_award_locked`); by staff: from
  the house's promotions (guarantee) account, proposed by one staff member and approved by another (issue 30,
  :mod:`tournaments.ticket_changes`, :func:`ticket_issue_approved`, audited);
* used — it pays a registration: to the target's prize pool and the house fees, as buy-in and fee (FEE-04);
* returned — unregistration or a cancellation before the start gives the value back to the ticket (TRN-10, CXL-02),
  and the ticket is usable again; so does the cancellation of a Phase 2 before its start for the ticket that paid a
  flight entry (TRN-45, :func:`ticket_return_from_phase_two_locked`);
* expired / voided — the value goes back to the house's promotions account (:func:`tickets_expire`,
  :func:`ticket_void`).

A ticket pays a tournament when it is the player's own, usable (available or returned), not past its expiry, valid
for that tournament (issued for it, or for its series) and worth exactly its buy-in + fee (AMB-54: valid for the same
series and buy-in level). Every refusal is a :class:`TicketRefused` that says why, and nothing changes.

Satellites (TRN-37): the best ``satellite_seats`` places of a satellite each win a ticket worth the target's buy-in +
fee for the target tournament (or its series). When the target still takes the winner (registration open; running in
late registration; or, AMB-54 / TRN-11, running and its late registration closed only after the satellite began) the
ticket pays the winner's registration at once and a running target seats them. A winner who unregisters gets the
ticket back instead of the seat (TRN-10).

Locks: a tournament row before its entries and tables (as every tournament service), then the ticket row, wallet
accounts last.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone

from poker_site.accounts.models import username_without_case
from tournaments.models import (
    USABLE_TICKET_STATUSES,
    EntryStatus,
    TicketStatus,
    Tournament,
    TournamentEntry,
    TournamentSeries,
    TournamentStatus,
    TournamentTicket,
    TournamentTicketEvent,
)
from tournaments.services import money
from tournaments.services.errors import InvalidRequest, TournamentError
from tournaments.services.running import primary_key, tournament_lock
from tournaments.services.staff import staff_reason
from wallet.models import Account, AccountKind, Transfer
from wallet.services import TransferKind, TransferLeg, reference_account, system_account, transfer_create
from wallet.services.audit import audit_record
from wallet.services.ledger import MAX_AMOUNT_CENTS

TICKET_VALID_FOR = timedelta(days=90)
"""How long a ticket won in a satellite stays valid (staff choose the expiry of the tickets they issue)."""

TICKET_TRANSFER = "tournament_ticket"
"""The ledger transfer kind of a ticket's issue, expiry and void (paying and refunding use the tournament kinds)."""


class TicketRefused(TournamentError):
    """A ticket cannot be used or changed as asked; nothing changed."""

    code = "ticket_refused"


def _format(cents: int) -> str:
    return f"€{cents // 100:,}.{cents % 100:02d}"


def ticket_account(ticket: TournamentTicket) -> Account:
    """The ledger account holding the ticket's value while it is usable."""
    return reference_account(AccountKind.TOURNAMENT_TICKET, f"ticket:{ticket.pk}", owner=ticket.user)


def promotions_account() -> Account:
    """Where staff-issued tickets are funded from and expired or voided tickets' value goes (the house's guarantees
    and added money account, which may go negative)."""
    return system_account(AccountKind.HOUSE_GUARANTEE)


def _event(
    ticket: TournamentTicket,
    action: str,
    *,
    at: datetime,
    actor: Any = None,
    entry: TournamentEntry | None = None,
    transfer: Transfer | None = None,
    reason: str = "",
) -> None:
    TournamentTicketEvent.objects.create(
        ticket=ticket,
        action=action,
        at=at,
        actor=actor,
        entry=entry,
        transfer=transfer,
        status_after=ticket.status,
        reason=reason[:300],
    )


def _status_set(ticket: TournamentTicket, status: str) -> None:
    ticket.status = status
    ticket.version += 1
    ticket.save(update_fields=["status", "version"])


def ticket_valid_for(ticket: TournamentTicket, tournament: Tournament) -> bool:
    """Whether the ticket is for ``tournament``: issued for it, or for its series."""
    if ticket.tournament_id is not None:
        return ticket.tournament_id == tournament.pk
    return ticket.series_id is not None and ticket.series_id == tournament.series_id


def usable_tickets(user: Any, now: datetime | None = None) -> list[TournamentTicket]:
    """The player's usable tickets, soonest expiry first (what "Your tickets" shows)."""
    moment = now or timezone.now()
    return list(
        TournamentTicket.objects.filter(user=user, status__in=USABLE_TICKET_STATUSES, expires_at__gt=moment)
        .select_related("series", "tournament")
        .order_by("expires_at", "pk")
    )


def tickets_for(user: Any, tournament: Tournament, now: datetime | None = None) -> list[TournamentTicket]:
    """The player's usable tickets that pay ``tournament`` (its own or its series', worth its buy-in + fee)."""
    if tournament.entry_price == 0:
        return []
    return [
        ticket
        for ticket in usable_tickets(user, now)
        if ticket_valid_for(ticket, tournament) and ticket.value == tournament.entry_price
    ]


def ticket_lock(ticket_id: object) -> TournamentTicket:
    if type(ticket_id) is not int or ticket_id <= 0:
        raise TicketRefused(f"A ticket is given by its number, not {ticket_id!r}.")
    ticket = TournamentTicket.objects.select_for_update().filter(pk=ticket_id).first()
    if ticket is None:
        raise TicketRefused(f"There is no ticket {ticket_id}.")
    return ticket


def ticket_check_for(ticket: TournamentTicket, user: Any, tournament: Tournament, now: datetime) -> None:
    """Refuse a ticket that cannot pay ``user``'s registration for ``tournament`` at ``now`` (see the module
    docstring), saying why."""
    if ticket.user_id != getattr(user, "pk", None):
        raise TicketRefused(f"Ticket {ticket.pk} is not yours.")
    if ticket.status == TicketStatus.USED:
        raise TicketRefused(f"Ticket {ticket.pk} has already been used.")
    if ticket.status == TicketStatus.VOID:
        raise TicketRefused(f"Ticket {ticket.pk} was voided.")
    if ticket.status == TicketStatus.EXPIRED or ticket.expires_at <= now:
        raise TicketRefused(f"Ticket {ticket.pk} expired at {ticket.expires_at:%Y-%m-%d %H:%M} UTC.")
    if not ticket_valid_for(ticket, tournament):
        raise TicketRefused(f"Ticket {ticket.pk} is for {ticket.target_name}, not for {tournament.name}.")
    if ticket.value != tournament.entry_price:
        raise TicketRefused(
            f"Ticket {ticket.pk} is worth {_format(ticket.value)}; {tournament.name} costs "
            f"{_format(tournament.entry_price)}."
        )


def ticket_spend_locked(ticket: TournamentTicket, entry: TournamentEntry, now: datetime) -> Transfer:
    """Pay ``entry`` (buy-in and fee, FEE-04) with the checked, locked ``ticket``: its value to the prize pool and
    the house fees."""
    transfer = transfer_create(
        kind=TransferKind.TOURNAMENT_BUY_IN,
        legs=money._entry_legs(entry, ticket_account(ticket), -1),
        idempotency_key=f"tournament-ticket:{ticket.pk}:spend:entry:{entry.pk}",
        reference=f"tournament-entry:{entry.pk}",
        description=(
            f"{entry.tournament.name}: buy-in {_format(entry.prize_contribution)} + fee {_format(entry.fee)} "
            f"paid with ticket {ticket.pk}"
        ),
    )
    _status_set(ticket, TicketStatus.USED)
    _event(ticket, "used", at=now, entry=entry, transfer=transfer)
    return transfer


def ticket_return_locked(entry: TournamentEntry, why: str, now: datetime | None = None) -> Transfer:
    """A registration paid with a ticket is refunded to the ticket, which is usable again (TRN-10, CXL-02)."""
    assert entry.paid_with_ticket_id is not None, "only a registration paid with a ticket returns one"
    ticket = TournamentTicket.objects.select_for_update().get(pk=entry.paid_with_ticket_id)
    transfer = transfer_create(
        kind=TransferKind.TOURNAMENT_REFUND,
        legs=money._entry_legs(entry, ticket_account(ticket), +1),
        idempotency_key=f"tournament-ticket:{ticket.pk}:return:entry:{entry.pk}",
        reference=f"tournament-entry:{entry.pk}",
        description=f"{entry.tournament.name}: {why}; ticket {ticket.pk} returned",
    )
    _status_set(ticket, TicketStatus.RETURNED)
    _event(ticket, "returned", at=now or timezone.now(), entry=entry, transfer=transfer, reason=why)
    return transfer


def ticket_return_from_phase_two_locked(
    phase_two: Tournament, entry: TournamentEntry, now: datetime | None = None
) -> Transfer:
    """TRN-45 / CXL-02: Phase 2 cancelled before its start gives a flight entry paid with a ticket its ticket back,
    usable again, as a cancellation before the start does for any ticket purchase. The flight's prize pool went to
    Phase 2, so the buy-in comes back from Phase 2's prize pool and the fee from the house fees: a ticket is worth a
    whole entry price (buy-in + fee) or pays nothing, so it cannot come back without its fee (a flight entry paid in
    cash gets its buy-in back and the flight's fee stays a fee)."""
    assert entry.paid_with_ticket_id is not None, "only a flight entry paid with a ticket returns one"
    ticket = TournamentTicket.objects.select_for_update().get(pk=entry.paid_with_ticket_id)
    why = f"{phase_two.name} (Phase 2) cancelled before the start"
    transfer = transfer_create(
        kind=TransferKind.TOURNAMENT_REFUND,
        legs=money._entry_legs(entry, ticket_account(ticket), +1, prize_pool=money.prize_pool_account(phase_two)),
        idempotency_key=f"tournament-ticket:{ticket.pk}:return:entry:{entry.pk}",
        reference=f"tournament-entry:{entry.pk}",
        description=f"{entry.tournament.name}: {why}; ticket {ticket.pk} returned",
    )
    _status_set(ticket, TicketStatus.RETURNED)
    _event(ticket, "returned", at=now or timezone.now(), entry=entry, transfer=transfer, reason=why)
    return transfer


def _value_leave(ticket: TournamentTicket, action: str, reason: str) -> Transfer:
    return transfer_create(
        kind=TICKET_TRANSFER,
        legs=[TransferLeg(ticket_account(ticket), -ticket.value), TransferLeg(promotions_account(), ticket.value)],
        idempotency_key=f"tournament-ticket:{ticket.pk}:{action}",
        reference=f"tournament-ticket:{ticket.pk}",
        description=f"Ticket {ticket.pk} {action}: {reason}"[:500],
    )


# ---------------------------------------------------------------------------------------------------------------------
# Staff: issue and void (audited)


@dataclass(frozen=True)
class TicketRequest:
    """What staff asked for, checked by :func:`ticket_request_check`."""

    username: str
    value: int
    expires_at: datetime
    series_id: int | None = None
    tournament_id: int | None = None


@dataclass(frozen=True)
class CheckedTicketRequest:
    """A staff request found sound by :func:`ticket_request_check`: the player and the ticket's target."""

    user: Any
    series: TournamentSeries | None
    tournament: Tournament | None


def ticket_request_check(request: TicketRequest, now: datetime) -> CheckedTicketRequest:
    """Refuse (``InvalidRequest``, saying why) a request with no such active player, a value that is not a whole
    positive number of cents within the ledger's limit, an expiry not after ``now``, or no target (exactly one of a
    series and a tournament, the tournament not over)."""
    user = get_user_model().objects.filter(username_without_case(request.username), is_active=True).first()
    if user is None:
        raise InvalidRequest(f"There is no active player {request.username!r}.")
    if type(request.value) is not int or not 0 < request.value <= MAX_AMOUNT_CENTS:
        raise InvalidRequest(f"A ticket's value is a whole positive number of cents, not {request.value!r}.")
    if not isinstance(request.expires_at, datetime) or request.expires_at <= now:
        raise InvalidRequest("A ticket's expiry must be in the future.")
    if (request.series_id is None) == (request.tournament_id is None):
        raise InvalidRequest("A ticket is for one series or for one tournament: choose exactly one.")
    series = tournament = None
    if request.series_id is not None:
        series = TournamentSeries.objects.filter(pk=request.series_id).first()
        if series is None:
            raise InvalidRequest(f"There is no series {request.series_id}.")
    else:
        tournament = Tournament.objects.filter(pk=int(request.tournament_id or 0)).first()
        if tournament is None:
            raise InvalidRequest(f"There is no tournament {request.tournament_id}.")
        if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            raise InvalidRequest(f"{tournament.name} is over: a ticket for it could never be used.")
    return CheckedTicketRequest(user, series, tournament)


def ticket_issue_approved(
    request: TicketRequest,
    *,
    proposed_by: Any,
    approved_by: Any,
    reason: str,
    proposal: int | None = None,
    now: datetime | None = None,
) -> TournamentTicket:
    """Give a player a ticket funded by the house (promotions), audited, once a second staff member approved it
    (issue 30: staff propose a ticket with :mod:`tournaments.ticket_changes`, whose approval calls this in its
    transaction). Not durable: the caller's transaction is the approval's. Refused as
    :func:`ticket_request_check` says, or without a reason."""
    text = staff_reason(reason)
    moment = now or timezone.now()
    checked = ticket_request_check(request, moment)
    ticket = TournamentTicket.objects.create(
        user=checked.user,
        value=request.value,
        series=checked.series,
        tournament=checked.tournament,
        expires_at=request.expires_at,
        created_at=moment,
        issued_by=proposed_by,
        reason=text,
    )
    transfer = transfer_create(
        kind=TICKET_TRANSFER,
        legs=[TransferLeg(promotions_account(), -ticket.value), TransferLeg(ticket_account(ticket), ticket.value)],
        idempotency_key=f"tournament-ticket:{ticket.pk}:issue",
        reference=f"tournament-ticket:{ticket.pk}",
        description=f"Ticket {ticket.pk} issued by staff for {ticket.target_name}",
        created_by=approved_by,
    )
    _event(ticket, "issued", at=moment, actor=approved_by, transfer=transfer, reason=text)
    audit_record(
        action="tournament_ticket_issued",
        actor=approved_by,
        player=checked.user,
        transfer=transfer,
        reason=text,
        target=f"tournaments.tournamentticket:{ticket.pk}",
        after={"value": ticket.value, "target": ticket.target_name, "expires_at": ticket.expires_at.isoformat()},
        details={
            "proposed_by": getattr(proposed_by, "username", None),
            "approved_by": getattr(approved_by, "username", None),
            "rule_change": proposal,
        },
    )
    return ticket


@transaction.atomic(durable=True)
def ticket_void(ticket_id: int, *, actor: Any, reason: str, now: datetime | None = None) -> TournamentTicket:
    """:func:`ticket_void_approved` in a transaction of its own (services and tests; staff go through a proposal)."""
    return ticket_void_approved(ticket_id, actor=actor, reason=reason, now=now)


def ticket_void_approved(
    ticket_id: int,
    *,
    actor: Any,
    reason: str,
    now: datetime | None = None,
    proposed_by: Any = None,
    proposal: int | None = None,
) -> TournamentTicket:
    """Staff void a usable ticket: its value goes back to the house (promotions), audited. A used, expired or voided
    ticket is refused (a used one is returned by unregistering or cancelling its registration first). Inside the
    caller's transaction. Staff reach this only through an approved proposal (:mod:`tournaments.ticket_changes`,
    issue 30): ``actor`` is the approver, ``proposed_by`` and ``proposal`` are written in the audit entry's details."""
    text = staff_reason(reason)
    moment = now or timezone.now()
    ticket = ticket_lock(ticket_id)
    if ticket.status not in USABLE_TICKET_STATUSES:
        raise TicketRefused(f"Ticket {ticket.pk} is {ticket.get_status_display()}: only a usable ticket is voided.")
    before = ticket.status
    transfer = _value_leave(ticket, "voided", text)
    _status_set(ticket, TicketStatus.VOID)
    _event(ticket, "voided", at=moment, actor=actor, transfer=transfer, reason=text)
    audit_record(
        action="tournament_ticket_voided",
        actor=actor,
        player=ticket.user,
        transfer=transfer,
        reason=text,
        details={"proposed_by": getattr(proposed_by, "pk", None), "proposal": proposal} if proposed_by else None,
        target=f"tournaments.tournamentticket:{ticket.pk}",
        before={"status": before},
        after={"status": ticket.status},
    )
    return ticket


def tickets_expire(now: datetime | None = None) -> int:
    """Expire every usable ticket past its expiry (the beat task): its value goes back to the house. One
    transaction per ticket; run twice, the second run changes nothing. Returns how many expired."""
    moment = now or timezone.now()
    expired = 0
    for ticket_id in TournamentTicket.objects.filter(
        status__in=USABLE_TICKET_STATUSES, expires_at__lte=moment
    ).values_list("pk", flat=True):
        expired += _ticket_expire(ticket_id, moment)
    return expired


@transaction.atomic(durable=True)
def _ticket_expire(ticket_id: int, now: datetime) -> bool:
    ticket = TournamentTicket.objects.select_for_update().filter(pk=ticket_id).first()
    if ticket is None or ticket.status not in USABLE_TICKET_STATUSES or ticket.expires_at > now:
        return False
    transfer = _value_leave(ticket, "expired", f"expired at {ticket.expires_at:%Y-%m-%d %H:%M} UTC")
    _status_set(ticket, TicketStatus.EXPIRED)
    _event(ticket, "expired", at=now, transfer=transfer)
    return True


# ---------------------------------------------------------------------------------------------------------------------
# Satellites


def is_satellite_seat(entry: TournamentEntry) -> bool:
    """Whether the entry's place wins a seat in its satellite's target (TRN-37)."""
    tournament = entry.tournament
    return (
        tournament.satellite_target_id is not None
        and entry.place is not None
        and entry.place <= tournament.satellite_seats
        and entry.prize > 0
    )


def satellite_target_closed(satellite: Tournament, now: datetime) -> bool:
    """Whether a satellite that has not started can no longer deliver its seats (TRN-37): its target is over, or has
    started and takes no more players (its late registration has closed), and the target belongs to no series — a
    seat in a series' tournament is still delivered as a ticket for the series (AMB-54). A satellite that began before
    that is governed by TRN-11 instead (:func:`target_takes_winner`)."""
    from tournaments.services.registration import registration_open_now

    if satellite.satellite_target_id is None or satellite.started_at is not None:
        return False
    target = Tournament.objects.get(pk=satellite.satellite_target_id)
    if target.series_id is not None:
        return False
    if target.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        return True
    return target.status == TournamentStatus.RUNNING and not registration_open_now(target, now)


def target_takes_winner(target: Tournament, satellite: Tournament, now: datetime) -> bool:
    """Whether a satellite winner is registered (or seated) in ``target`` at once: registration open, late
    registration open, or (TRN-11, AMB-54) the target running with its late registration closed only after the
    satellite began."""
    from tournaments.services.registration import registration_open_now

    if registration_open_now(target, now):
        return True
    return (
        target.status == TournamentStatus.RUNNING
        and target.registration_closed_at is not None
        and satellite.started_at is not None
        and target.registration_closed_at >= satellite.started_at
    )


def satellite_seat_award_locked(entry: TournamentEntry, now: datetime | None = None) -> Transfer:
    """Give the seat won by ``entry`` (locked by the caller, :func:`is_satellite_seat`): a ticket worth the prize for
    the target (or its series), funded from the satellite's prize pool; registered into the target at once when it
    takes the winner (:func:`target_takes_winner`), otherwise the ticket waits in the player's tickets. Returns the
    ticket's issue transfer (the entry's prize transfer)."""
    from tournaments.services.registration import registration_take_locked

    satellite = entry.tournament
    # TRN-11: the winners are seated "at the conclusion of the satellite", whenever this payment runs.
    moment = now or satellite.finished_at or timezone.now()
    target = tournament_lock(primary_key(satellite.satellite_target_id))
    ticket = TournamentTicket.objects.create(
        user=entry.user,
        value=entry.prize,
        series=target.series if target.series_id is not None else None,
        tournament=None if target.series_id is not None else target,
        expires_at=moment + TICKET_VALID_FOR,
        created_at=moment,
        won_in=entry,
        reason=f"Won in {satellite.name}, place {entry.place}",
    )
    transfer = transfer_create(
        kind=TransferKind.TOURNAMENT_PRIZE,
        legs=[
            TransferLeg(money.prize_pool_account(satellite), -entry.prize),
            TransferLeg(ticket_account(ticket), entry.prize),
        ],
        idempotency_key=f"tournament-entry:{entry.pk}:satellite-seat",
        reference=f"tournament-entry:{entry.pk}",
        description=f"{satellite.name}: place {entry.place} wins a seat in {target.name} (ticket {ticket.pk})",
    )
    _event(ticket, "issued", at=moment, entry=entry, transfer=transfer, reason=ticket.reason)
    if (
        target_takes_winner(target, satellite, moment)
        and ticket.value == target.entry_price
        and not TournamentEntry.objects.filter(
            tournament=target, user=entry.user, status__in=[EntryStatus.REGISTERED, EntryStatus.PLAYING]
        ).exists()
    ):
        try:
            with transaction.atomic():
                registration_take_locked(
                    target,
                    entry.user,
                    moment,
                    secrets.SystemRandom(),
                    ticket=ticket,
                    after_late_registration=True,
                )
        except TournamentError:
            pass  # the target cannot take them now (full, already played it): the ticket stays theirs
    return transfer


def tickets_outstanding() -> int:
    """The value of every usable ticket (cents): what the ticket accounts must hold together."""
    return int(
        TournamentTicket.objects.filter(status__in=USABLE_TICKET_STATUSES).aggregate(total=Sum("value"))["total"] or 0
    )


def tickets_reconcile() -> list[str]:
    """Every ticket whose account does not hold its value while usable (or holds anything once used, expired or
    voided), as a sentence; empty when the tickets and the ledger agree."""
    balances = dict(
        Account.objects.filter(kind=AccountKind.TOURNAMENT_TICKET, reference__startswith="ticket:").values_list(
            "reference", "balance"
        )
    )
    problems = []
    for ticket_id, status, value in TournamentTicket.objects.filter(~Q(value=0)).values_list("pk", "status", "value"):
        expected = value if status in USABLE_TICKET_STATUSES else 0
        held = balances.get(f"ticket:{ticket_id}", 0)
        if held != expected:
            problems.append(f"Ticket {ticket_id} ({status}) should hold {expected} cents; its account holds {held}.")
    return problems


__all__ = [
    "TICKET_VALID_FOR",
    "TicketRefused",
    "TicketRequest",
    "is_satellite_seat",
    "satellite_seat_award_locked",
    "target_takes_winner",
    "ticket_check_for",
    "ticket_issue_approved",
    "ticket_lock",
    "ticket_request_check",
    "ticket_return_locked",
    "ticket_spend_locked",
    "ticket_void",
    "tickets_expire",
    "tickets_for",
    "tickets_outstanding",
    "tickets_reconcile",
    "usable_tickets",
]
