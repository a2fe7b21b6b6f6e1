"""Thin adapters from the realtime/API layer to the domain read side (``games.services``) and models.

Only lookups live here (a table by id, a user by id, who owns a private event in a range); every rule about what a
viewer may see is the domain's (``table_snapshot`` / ``table_events_since``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model


def table_by_id(table_id: int) -> Any | None:
    """The cash table ``table_id``, or ``None`` when there is no such table."""
    from games import models

    return models.CashTable.objects.filter(pk=table_id).first()  # type: ignore[attr-defined]


def user_by_id(user_id: int) -> Any | None:
    return get_user_model().objects.filter(pk=user_id).first()


def events_since(table: Any, sequence: int, viewer: Any | None) -> list[dict[str, Any]]:
    """The table's events after ``sequence`` as ``viewer`` may see them (``None``: a spectator)."""
    from games import services

    return list(services.table_events_since(table, sequence, viewer))  # type: ignore[attr-defined]


def snapshot(table: Any, viewer: Any | None) -> dict[str, Any]:
    from games import services

    return dict(services.table_snapshot(table, viewer))  # type: ignore[attr-defined]


def private_recipients(table: Any, first_sequence: int, last_sequence: int) -> list[int]:
    """Ids of the users who own a private event (their hole cards) among the table's events in the range."""
    from games import models

    return list(
        models.HandEvent.objects.filter(  # type: ignore[attr-defined]
            hand__table=table,
            sequence__gte=first_sequence,
            sequence__lte=last_sequence,
            private_to_user__isnull=False,
        )
        .values_list("private_to_user_id", flat=True)
        .distinct()
    )
