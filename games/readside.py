"""Thin adapters from the realtime/API layer to the domain read side (``games.services``) and models.

Only lookups live here (a table by id, a user by id, who owns a private event in a range); every rule about what a
viewer may see is the domain's (``table_snapshot`` / ``table_events_since``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model


def table_by_id(table_id: int) -> Any | None:
    """The cash table ``table_id``, or ``None`` when there is no such table."""
    from games.models import CashTable

    return CashTable.objects.filter(pk=table_id).select_related("stake__game_type").first()


def user_by_id(user_id: int) -> Any | None:
    return get_user_model().objects.filter(pk=user_id).first()


def events_since(table: Any, sequence: int, viewer: Any | None, limit: int | None = None) -> list[dict[str, Any]]:
    """The table's events after ``sequence`` (at most ``limit``) as ``viewer`` may see them (``None``: a spectator)."""
    from games.services import table_events_since

    return table_events_since(table, sequence, viewer, limit=limit)


def snapshot(table: Any, viewer: Any | None) -> dict[str, Any]:
    from games.services import table_snapshot

    return table_snapshot(table, viewer)


def snapshot_sequence(snapshot: dict[str, Any]) -> int:
    """The last event sequence a snapshot includes (events after it follow on the socket)."""
    value = snapshot.get("sequence", snapshot.get("last_sequence", 0))
    return int(value or 0)


def private_recipients(table: Any, first_sequence: int, last_sequence: int) -> list[int]:
    """Ids of the users who own a private event (their hole cards) among the table's events in the range."""
    from games.models import EventAudience, HandEvent, HandPlayer

    rows = list(
        HandEvent.objects.filter(
            table=table, sequence__gte=first_sequence, sequence__lte=last_sequence, audience=EventAudience.SEAT
        ).values_list("hand_id", "private_to_seat", "private_to_user_id")
    )
    users = {user_id for _hand, _seat, user_id in rows if user_id is not None}
    by_seat = {(hand_id, seat) for hand_id, seat, user_id in rows if user_id is None and hand_id is not None}
    if by_seat:
        hands = {hand_id for hand_id, _seat in by_seat}
        for hand_id, seat, user_id in HandPlayer.objects.filter(hand__in=hands).values_list(
            "hand_id", "seat_number", "user_id"
        ):
            if (hand_id, seat) in by_seat:
                users.add(user_id)
    return sorted(users)


def lobby_rows(table_ids: list[int] | None) -> list[dict[str, Any]]:
    from games.lobby import lobby_rows as rows

    return rows(table_ids)
