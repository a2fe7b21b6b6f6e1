"""Helpers for the satellite and ticket tests: staff-issued tickets, satellites played to the end, and the ledger
check every scenario ends with."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction

from tests.tournaments.support import START, fresh, play, register_players, sit_and_go
from tournaments.models import Tournament, TournamentEntry, TournamentSeries, TournamentTicket
from tournaments.services import tournaments_advance_all
from tournaments.services.tickets import TicketRequest, ticket_issue_approved, tickets_reconcile
from wallet.services import ledger_reconcile


def staff_member(username: str = "ticket-staff") -> Any:
    users = get_user_model().objects
    return users.filter(username=username).first() or users.create_user(username=username, password="x", is_staff=True)


def series(name: str = "Sunday Major") -> TournamentSeries:
    return TournamentSeries.objects.get_or_create(name=name)[0]


def ticket_for(
    user: Any,
    *,
    value: int = 1_100,
    tournament: Tournament | None = None,
    series_row: TournamentSeries | None = None,
    expires_at: datetime | None = None,
    now: datetime = START,
) -> TournamentTicket:
    """A ticket staff give ``user`` (for ``tournament`` or ``series_row``), valid for a week by default: issued as
    the approval of one staff member's proposal by another does (issue 30), at the simulated time ``now``."""
    with transaction.atomic():
        return ticket_issue_approved(
            TicketRequest(
                username=user.username,
                value=value,
                expires_at=expires_at or now + timedelta(days=7),
                series_id=series_row.pk if series_row is not None else None,
                tournament_id=tournament.pk if tournament is not None else None,
            ),
            proposed_by=staff_member(),
            approved_by=staff_member("ticket-approver"),
            reason="promotion",
            now=now,
        )


def satellite_into(target: Tournament, *, seats: int = 3, buy_in: int = 500, fee: int = 50, **fields: Any) -> Any:
    """A Sit & Go satellite into ``target`` (its prize pool buys seats at the target's buy-in + fee)."""
    satellite = sit_and_go(seats=seats, buy_in=buy_in, fee=fee, satellite_target=target, **fields)
    satellite.name = f"Satellite to {target.name}"
    satellite.save(update_fields=["name"])
    return satellite


def satellite_played(satellite: Tournament, *, start: datetime = START) -> tuple[list[Any], datetime]:
    """Fill the satellite (it starts) and play it to the end; its prizes are paid. Returns the players by finishing
    place (1st first) and the simulated time it ended."""
    register_players(satellite, satellite.seats_to_start or 2, now=start)
    ended = play(satellite, start=start)
    tournaments_advance_all(now=ended)  # the prize sweep: a seat's ticket, the cash
    entries = TournamentEntry.objects.filter(tournament=fresh(satellite)).order_by("place").select_related("user")
    return [entry.user for entry in entries], ended


def assert_the_ledger_reconciles() -> None:
    """``manage.py wallet_reconcile`` passes and every ticket's account holds what the ticket is worth."""
    assert ledger_reconcile() == []
    assert tickets_reconcile() == []
    call_command("wallet_reconcile", verbosity=0)
    call_command("tickets_reconcile", verbosity=0)
