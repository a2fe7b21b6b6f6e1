"""Live fan-out of committed UTH changes to the table sockets (the services call these in ``transaction.on_commit``).

* :func:`events_committed` — public events ``first..last`` of a table are committed: they go by value to the group
  ``uth.table.<id>`` that every socket on the table joins (ranges longer than :data:`MAXIMUM_EVENTS_PER_MESSAGE` go as
  a ``uth.refresh`` notice; each socket then reads what it is missing).
* :func:`player_changed` — something of one player changed (a bet, a decision): their own sockets on the table (group
  ``uth.user.<user_id>.table.<id>``) re-read the player's view. Nothing private ever goes to the table group.
* :func:`decision_stats_changed` — the decision statistics of the current phase (UTH-32), computed once and sent by
  value, at most once per :data:`STATS_WINDOW_MS` per table (a Redis ``SET NX PX`` key); phase-change events carry the
  final figures, so a skipped notice loses nothing for good.

Messages leave through this process's publisher thread (:mod:`poker_site.core.publish`), in order. Publishing never
raises into the service that called it (the change is committed; a client that misses a push sees a sequence gap and
asks for a snapshot). Failures are logged.
"""

from __future__ import annotations

import logging
from typing import Final

from django.conf import settings

from poker_site.core.publish import first_in_window, publish

logger = logging.getLogger(__name__)

MAXIMUM_EVENTS_PER_MESSAGE: Final[int] = 200
STATS_WINDOW_MS: Final[int] = 300


def table_group(table_id: int) -> str:
    return f"uth.table.{int(table_id)}"


def user_group(user_id: int, table_id: int) -> str:
    return f"uth.user.{int(user_id)}.table.{int(table_id)}"


def events_committed(table_id: int, first: int, last: int) -> None:
    try:
        from games.uth.readside import events_between

        if last - first + 1 > MAXIMUM_EVENTS_PER_MESSAGE:
            publish(table_group(table_id), {"type": "uth.refresh"})
            return
        events = events_between(table_id, first, last)
        publish(table_group(table_id), {"type": "uth.events", "events": events})
    except Exception:
        logger.exception("could not publish UTH events %s..%s of table %s", first, last, table_id)


def player_changed(table_id: int, user_id: int) -> None:
    try:
        publish(user_group(user_id, table_id), {"type": "uth.player"})
    except Exception:
        logger.exception("could not notify player %s at UTH table %s", user_id, table_id)


def decision_stats_changed(table_id: int, round_id: int) -> None:
    try:
        key = f"{settings.REDIS_KEY_PREFIX}:uth:stats:{int(table_id)}"
        if not first_in_window(key, STATS_WINDOW_MS):
            return
        from games.uth.models import UthRound
        from games.uth.readside import decision_stats

        round_ = UthRound.objects.filter(pk=round_id).first()
        if round_ is None:
            return
        publish(table_group(table_id), {"type": "uth.stats", "round_id": round_id, "stats": decision_stats(round_)})
    except Exception:
        logger.exception("could not publish UTH decision statistics of table %s", table_id)
