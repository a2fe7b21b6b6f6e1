"""Appending to a table's event log and announcing committed changes to the realtime layer.

Contract: the caller holds the table row locked (``SELECT ... FOR UPDATE``) for the whole transaction, so sequence
numbers are allocated in commit order (gap-free unless a hand held in memory by a table actor was cancelled: the
numbers its published events had stay unused, see ``games.runtime.hand_log``). After the transaction commits,
``games.runtime.realtime`` is told which sequence range is new (``table_events_committed``) and that the table's
lobby row changed (``lobby_table_changed``). ``games.runtime.realtime`` is imported inside the callback, so the
domain works (and tests run) without the realtime layer.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engine.events import SEAT, Event, HoleCardsDealt, event_from_dict, event_to_dict
from games.models import EventAudience, Hand, HandEvent, Table
from poker_site.core.compiled_sql import rows_insert

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class NewEvent:
    """An event to append: ``kind``, JSON ``payload``, and who may see it in full."""

    kind: str
    payload: dict[str, Any] = field(default_factory=dict)
    hand: Hand | None = None
    audience: str = EventAudience.PUBLIC
    private_to_seat: int | None = None
    private_to_user_id: int | None = None


def engine_event(hand: Hand, event: Event) -> NewEvent:
    """The stored form of an engine event: its dictionary with the per-hand number kept as ``hand_sequence``."""
    data = event_to_dict(event)
    data.pop("type")
    audience = data.pop("audience")
    data["hand_sequence"] = data.pop("sequence")
    if isinstance(event, HoleCardsDealt) or audience == SEAT:
        seat = data["seat"]
        owner = hand.participants[str(seat)]["user"]
        return NewEvent(event.kind, data, hand, EventAudience.SEAT, private_to_seat=seat, private_to_user_id=owner)
    return NewEvent(event.kind, data, hand, audience)


def engine_event_from_stored(kind: str, payload: dict[str, Any]) -> Event:
    """Rebuild the engine event stored in a log row's ``kind`` and ``payload`` (inverse of :func:`engine_event`)."""
    data = dict(payload)
    data["type"] = kind
    data["sequence"] = data.pop("hand_sequence")
    return event_from_dict(data)


def events_append(
    table: Table,
    events: Sequence[NewEvent],
    *,
    published: Sequence[int] = (),
    hand_held_in_memory: bool | None = None,
) -> tuple[int, int] | None:
    """Append ``events`` to the locked ``table``'s log; return the (first, last) sequence of the events numbered here
    (None if none). Also schedules the post-commit notice of that range and of the lobby row.

    Numbering: after ``table.last_sequence``; while a table actor holds the table's hand in memory
    (``table.hand_held_in_memory``) above every number its hand log handed out too (``games.runtime.hand_log``), so an
    event written durably meanwhile never reuses a number clients saw. ``published``: the numbers the first
    ``len(published)`` events already have (the held hand's events, published from the hand log as they were applied):
    they are written at those numbers and not announced again; the rest follow them.

    ``hand_held_in_memory`` (True or False): written on the table by the same statement, after these events are
    numbered (not a change of the table's state: its ``version`` stays).
    """
    if len(published) > len(events):
        raise ValueError("more published numbers than events")
    if not events:
        if hand_held_in_memory is not None:
            table.hand_held_in_memory = hand_held_in_memory
            Table.objects.filter(pk=table.pk).update(hand_held_in_memory=hand_held_in_memory)
        lobby_changed_on_commit(table.pk)
        return None
    fresh = len(events) - len(published)
    floor = max(table.last_sequence, *published) if published else table.last_sequence
    first = floor + 1
    if fresh and table.hand_held_in_memory:
        from games.runtime.hand_log import hand_log_reserve

        first = hand_log_reserve(table.pk, floor, fresh)
    now = timezone.now()
    numbers = [*published, *range(first, first + fresh)]
    rows = [
        HandEvent(
            table_id=table.pk,
            hand=item.hand,
            sequence=number,
            kind=item.kind,
            payload=item.payload,
            audience=item.audience,
            private_to_seat=item.private_to_seat,
            private_to_user_id=item.private_to_user_id,
            created_at=now,
        )
        for number, item in zip(numbers, events, strict=True)
    ]
    table.last_sequence = max(floor, first + fresh - 1)
    table_fields = ["last_sequence"]
    if hand_held_in_memory is not None:
        table.hand_held_in_memory = hand_held_in_memory
        table_fields.append("hand_held_in_memory")
    rows_insert(rows, also_update=(table, table_fields))  # one statement: the events and the table's counter
    table_id = table.pk
    last = first + fresh - 1
    announced = rows[len(published) :]
    if fresh:
        transaction.on_commit(lambda: _announce_events(table_id, first, last, announced))
    lobby_changed_on_commit(table_id)
    return (first, last) if fresh else None


def lobby_changed_on_commit(table_id: int) -> None:
    """After commit, tell the realtime layer the table's lobby row changed."""
    transaction.on_commit(lambda: _announce_lobby(table_id))


def _announce_events(table_id: int, first: int, last: int, rows: list[HandEvent]) -> None:
    try:
        from games.runtime import realtime

        realtime.table_events_committed(table_id, first, last, rows)
    except Exception:  # the change is committed; a client that misses it sees a sequence gap and resyncs
        logger.exception("could not announce events %s..%s of table %s", first, last, table_id)


def _announce_lobby(table_id: int) -> None:
    try:
        from games.runtime import realtime

        realtime.lobby_table_changed(table_id)
    except Exception:
        logger.exception("could not announce the lobby change of table %s", table_id)
