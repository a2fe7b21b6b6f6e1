"""A ticket's life through the ledger (TRN-10, TRN-37, FEE-04): staff issue it from the house's promotions account
(audited), it pays buy-in and fee as two amounts, unregistering returns it, staff void it or it expires, its value
going back to the house; every change is in its audit trail, and the ledger reconciles after each."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.tournaments.support import START, cash, player, scheduled
from tests.tournaments.tickets_support import assert_the_ledger_reconciles, series, staff_member, ticket_for
from tournaments.models import EntryStatus, TicketStatus, TournamentEntry, TournamentTicket
from tournaments.services import tournament_register, tournament_unregister, tournaments_advance_all
from tournaments.services.tickets import ticket_void, tickets_expire, tickets_for, usable_tickets
from wallet.models import Account, AccountKind, AuditEntry

pytestmark = pytest.mark.django_db


def account_of(ticket: TournamentTicket) -> Account:
    return Account.objects.get(kind=AccountKind.TOURNAMENT_TICKET, reference=f"ticket:{ticket.pk}")


def test_staff_issue_a_ticket_funded_by_the_house_and_audited() -> None:
    alice = player()
    ticket = ticket_for(alice, series_row=series())
    assert account_of(ticket).balance == 1_100
    assert account_of(ticket).owner_id == alice.pk
    audit = AuditEntry.objects.get(action="tournament_ticket_issued")
    # Issue 30: issued on a second staff member's approval; the entry names the approver and the proposer.
    assert (audit.actor, audit.player, audit.reason) == (staff_member("ticket-approver"), alice, "promotion")
    assert audit.details["proposed_by"] == staff_member().username
    assert audit.target == f"tournaments.tournamentticket:{ticket.pk}"
    assert [event.action for event in ticket.events.all()] == ["issued"]
    assert_the_ledger_reconciles()


def test_a_ticket_pays_buy_in_and_fee_as_two_amounts_and_unregistering_returns_it_trn_10_fee_04() -> None:
    sunday = series()
    target = scheduled(buy_in=1_000, fee=100, series=sunday)
    alice = player()
    ticket = ticket_for(alice, series_row=sunday)
    assert tickets_for(alice, target, START) == [ticket]
    entry = tournament_register(alice, target, now=START, ticket=ticket.pk)
    legs = {leg.account.kind: leg.amount for leg in entry.registration_transfer.legs.select_related("account")}
    assert legs == {
        AccountKind.TOURNAMENT_TICKET: -1_100,
        AccountKind.TOURNAMENT_PRIZE_POOL: 1_000,
        AccountKind.HOUSE_FEES: 100,
    }
    assert cash(alice) == 100_000
    assert account_of(ticket).balance == 0
    assert_the_ledger_reconciles()
    tournament_unregister(alice, target, now=START)
    ticket.refresh_from_db()
    assert ticket.status == TicketStatus.RETURNED
    assert account_of(ticket).balance == 1_100
    assert cash(alice) == 100_000  # the refund is the ticket, not money
    assert TournamentEntry.objects.get(pk=entry.pk).status == EntryStatus.UNREGISTERED
    assert [event.action for event in ticket.events.order_by("pk")] == ["issued", "used", "returned"]
    assert usable_tickets(alice, START) == [ticket]
    assert_the_ledger_reconciles()


def test_staff_void_a_ticket_and_its_value_goes_back_to_the_house() -> None:
    alice = player()
    ticket = ticket_for(alice, series_row=series())
    ticket_void(ticket.pk, actor=staff_member(), reason="duplicate", now=START)
    ticket.refresh_from_db()
    assert ticket.status == TicketStatus.VOID
    assert account_of(ticket).balance == 0
    assert AuditEntry.objects.filter(action="tournament_ticket_voided", reason="duplicate").count() == 1
    assert usable_tickets(alice, START) == []
    assert_the_ledger_reconciles()


def test_tickets_expire_once_with_the_beat_task() -> None:
    alice = player()
    ticket = ticket_for(alice, series_row=series(), expires_at=START + timedelta(hours=1))
    assert tickets_expire(START + timedelta(minutes=59)) == 0
    assert tournaments_advance_all(now=START + timedelta(hours=1))["tickets_expired"] == 1
    assert tickets_expire(START + timedelta(hours=2)) == 0  # run again: nothing more
    ticket.refresh_from_db()
    assert ticket.status == TicketStatus.EXPIRED
    assert account_of(ticket).balance == 0
    assert [event.action for event in ticket.events.order_by("pk")] == ["issued", "expired"]
    assert_the_ledger_reconciles()
