"""Registering with a ticket that cannot pay (TRN-10, AMB-54), and staff's bad ticket requests: each refused with a
clear reason, and nothing changed — no entry, the same balances, the ticket as it was."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction

from tests.tournaments.support import START, cash, fresh, player, scheduled
from tests.tournaments.tickets_support import assert_the_ledger_reconciles, series, staff_member, ticket_for
from tournaments.models import TicketStatus, TournamentEntry, TournamentTicket, TournamentTicketEvent
from tournaments.services import TournamentError, tournament_register
from tournaments.services.tickets import TicketRefused, TicketRequest, ticket_issue_approved, ticket_void
from wallet.models import AuditEntry, Transfer

pytestmark = pytest.mark.django_db


def _issue(request: TicketRequest, reason: str) -> Any:
    """What an approved ticket proposal does (issue 30), at the simulated time START."""
    with transaction.atomic():
        return ticket_issue_approved(
            request, proposed_by=staff_member(), approved_by=staff_member("approver"), reason=reason, now=START
        )


def snapshot(user: Any, tournament: Any) -> tuple[Any, ...]:
    return (
        cash(user),
        TournamentEntry.objects.filter(tournament=tournament).count(),
        fresh(tournament).entrants,
        list(TournamentTicket.objects.order_by("pk").values_list("pk", "status", "version")),
        Transfer.objects.count(),
        TournamentTicketEvent.objects.count(),
    )


def refused(call: Callable[[], Any], user: Any, tournament: Any, says: str) -> None:
    before = snapshot(user, tournament)
    with pytest.raises(TournamentError) as caught:
        call()
    assert says in caught.value.message
    assert snapshot(user, tournament) == before
    assert_the_ledger_reconciles()


def test_a_ticket_for_another_series_is_refused_trn_10() -> None:
    target = scheduled(buy_in=1_000, fee=100, series=series("Sunday Major"))
    alice = player()
    ticket = ticket_for(alice, series_row=series("Monday Mini"))
    refused(
        lambda: tournament_register(alice, target, now=START, ticket=ticket.pk),
        alice,
        target,
        "is for Monday Mini, not for Scheduled",
    )


def test_a_ticket_for_another_tournament_is_refused() -> None:
    target = scheduled(buy_in=1_000, fee=100)
    other = scheduled(buy_in=1_000, fee=100)
    alice = player()
    ticket = ticket_for(alice, tournament=other)
    refused(lambda: tournament_register(alice, target, now=START, ticket=ticket.pk), alice, target, "is for")


def test_an_expired_ticket_is_refused_even_before_the_sweep_expires_it() -> None:
    target = scheduled(buy_in=1_000, fee=100)
    alice = player()
    ticket = ticket_for(alice, tournament=target, expires_at=START + timedelta(minutes=5))
    later = START + timedelta(minutes=10)
    refused(lambda: tournament_register(alice, target, now=later, ticket=ticket.pk), alice, target, "expired")


def test_a_used_ticket_is_refused() -> None:
    sunday = series()
    first = scheduled(buy_in=1_000, fee=100, series=sunday)
    second = scheduled(buy_in=1_000, fee=100, series=sunday)
    alice = player()
    ticket = ticket_for(alice, series_row=sunday)
    tournament_register(alice, first, now=START, ticket=ticket.pk)
    refused(
        lambda: tournament_register(alice, second, now=START, ticket=ticket.pk),
        alice,
        second,
        "has already been used",
    )


def test_someone_elses_ticket_is_refused() -> None:
    target = scheduled(buy_in=1_000, fee=100)
    alice, bob = player(), player()
    ticket = ticket_for(alice, tournament=target)
    refused(lambda: tournament_register(bob, target, now=START, ticket=ticket.pk), bob, target, "is not yours")


def test_a_ticket_of_another_buy_in_level_is_refused_amb_54() -> None:
    sunday = series()
    target = scheduled(buy_in=2_000, fee=200, series=sunday)
    alice = player()
    ticket = ticket_for(alice, series_row=sunday, value=1_100)
    refused(
        lambda: tournament_register(alice, target, now=START, ticket=ticket.pk),
        alice,
        target,
        "is worth €11.00; Scheduled costs €22.00",
    )


def test_a_voided_ticket_is_refused() -> None:
    target = scheduled(buy_in=1_000, fee=100)
    alice = player()
    ticket = ticket_for(alice, tournament=target)
    ticket_void(ticket.pk, actor=staff_member(), reason="issued by mistake", now=START)
    refused(lambda: tournament_register(alice, target, now=START, ticket=ticket.pk), alice, target, "was voided")


@pytest.mark.parametrize("bad", [0, -3, "1", 1.0, True, 10**9])
def test_a_ticket_number_that_is_not_one_is_refused(bad: object) -> None:
    target = scheduled(buy_in=1_000, fee=100)
    alice = player()
    refused(
        lambda: tournament_register(alice, target, now=START, ticket=bad),  # type: ignore[arg-type]
        alice,
        target,
        "ticket",
    )


def test_a_refused_ticket_registration_leaves_the_ticket_usable_for_the_right_tournament() -> None:
    sunday = series()
    target = scheduled(buy_in=1_000, fee=100, series=sunday)
    alice = player()
    ticket = ticket_for(alice, series_row=sunday)
    tournament_register(alice, target, now=START, ticket=ticket.pk)
    assert cash(alice) == 100_000
    assert TournamentTicket.objects.get(pk=ticket.pk).status == TicketStatus.USED
    assert_the_ledger_reconciles()


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"username": "nobody"}, "no active player"),
        ({"value": 0}, "whole positive number of cents"),
        ({"value": -100}, "whole positive number of cents"),
        ({"value": 10.5}, "whole positive number of cents"),
        ({"value": 10**13}, "whole positive number of cents"),
        ({"expires_at": START - timedelta(minutes=1)}, "in the future"),
        ({"series_id": None}, "exactly one"),
        ({"tournament_id": 1}, "exactly one"),
        ({"series_id": 999_999}, "no series"),
    ],
)
def test_staff_bad_ticket_requests_change_nothing(changes: dict[str, Any], says: str) -> None:
    alice = player()
    sunday = series()
    fields: dict[str, Any] = {
        "username": alice.username,
        "value": 1_100,
        "expires_at": START + timedelta(days=1),
        "series_id": sunday.pk,
    }
    fields.update(changes)
    before = (TournamentTicket.objects.count(), Transfer.objects.count(), AuditEntry.objects.count())
    with pytest.raises(TournamentError) as caught:
        _issue(TicketRequest(**fields), "promotion")
    assert says in caught.value.message
    assert (TournamentTicket.objects.count(), Transfer.objects.count(), AuditEntry.objects.count()) == before


def test_staff_must_give_a_reason_to_issue_or_void() -> None:
    alice = player()
    sunday = series()
    request = TicketRequest(alice.username, 1_100, START + timedelta(days=1), series_id=sunday.pk)
    with pytest.raises(TournamentError, match="reason"):
        _issue(request, "  ")
    ticket = ticket_for(alice, series_row=sunday)
    with pytest.raises(TournamentError, match="reason"):
        ticket_void(ticket.pk, actor=staff_member(), reason="", now=START)
    assert TournamentTicket.objects.get(pk=ticket.pk).status == TicketStatus.AVAILABLE


def test_a_used_ticket_cannot_be_voided() -> None:
    target = scheduled(buy_in=1_000, fee=100)
    alice = player()
    ticket = ticket_for(alice, tournament=target)
    tournament_register(alice, target, now=START, ticket=ticket.pk)
    with pytest.raises(TicketRefused, match="only a usable ticket"):
        ticket_void(ticket.pk, actor=staff_member(), reason="mistake", now=START)
    assert_the_ledger_reconciles()
