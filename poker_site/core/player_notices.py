"""Notices for one player, wherever they are on the site: the player socket (``/ws/player/``,
:mod:`tournaments.player_socket`) that every page of a logged-in player opens.

Services call :func:`player_notify_after_commit` inside their transaction; the notice goes out once the transaction
commits (nothing is sent for a rolled-back change), through this process's publisher
(:func:`poker_site.core.publish.publish`) to the channel-layer group :func:`player_group` of that player, which every
open player socket of theirs joins. Delivery is at most once: the player socket reads what matters again when it
(re)connects (the tables the player is seated at), and the header balance is read on every page load.

Notices (``kind`` field; every one carries it, the rest depends on the kind):

* ``take_your_seat``: the player was seated at a tournament table (a start, a filled Sit & Go, a late registration,
  a HexaPro game) or moved to another one (TRN-26, LOB-05): ``table_id``, ``tournament_id``, ``tournament_name``,
  ``tournament_kind`` (``scheduled``, ``sit_and_go``, ``hexapro``), ``reason`` (``start``, ``late_registration``,
  ``moved``), ``from_table`` (a move's table, else ``null``), ``deal_at`` (ISO 8601: the first deal, or ``null``).
* ``balance``: the player's cash balance changed: ``cents`` (the balance after the transfer that committed).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any, Final

from django.db import transaction

from poker_site.core.publish import publish

logger = logging.getLogger(__name__)

NOTICE_MESSAGE_TYPE: Final[str] = "player.notice"
"""The channel-layer message type (handled by the player socket's ``player_notice``)."""


def player_group(user_id: int) -> str:
    """The channel-layer group of player ``user_id``'s open player sockets."""
    return f"player.{int(user_id)}"


def player_notify(user_id: int, notice: dict[str, Any]) -> None:
    """Queue ``notice`` to every player socket of ``user_id`` now (returns at once; call it after commit)."""
    try:
        publish(player_group(user_id), {"type": NOTICE_MESSAGE_TYPE, "notice": notice})
    except Exception:  # the change is committed; the page reads it again on its next load
        logger.exception("could not send a %s notice to player %s", notice.get("kind"), user_id)


def player_notify_after_commit(notices: Iterable[tuple[int, dict[str, Any]]]) -> None:
    """Send each ``(user_id, notice)`` once the current transaction commits (at once outside a transaction)."""
    pending = [(int(user_id), notice) for user_id, notice in notices]
    if not pending:
        return

    def send() -> None:
        for user_id, notice in pending:
            player_notify(user_id, notice)

    transaction.on_commit(send)
