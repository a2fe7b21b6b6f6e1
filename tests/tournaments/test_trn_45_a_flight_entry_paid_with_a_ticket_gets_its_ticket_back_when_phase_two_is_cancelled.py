"""TRN-45 with CXL-02: when Phase 2 is cancelled before its start (fewer than two players carried), a flight entry
paid with a tournament ticket gets that ticket back — re-credited on its ledger account and usable again, as a
cancellation before the start does for any ticket purchase — instead of cash; a ticket is worth a whole entry price,
so its fee comes back into it from the house fees, while the entries paid in cash get their buy-in back and their
fee stays a fee."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from tests.tournaments.phases_support import PHASE_TWO_START, flight, phase_two
from tests.tournaments.support import START, cash, fresh, play, player, scheduled
from tests.tournaments.tickets_support import assert_the_ledger_reconciles, series, ticket_for
from tournaments.models import (
    EntryStatus,
    TicketStatus,
    TournamentEntry,
    TournamentStatus,
    TournamentTicket,
    TournamentTicketEvent,
)
from tournaments.services import money, tournament_register, tournaments_advance_all
from tournaments.services.tickets import ticket_account, tickets_for
from wallet.models import AccountKind
from wallet.services import system_account

pytestmark = pytest.mark.django_db


def test_a_flight_entry_paid_with_a_ticket_gets_its_ticket_back_when_phase_two_is_cancelled_trn_45_cxl_02() -> None:
    major = series("Main Event")
    target = phase_two(series=major)
    lone = flight(target, START + timedelta(minutes=30), buy_in=1_000, fee=100, series=major)
    with_ticket = player(cash=100_000)
    ticket = ticket_for(with_ticket, value=1_100, series_row=major)
    in_cash = [player(cash=100_000) for _ in range(2)]
    tournament_register(with_ticket, lone, now=START, randomness=random.Random(1), ticket=ticket.pk)
    for user in in_cash:
        tournament_register(user, lone, now=START, randomness=random.Random(user.pk))
    fees_before = system_account(AccountKind.HOUSE_FEES).balance
    assert TournamentTicket.objects.get(pk=ticket.pk).status == TicketStatus.USED
    assert ticket_account(ticket).balance == 0

    assert lone.starts_at is not None
    play(lone, start=lone.starts_at)  # everyone all in: one player holds every chip before the final level
    assert TournamentEntry.objects.filter(tournament=target, status=EntryStatus.REGISTERED).count() == 1
    assert money.prize_pool_account(target).balance == 3_000

    tournaments_advance_all(now=PHASE_TWO_START)
    assert fresh(target).status == TournamentStatus.CANCELLED
    returned = TournamentTicket.objects.get(pk=ticket.pk)
    assert returned.status == TicketStatus.RETURNED
    assert ticket_account(ticket).balance == 1_100  # the whole ticket: buy-in and fee
    assert cash(with_ticket) == 100_000  # no cash instead of the ticket
    assert [cash(user) for user in in_cash] == [100_000 - 100] * 2  # cash entries: buy-in back, the fee stays
    assert money.prize_pool_account(target).balance == 0
    assert system_account(AccountKind.HOUSE_FEES).balance - fees_before == -100  # the ticket's fee went back into it
    event = TournamentTicketEvent.objects.filter(ticket=ticket).order_by("pk").last()
    assert event is not None
    assert event.action == "returned"
    assert "cancelled before the start" in event.reason
    other = scheduled(starts_at=PHASE_TWO_START + timedelta(days=1), buy_in=1_000, fee=100, series=major)
    assert [usable.pk for usable in tickets_for(with_ticket, other, now=START)] == [ticket.pk]  # usable again
    assert_the_ledger_reconciles()
