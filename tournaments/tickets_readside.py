"""What players see of tickets and satellites (TRN-37, AMB-54): their usable tickets ("Your tickets"), the tickets
that pay one tournament, and a satellite's target and seats on its Specific Tournament Lobby. Plain dictionaries,
money in cents."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tournaments.definitions import payouts_now, satellite_plan
from tournaments.models import Tournament, TournamentStatus, TournamentTicket
from tournaments.services.tickets import tickets_for, usable_tickets

LIVE = (TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING, TournamentStatus.RUNNING)


def ticket_row(ticket: TournamentTicket) -> dict[str, Any]:
    return {
        "id": ticket.pk,
        "value": ticket.value,
        "status": ticket.status,
        "expires_at": ticket.expires_at.isoformat(),
        "target": ticket.target_name,
        "tournament_id": ticket.tournament_id,
        "series": ticket.series.name if ticket.series_id is not None and ticket.series else None,
    }


def ticket_rows(user: Any, now: datetime | None = None) -> list[dict[str, Any]]:
    """The player's usable tickets, soonest expiry first."""
    return [ticket_row(ticket) for ticket in usable_tickets(user, now)]


def tickets_paying(user: Any, tournament: Tournament, now: datetime | None = None) -> list[dict[str, Any]]:
    """The player's tickets that pay ``tournament``'s registration (the register-with-ticket buttons)."""
    return [ticket_row(ticket) for ticket in tickets_for(user, tournament, now)]


def satellite_facts(tournament: Tournament) -> dict[str, Any]:
    """The satellite part of a Specific Tournament Lobby: its target (TRN-37) with the seats the pool buys so far
    (final once registration closes), the tournament's series, and the live satellites into it."""
    facts: dict[str, Any] = {
        "series": tournament.series.name if tournament.series_id is not None and tournament.series else None,
        "satellite": None,
        "satellites_into": [
            {"id": row.pk, "name": row.name}
            for row in Tournament.objects.filter(satellite_target=tournament, status__in=LIVE).order_by("pk")
        ],
    }
    if tournament.satellite_target_id is None:
        return facts
    target = Tournament.objects.only("name", "buy_in", "fee").get(pk=tournament.satellite_target_id)
    if tournament.registration_closed_at is not None:
        seats = tournament.satellite_seats
    else:
        seats = satellite_plan(tournament, tournament.entrants, payouts_now(tournament).pool).seats
    facts["satellite"] = {
        "target_id": target.pk,
        "target_name": target.name,
        "seat_value": target.entry_price,
        "seats": seats,
        "provisional": tournament.registration_closed_at is None,
    }
    return facts
