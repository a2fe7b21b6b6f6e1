"""Live notices of tournament changes (after commit): the tournament list page (the tournament lobby socket,
``tournaments/lobby_socket.py``) and the cash-game lobby socket (its tournaments tab) read the tournament again."""

from __future__ import annotations

import logging
from typing import Any, Final

from django.db import transaction

from games.runtime.realtime import LOBBY_GROUP
from poker_site.core.publish import publish

logger = logging.getLogger(__name__)

TOURNAMENT_LOBBY_GROUP: Final[str] = "tournament-lobby"
"""The channel-layer group of the tournament lobby sockets (``/ws/tournaments/``)."""


def tournament_changed(tournament_id: int) -> None:
    """Announce that tournament ``tournament_id``'s registrations or state changed (call it after the commit)."""
    try:
        publish(TOURNAMENT_LOBBY_GROUP, {"type": "tournament.changed", "tournament_id": int(tournament_id)})
        publish(LOBBY_GROUP, {"type": "lobby.tournament_changed", "tournament_id": int(tournament_id)})
    except Exception:  # a client that misses it reads its lists again when its socket reconnects, or polls
        logger.exception("could not announce the change of tournament %s", tournament_id)


def tournament_changed_after_commit(tournament_id: int) -> None:
    """Announce the change of tournament ``tournament_id`` once the current transaction commits (at once outside
    one), once per transaction however many times it changed the tournament: every save of a tournament
    (``tournament_save``) asks for it, and a registration that starts a Sit & Go saves it several times."""
    tournament_id = int(tournament_id)
    connection = transaction.get_connection()
    if any(
        getattr(callback[1], "announces_tournament", None) == tournament_id for callback in connection.run_on_commit
    ):
        return  # already asked for in this transaction (and not undone by a savepoint's rollback)

    def announce() -> None:
        tournament_changed(tournament_id)

    marked: Any = announce
    marked.announces_tournament = tournament_id
    transaction.on_commit(announce)
