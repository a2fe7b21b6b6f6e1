"""Lobby tabs for games other than the cash tables: what exists so far, read from the apps that own it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import template
from django.db.models import Count, Q

register = template.Library()


@register.simple_tag
def open_uth_tables() -> list[Any]:
    """The open Ultimate Texas Hold'em tables with how many players sit at each (the /uth/ page's list)."""
    from games.uth.models import UthTable

    return list(
        UthTable.objects.filter(is_open=True)
        .annotate(players=Count("seats", filter=Q(seats__left_at__isnull=True)))
        .order_by("name")
    )


@register.simple_tag
def upcoming_tournaments(limit: int = 6) -> list[dict[str, Any]]:
    """The next tournaments and the open Sit & Gos (LOB-02's rows), for the lobby's Tournaments tab."""
    from tournaments.readside import tournament_rows

    return tournament_rows()[:limit]


@register.simple_tag
def hexapro_offers() -> list[dict[str, Any]]:
    """The HexaPro products in force with every buy-in and its prize-pool range (HEX-02, HEX-03, HEX-20)."""
    from tournaments.hexapro.readside import product_offers

    return product_offers()


@register.simple_tag
def offered_stakes() -> list[dict[str, Any]]:
    """Every stake the lobby offers now (CASH-02), with its game, blinds and default buy-in range in cents: the
    lobby's game and stake choices, including stakes with no open table yet (the seating queue opens one)."""
    from django.utils import timezone

    from games.models import Stake, StakeTerms

    now = timezone.now()
    stakes = list(Stake.objects.filter(game_type__enabled=True).select_related("game_type"))
    terms: dict[int, Any] = {}
    for row in StakeTerms.objects.filter(stake__in=stakes, effective_from__lte=now).order_by(
        "stake", "-effective_from", "-pk"
    ):
        terms.setdefault(row.stake_id, row)
    offered = []
    for stake in stakes:
        stake_terms = terms.get(stake.pk)
        if stake_terms is None or not stake_terms.enabled:
            continue
        offered.append(
            {
                "stake_id": stake.pk,
                "game": stake.game_type.code,
                "game_name": stake.game_type.name,
                "game_order": stake.game_type.display_order,
                "stake": stake.label,
                "small_blind": stake_terms.small_blind,
                "big_blind": stake_terms.big_blind,
                "min_buy_in": stake_terms.min_buy_in,
                "max_buy_in": stake_terms.max_buy_in,
            }
        )
    return offered


@register.simple_tag
def my_table_ids(user: Any) -> list[int]:
    """The cash tables ``user`` sits at now (the lobby marks them); empty for a visitor."""
    from games.models import Seat

    if user is None or not getattr(user, "is_authenticated", False):
        return []
    return sorted(Seat.objects.filter(user=user, session__isnull=False).values_list("table_id", flat=True).distinct())


@register.simple_tag
def my_waiting_requests(user: Any) -> list[dict[str, Any]]:
    """The stakes ``user`` waits for in the seating queue (newest first), so that the lobby shows the wait again after a
    reload (issue 22: the entry vanished from the page while the player still waited); empty for a visitor."""
    from games.models import SeatingRequest, SeatingRequestStatus

    if user is None or not getattr(user, "is_authenticated", False):
        return []
    waiting = (
        SeatingRequest.objects.filter(user=user, status=SeatingRequestStatus.WAITING)
        .select_related("stake__game_type")
        .order_by("-created_at", "-pk")
    )
    return [
        {"stake_id": request.stake_id, "label": f"{request.stake.game_type.name} {request.stake.label}"}
        for request in waiting
    ]


FIRST_VISIT_WINDOW = timedelta(minutes=30)
"""A login this soon after signing up is still the account's first visit (signing up logs the player in)."""


@register.simple_tag
def is_first_visit(user: Any) -> bool:
    """Whether ``user`` signed up in this visit: a new account is welcomed, not "welcomed back"."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    last_login = getattr(user, "last_login", None)
    return last_login is None or last_login - user.date_joined < FIRST_VISIT_WINDOW
