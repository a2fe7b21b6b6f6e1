"""The cash-game lobby read model: one row per open table (stake, blinds, players, average pot, waiting list).

Read-only queries shared by the lobby socket (:class:`games.runtime.consumers.LobbyConsumer`) and the REST lobby
(:mod:`games.api`). A fixed number of queries whatever the number of tables (no query per row).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any, Final

from django.db.models import Avg, Count, Q
from django.utils import timezone

AVERAGE_POT_WINDOW: Final[timedelta] = timedelta(hours=1)
"""The average pot and hands per hour are taken over the hands that ended in this window."""


def lobby_rows(
    table_ids: Iterable[int] | None = None, *, game: str | None = None, stake: str | None = None
) -> list[dict[str, Any]]:
    """Lobby rows of the open tables, not closing (all, or those in ``table_ids``), optionally only one game type code /
    stake label.

    Each row: ``id``, ``name``, ``game`` (code), ``game_name``, ``variant``, ``stake`` (label), ``stake_id``,
    ``small_blind``/``big_blind``/``min_buy_in``/``max_buy_in`` (cents), ``seats``, ``players`` (seated),
    ``average_pot`` (cents, finished hands of the last hour, ``None`` if none), ``hands_per_hour`` and ``waiting``
    (players queued for this stake, CASH-05).
    """
    from games.models import (
        TABLES_TAKING_PLAYERS,
        Hand,
        HandStatus,
        SeatingRequest,
        SeatingRequestStatus,
        StakeTerms,
        Table,
    )

    # A table support is closing takes nobody new: it leaves the lobby now, not when its last hand ends.
    tables = Table.objects.filter(TABLES_TAKING_PLAYERS).select_related("stake__game_type")
    if table_ids is not None:
        tables = tables.filter(pk__in=list(table_ids))
    if game:
        tables = tables.filter(stake__game_type__code=game)
    if stake:
        tables = tables.filter(stake__label=stake)
    tables = tables.annotate(players=Count("seats", filter=Q(seats__session__isnull=False))).order_by("pk")
    table_list = list(tables)
    if not table_list:
        return []
    now = timezone.now()
    since = now - AVERAGE_POT_WINDOW
    pots = {
        row["table"]: row
        for row in Hand.objects.filter(
            table__in=[table.pk for table in table_list], status=HandStatus.FINISHED, ended_at__gte=since
        )
        .values("table")
        .annotate(average_pot=Avg("pot_total"), hands=Count("pk"))
    }
    stake_ids = {table.stake_id for table in table_list}
    waiting = dict(
        SeatingRequest.objects.filter(stake__in=stake_ids, status=SeatingRequestStatus.WAITING)
        .values("stake")
        .annotate(count=Count("pk"))
        .values_list("stake", "count")
    )
    terms: dict[int, Any] = {}
    for row in StakeTerms.objects.filter(stake__in=stake_ids, effective_from__lte=now).order_by(
        "stake", "-effective_from", "-pk"
    ):
        terms.setdefault(row.stake_id, row)
    rows = []
    for table in table_list:
        stake_terms = terms.get(table.cash_stake.pk)
        pot = pots.get(table.pk)
        game_type = table.cash_stake.game_type
        big_blind = stake_terms.big_blind if stake_terms else None
        rows.append(
            {
                "id": table.pk,
                "name": table.name,
                "game": game_type.code,
                "game_name": game_type.name,
                "variant": game_type.variant,
                "stake": table.cash_stake.label,
                "stake_id": table.stake_id,
                "small_blind": stake_terms.small_blind if stake_terms else None,
                "big_blind": big_blind,
                "min_buy_in": stake_terms.min_buy_in_big_blinds * big_blind if stake_terms and big_blind else None,
                "max_buy_in": stake_terms.max_buy_in_big_blinds * big_blind if stake_terms and big_blind else None,
                "seats": table.seat_count,
                "players": table.players,
                "average_pot": round(pot["average_pot"]) if pot and pot["average_pot"] is not None else None,
                "hands_per_hour": round(pot["hands"] * timedelta(hours=1) / AVERAGE_POT_WINDOW) if pot else 0,
                "waiting": waiting.get(table.cash_stake.pk, 0),
            }
        )
    return rows


def queue_answer(seating_request: Any | None) -> dict[str, Any]:
    """Where a player stands with a seating request (CASH-04/05), for the lobby, the table page, the API and the bots:
    ``stake_id``, ``status`` (waiting, seated, cancelled, failed; ``none`` without a request), ``table_id`` when
    seated, ``message`` (the reason, in the active language, while waiting; the refusal when failed) and ``position``
    in the stake's queue while waiting."""
    from games.cash.seating import queue_wait_reason
    from games.models import SeatingRequest, SeatingRequestStatus

    if seating_request is None:
        return {"stake_id": None, "status": "none", "table_id": None, "message": "", "position": None}
    position = None
    message = seating_request.message
    if seating_request.status == SeatingRequestStatus.WAITING:
        queue = SeatingRequest.objects.filter(stake_id=seating_request.stake_id, status=SeatingRequestStatus.WAITING)
        position = queue.filter(
            Q(created_at__lt=seating_request.created_at)
            | Q(created_at=seating_request.created_at, pk__lte=seating_request.pk)
        ).count()
        stake = seating_request.stake
        message = queue_wait_reason(
            stake,
            queue.count(),
            stake.game_type.rules_at().minimum_players_to_start,
            user_id=seating_request.user_id,
        )
    return {
        "stake_id": seating_request.stake_id,
        "status": seating_request.status,
        "table_id": seating_request.table_id,
        "message": message,
        "position": position,
    }
