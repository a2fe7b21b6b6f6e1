"""Live fan-out of committed table changes to WebSocket clients (the domain services call these after commit).

Contract with the services (they call both inside ``transaction.on_commit``, never inside a transaction):

* :func:`table_events_committed` — hand/table events ``first_sequence..last_sequence`` of one table are committed.
  The committing process passes the rows it has just written (else they are loaded once), and each view is made by
  the domain's ``event_view`` (the same rules as ``table_events_since(table, sequence, viewer)``):

  - the spectator view (no hidden card) goes to the group ``table.<id>``, with the list of users who receive a
    private copy of the same range (``private_user_ids``);
  - each player who owns a private event in the range (their hole cards) gets *their* view of the whole range on the
    group ``user.<user_id>.table.<id>``, which only that user's sockets join. Their consumers ignore the spectator copy
    of that range, so every viewer receives every sequence number exactly once and hole cards reach their owner alone.

  When there is nothing to send by value (an empty range, e.g. a seat change without a hand event, or a range too
  long for one channel message) the table group gets a ``table.refresh`` notice and each consumer reads what it is
  missing (events or a snapshot) for its own viewer.

* :func:`lobby_table_changed` — the lobby row of a table changed (players, stacks, waiting list, average pot). At most
  one notice per table per :data:`LOBBY_NOTICE_WINDOW_MS` goes to the group ``lobby`` (a Redis ``SET NX PX`` key, set
  on the publisher thread: the committing thread does not wait for Redis);
  each lobby consumer then reloads the row no earlier than one window after the notice, so a change that fell inside
  a window is still pushed (see :class:`games.consumers.LobbyConsumer`).

Both functions only *publish*: they never raise into the service that called them (the change is already committed;
a client that misses a push sees a sequence gap and resyncs), they log instead. Messages go out through this process's
publisher thread (:mod:`poker_site.core.publish`), in order and without making the committing thread wait for Redis.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Final

from django.conf import settings

from poker_site.core.publish import publish, publish_first_in_window

logger = logging.getLogger(__name__)

LOBBY_GROUP: Final[str] = "lobby"
LOBBY_NOTICE_WINDOW_MS: Final[int] = 500
"""At most one lobby notice per table per this many milliseconds."""

MAXIMUM_EVENTS_PER_MESSAGE: Final[int] = 200
"""Longer ranges are announced with ``table.refresh`` and read by each consumer (channel messages stay small)."""


def table_group(table_id: int) -> str:
    """The channel-layer group every socket watching the table joins (spectator view only)."""
    return f"table.{int(table_id)}"


def user_table_group(user_id: int, table_id: int) -> str:
    """The group only ``user_id``'s sockets on ``table_id`` join: private views (their hole cards) go here."""
    return f"user.{int(user_id)}.table.{int(table_id)}"


# --- Table events ----------------------------------------------------------------------------------------


def table_events_committed(
    table_id: int, first_sequence: int, last_sequence: int, rows: Sequence[Any] | None = None
) -> None:
    """Publish the committed events ``first_sequence..last_sequence`` of table ``table_id`` (see module docstring).

    ``rows``: the committed ``HandEvent`` rows of exactly that range, when the caller has them (no read-back)."""
    try:
        _publish_table_events(int(table_id), int(first_sequence), int(last_sequence), rows)
    except Exception:
        logger.exception("could not publish events %s..%s of table %s", first_sequence, last_sequence, table_id)


def table_refresh(table_id: int, reason: str = "changed") -> None:
    """Tell every socket on the table to re-read what it is missing (events since its last sequence, or a snapshot)."""
    try:
        publish(table_group(table_id), {"type": "table.refresh", "table_id": int(table_id), "reason": reason})
    except Exception:
        logger.exception("could not publish a refresh of table %s", table_id)


def _publish_table_events(table_id: int, first_sequence: int, last_sequence: int, rows: Sequence[Any] | None) -> None:
    if last_sequence < first_sequence or last_sequence - first_sequence + 1 > MAXIMUM_EVENTS_PER_MESSAGE:
        table_refresh(table_id, "seats" if last_sequence < first_sequence else "many_events")
        return
    from games import readside  # the domain read side; imported late so this module imports early and cheaply

    if rows is None:
        public, private = readside.range_views(table_id, first_sequence, last_sequence)
    else:
        public, private = readside.views_of_rows(rows)
    if not public:
        return
    # Private copies first: a recipient's consumer ignores the spectator copy of this range either way.
    for user_id, events in private.items():
        publish(
            user_table_group(user_id, table_id),
            _events_message(table_id, first_sequence, last_sequence, events, private=True),
        )
    message = _events_message(table_id, first_sequence, last_sequence, public, private=False)
    message["private_user_ids"] = sorted(private)
    publish(table_group(table_id), message)


def _events_message(
    table_id: int, first_sequence: int, last_sequence: int, events: list[dict[str, Any]], *, private: bool
) -> dict[str, Any]:
    return {
        "type": "table.events",
        "table_id": table_id,
        "first_sequence": first_sequence,
        "last_sequence": last_sequence,
        "events": events,
        "private": private,
    }


# --- Lobby -----------------------------------------------------------------------------------------------


def lobby_notice_key(table_id: int) -> str:
    return f"{settings.REDIS_KEY_PREFIX}:lobby:notice:{int(table_id)}"


def lobby_table_changed(table_id: int) -> None:
    """Announce that the lobby row of ``table_id`` changed, at most once per table per notice window."""
    try:
        # Skipped when a notice went out less than a window ago: consumers reload after that window anyway.
        publish_first_in_window(
            lobby_notice_key(table_id),
            LOBBY_NOTICE_WINDOW_MS,
            LOBBY_GROUP,
            {"type": "lobby.changed", "table_id": int(table_id)},
        )
    except Exception:
        logger.exception("could not announce a lobby change of table %s", table_id)
