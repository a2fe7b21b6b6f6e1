"""Thin adapters from the realtime/API layer to the domain read side (``games.runtime.views``) and models.

Only lookups live here (a table by id, a user by id, who owns a private event in a range); every rule about what a
viewer may see is the domain's (``table_snapshot`` / ``table_events_since``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from django.contrib.auth import get_user_model


@functools.cache
def _table_by_id_select() -> Any:
    # Built at the first socket, not at import: this module is imported before the models are ready.
    from games.models import Table
    from poker_site.core.compiled_sql import CompiledSelect

    return CompiledSelect(
        lambda table_id: Table.objects.select_related("stake__game_type").order_by().filter(pk=table_id)
    )


def table_by_id(table_id: int) -> Any | None:
    """The table ``table_id`` with its stake and game type, or ``None`` when there is no such table (read by every
    socket opened: the statement is compiled once per process)."""
    return _table_by_id_select().first(table_id)


def user_by_id(user_id: int) -> Any | None:
    return get_user_model().objects.filter(pk=user_id).first()


def events_since(table: Any, sequence: int, viewer: Any | None, limit: int | None = None) -> list[dict[str, Any]]:
    """The table's events after ``sequence`` (at most ``limit``) as ``viewer`` may see them (``None``: a spectator)."""
    from games.runtime.views import table_events_since

    return table_events_since(table, sequence, viewer, limit=limit)


def snapshot(table: Any, viewer: Any | None) -> dict[str, Any]:
    """The domain's snapshot of ``table`` for ``viewer`` (``None``: a spectator). A closed table's also tells a viewer
    moved away from it, who plays on at another table, where they play now: ``viewer.to_table``, that table's id
    (:func:`games.runtime.commands.table_moved_to`, as a command refused there names it); absent for anyone else, and
    never read for an open table."""
    from games.runtime.commands import table_closed_in, table_moved_to
    from games.runtime.views import table_snapshot

    view = table_snapshot(table, viewer)
    if table_closed_in(view):
        moved_to = table_moved_to(int(table.pk), view["viewer"]["user_id"])
        if moved_to is not None:
            view["viewer"]["to_table"] = moved_to.pk
    return view


def turn_of(table: Any, viewer: Any) -> dict[str, Any] | None:
    """What ``viewer`` may do now if it is their turn at ``table`` (else ``None``): the ``viewer.legal_actions`` of
    the domain's snapshot without reading the rest of the table.

    Same rule as ``table_snapshot``: the viewer is the participant dealt into the running hand at the acting seat, and
    the engine state agrees it is that seat's turn — for a hand held in memory by a table actor, the hand as its
    events so far in the hand log make it (``views.hand_in_play_now``). Two queries; a read that races a new action
    finds the turn moved on and returns ``None`` (the next ``turn`` event asks again).
    """
    from games.runtime.views import hand_in_play_now

    viewer_id = getattr(viewer, "pk", None)
    if viewer_id is None:
        return None
    in_play = hand_in_play_now(table.pk)
    if in_play is None:
        return None
    hand, state = in_play
    seat = hand.acting_seat
    if seat is None:
        return None
    participant = hand.participants.get(str(seat))
    if participant is None or participant.get("user") != viewer_id:
        return None
    legal = state.legal_actions() if state.actor == seat else None
    if legal is None:
        return None
    return {
        "hand_id": hand.pk,
        "seat": seat,
        "legal_actions": legal.to_dict(),
        "deadline": hand.action_deadline.isoformat() if hand.action_deadline else None,
    }


def snapshot_sequence(snapshot: dict[str, Any]) -> int:
    """The last event sequence a snapshot includes (events after it follow on the socket)."""
    value = snapshot.get("sequence", snapshot.get("last_sequence", 0))
    return int(value or 0)


def range_views(
    table_id: int, first_sequence: int, last_sequence: int
) -> tuple[list[dict[str, Any]], dict[int, list[dict[str, Any]]]]:
    """The events ``first..last`` of a table as a spectator sees them, and as each owner of a private event sees them.

    One query: the rows are read once and each view is made by the domain's ``event_view`` (its privacy rules).
    """
    from games.models import HandEvent

    rows = list(
        HandEvent.objects.filter(table_id=table_id, sequence__gte=first_sequence, sequence__lte=last_sequence).order_by(
            "sequence"
        )
    )
    return views_of_rows(rows)


def views_of_rows(rows: Sequence[Any]) -> tuple[list[dict[str, Any]], dict[int, list[dict[str, Any]]]]:
    """The spectator view of ``rows`` (``HandEvent`` rows in sequence order) and each private-event owner's view."""
    from games.models import EventAudience
    from games.runtime.views import event_view, hand_names

    owners = sorted(
        {row.private_to_user_id for row in rows if row.audience == EventAudience.SEAT and row.private_to_user_id}
    )
    names = hand_names(rows)
    public = [event_view(row, None, names) for row in rows]
    private = {owner: [event_view(row, owner, names) for row in rows] for owner in owners}
    return public, private


LobbySource = Callable[[list[int] | None], list[dict[str, Any]]]
"""The lobby's rows of the given tables (None: every listed table), as the lobby socket sends them."""

_lobby_sources: list[LobbySource] = []


def lobby_source_register(source: LobbySource) -> None:
    """Add a product's lobby rows to the lobby socket (apps call this when they are ready; the cash game does)."""
    if source not in _lobby_sources:
        _lobby_sources.append(source)


def lobby_rows(table_ids: list[int] | None) -> list[dict[str, Any]]:
    """The lobby rows of ``table_ids`` (None: all) from every registered product."""
    return [row for source in _lobby_sources for row in source(table_ids)]
