"""Live fan-out of committed table changes to WebSocket clients (the domain services call these after commit).

Contract with the services (they call both inside ``transaction.on_commit``, never inside a transaction):

* :func:`table_events_committed` — hand/table events ``first_sequence..last_sequence`` of one table are committed.
  The committing process passes the rows it has just written (else they are loaded once), and each view is made by
  the domain's ``event_view`` (the same rules as ``table_events_since(table, sequence, viewer)``). One Redis message
  on the table's broadcast channel (:mod:`games.runtime.broadcasts`) carries:

  - the spectator view (no hidden card), which every socket on the table receives, with its ``events`` frame encoded
    here once for every socket of every server process;
  - each player who owns a private event in the range (their hole cards): *their* view of the whole range, which only
    that player's sockets receive instead of the spectator view. So every viewer receives every sequence number
    exactly once and hole cards reach their owner alone.

  When there is nothing to send by value (an empty range, e.g. a seat change without a hand event, or a range too
  long for one message) every socket on the table gets a ``table.refresh`` notice and reads what it is missing
  (events or a snapshot) for its own viewer.

* :func:`lobby_table_changed` — the lobby row of a table changed (players, stacks, waiting list, average pot). At most
  one notice per table per :data:`LOBBY_NOTICE_WINDOW_MS` goes to the group ``lobby`` (a Redis ``SET NX PX`` key, set
  on the publisher thread: the committing thread does not wait for Redis);
  each lobby consumer then reloads the row no earlier than one window after the notice, so a change that fell inside
  a window is still pushed (see :class:`games.runtime.consumers.LobbyConsumer`).

Both functions only *publish*: they never raise into the service that called them (the change is already committed;
a client that misses a push sees a sequence gap and resyncs), they log instead. Messages go out through this process's
publisher thread (:mod:`poker_site.core.publish`), in order and without making the committing thread wait for Redis.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Final

from django.conf import settings

from games.runtime.broadcasts import message_encode, refresh_encode, table_channel
from poker_site.core.publish import nothing_queued_to_redis, publish_first_in_window, publish_to_redis

logger = logging.getLogger(__name__)

LOBBY_GROUP: Final[str] = "lobby"
LOBBY_NOTICE_WINDOW_MS: Final[int] = 500
"""At most one lobby notice per table per this many milliseconds."""

MAXIMUM_EVENTS_PER_MESSAGE: Final[int] = 200
"""Longer ranges are announced with ``table.refresh`` and read by each consumer (channel messages stay small)."""


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
        publish_to_redis(table_channel(table_id), refresh_encode(table_id, reason))
    except Exception:
        logger.exception("could not publish a refresh of table %s", table_id)


def _publish_table_events(table_id: int, first_sequence: int, last_sequence: int, rows: Sequence[Any] | None) -> None:
    if last_sequence < first_sequence or last_sequence - first_sequence + 1 > MAXIMUM_EVENTS_PER_MESSAGE:
        table_refresh(table_id, "seats" if last_sequence < first_sequence else "many_events")
        return
    from games.runtime import readside  # the domain read side; imported late so this module imports early and cheaply

    if rows is None:
        public, private = readside.range_views(table_id, first_sequence, last_sequence)
    else:
        public, private = readside.views_of_rows(rows)
    if not public:
        return
    publish_to_redis(table_channel(table_id), message_encode(table_id, first_sequence, last_sequence, public, private))


def table_events_broadcast(table_id: int, rows: Sequence[Any]) -> tuple[str, str] | None:
    """The broadcast channel of table ``table_id`` and the message :func:`table_events_committed` would publish there
    for ``rows`` (the table's events of one range, numbered, in order), for a caller that sends it itself; None when
    that message would not be this one (nothing to send, or a range too long for a message: a refresh instead)."""
    if not rows or len(rows) > MAXIMUM_EVENTS_PER_MESSAGE:
        return None
    from games.runtime import readside

    public, private = readside.views_of_rows(rows)
    if not public:
        return None
    first_sequence, last_sequence = rows[0].sequence, rows[-1].sequence
    return table_channel(table_id), message_encode(table_id, first_sequence, last_sequence, public, private)


def table_broadcasts_in_order(table_id: int) -> bool:
    """Whether a broadcast of table ``table_id`` sent now, other than through :func:`table_events_committed`, would
    reach the sockets after everything this process published at the table before (nothing of it still queued)."""
    return nothing_queued_to_redis(table_channel(table_id))


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
