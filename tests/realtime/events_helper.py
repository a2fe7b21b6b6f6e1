"""Appending events to a table's log through the domain's ``events_append`` (which publishes after commit)."""

from __future__ import annotations

from typing import Any

from django.db import transaction


def append_events(table_id: int, *events: dict[str, Any]) -> tuple[int, int] | None:
    """Append table events in one transaction, as a domain service does: lock the table, append, commit.

    Each item: ``{"kind": ..., "payload": {...}}`` plus optional ``audience``, ``private_to_seat``,
    ``private_to_user_id``.
    """
    from games.models import Table
    from games.runtime.events import NewEvent, events_append

    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        return events_append(table, [NewEvent(**event) for event in events])


def hole_cards(seat: int, user_id: int, cards: list[str]) -> dict[str, Any]:
    return {
        "kind": "hole_cards_dealt",
        "payload": {"seat": seat, "cards": cards},
        "audience": "seat",
        "private_to_seat": seat,
        "private_to_user_id": user_id,
    }


def public(kind: str, **payload: Any) -> dict[str, Any]:
    return {"kind": kind, "payload": payload}
