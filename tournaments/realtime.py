"""Live notices of tournament changes to the lobby sockets (after commit): the tournament lobby reloads the row."""

from __future__ import annotations

import logging

from games.runtime.realtime import LOBBY_GROUP
from poker_site.core.publish import publish

logger = logging.getLogger(__name__)


def tournament_changed(tournament_id: int) -> None:
    try:
        publish(LOBBY_GROUP, {"type": "lobby.tournament_changed", "tournament_id": int(tournament_id)})
    except Exception:  # a client that misses it refreshes on its next poll
        logger.exception("could not announce the change of tournament %s", tournament_id)
