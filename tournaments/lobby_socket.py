"""The tournament lobby socket, ``/ws/tournaments/``: what the tournament list page (``/tournaments/``) listens to.

It carries one notice, ``tournament_changed`` (``tournament_id``), sent after a commit that changed a tournament's
registrations or state (:func:`tournaments.realtime.tournament_changed`); the page reads its lists again. Unlike the
cash-game lobby socket (``/ws/lobby/``, which carries the same notice beside every cash table's row), it sends
nothing about cash tables, so a page that lists tournaments is not kept busy with every hand dealt on the site.

Anyone may open it (the lists are public; the page reads the player's own parts itself). Nothing is sent on connect:
a client reads its lists when the socket opens (and opens again), which is its resync after a gap. The client may
send ``ping`` (answered ``pong``). Thin: no database access.
"""

from __future__ import annotations

from typing import Any, Final

from games.runtime.consumers import ClientProtocolConsumer
from games.runtime.protocol import ClientMessage, FieldRule
from tournaments.realtime import TOURNAMENT_LOBBY_GROUP

TOURNAMENT_LOBBY_MESSAGES: Final[dict[str, dict[str, FieldRule]]] = {"ping": {}}
"""What the client may send: ``ping`` (answered ``pong``)."""


class TournamentLobbyConsumer(ClientProtocolConsumer):
    """One tournament list page's socket (see the module docstring)."""

    allowed_messages = TOURNAMENT_LOBBY_MESSAGES

    async def connect(self) -> None:
        await self.channel_layer.group_add(TOURNAMENT_LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(TOURNAMENT_LOBBY_GROUP, self.channel_name)

    async def handle(self, message: ClientMessage) -> None:
        if message.type == "ping":
            await self.send_message({"type": "pong", "request_id": message.request_id})

    async def tournament_changed(self, message: dict[str, Any]) -> None:
        """A tournament's registrations or state changed: clients read their lists again."""
        await self.send_message({"type": "tournament_changed", "tournament_id": int(message["tournament_id"])})
