"""A bot tournament player: it follows its tournament's table assignment instead of taking a seat.

The tournament seats its players (TRN-03) and moves them (TRN-25); the bot learns where it sits as a player's pages
do (LOB-05, TRN-26): the player socket (``/ws/player/``) names the seats it holds in its ``hello`` and calls it to a
new one with a ``take_your_seat`` notice, and the tournament's API (``GET /api/tournaments/<id>/``), read as often as
the tournament page reads it, says when it is out or the tournament is over. It plays its table over the ordinary
table socket, follows a ``player_moved`` event that names it to its new table, and stops when it is knocked out or
the tournament is over. It never takes a seat, tops up or leaves: none of that exists at a tournament table. No
Django import.
"""

from __future__ import annotations

import asyncio
import json
import time
from random import Random
from typing import Any
from urllib.request import Request, urlopen

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from games.bots.client import Bot, BotSettings, BotStats, websocket_url

FINISHED = {"finished", "cancelled"}

OUT = {"finished", "busted", "disqualified"}
"""A viewer's entry status that ends the bot's tournament."""

PAGE_POLL_SECONDS = 4.0
"""How often the tournament page reads its API (``static/js/tournament.js``); a waiting bot reads it no more often:
the player socket's notice, not the poll, is what calls a player to a new seat."""


def tournament_view(base_url: str, tournament_id: int, session_cookie: str, timeout: float = 10) -> dict[str, Any]:
    """The Specific Tournament Lobby as the bot's player sees it."""
    request = Request(
        f"{base_url.rstrip('/')}/api/tournaments/{int(tournament_id)}/",
        headers={"Cookie": f"sessionid={session_cookie}", "Accept": "application/json"},
    )
    with urlopen(request, timeout=timeout) as response:
        return dict(json.loads(response.read().decode()))


class TournamentBot(Bot):
    """See the module docstring."""

    def __init__(
        self,
        name: str,
        session_cookie: str,
        tournament_id: int,
        settings: BotSettings,
        stats: BotStats,
        rng: Random,
    ) -> None:
        super().__init__(name, session_cookie, 0, 0, settings, stats, rng)
        self.tournament_id = tournament_id
        self.out = False

    def reset_connection_state(self) -> None:
        super().reset_connection_state()
        self.wants_seat = False  # the tournament seats the bot

    async def run(self, deadline: float) -> None:
        while time.monotonic() < deadline and not self.stopped and not self.out:
            table_id = await self.assigned_table(deadline)
            if table_id is None:
                return
            self.table_id = table_id
            await self.play_table(deadline)

    async def play_table(self, deadline: float) -> None:
        """Play the assigned table until moved, knocked out, or the deadline; reconnects are the caller's loop."""
        try:
            await self.session(deadline)
        except Exception:  # a dropped connection: ask the tournament again where to sit
            self.stats.connect_failures += 1
            await asyncio.sleep(self.rng.uniform(0.2, 1.0))

    async def assigned_table(self, deadline: float) -> int | None:
        """Wait until the tournament has seated the bot and return the table; None once it is out, the tournament is
        over or the deadline has passed. Waits as a player's page does: the seat comes from the player socket (its
        ``hello``, then a ``take_your_seat`` notice of this tournament); the API is read every
        :data:`PAGE_POLL_SECONDS` while no notice came, for the end of the bot's tournament (and a seat whose notice
        was lost: notices are sent at most once)."""
        while time.monotonic() < deadline and not self.stopped:
            try:
                async with connect(
                    websocket_url(self.settings.base_url, "/ws/player/"),
                    origin=self.settings.base_url.rstrip("/"),  # type: ignore[arg-type]
                    additional_headers={"Cookie": f"sessionid={self.cookie}"},
                    open_timeout=60,
                    ping_interval=None,
                    compression=None,
                ) as socket:
                    return await self.called_to_a_seat(socket, deadline)
            except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError):
                self.stats.connect_failures += 1
                await asyncio.sleep(self.rng.uniform(0.5, 1.5))
        return None

    async def called_to_a_seat(self, socket: Any, deadline: float) -> int | None:
        """Read the open player socket until it names a seat at this tournament; read the API when it stays quiet."""
        poll_at = time.monotonic() + PAGE_POLL_SECONDS
        while not self.stopped:
            now = time.monotonic()
            if now >= deadline:
                return None
            if now >= poll_at:
                poll_at = now + PAGE_POLL_SECONDS
                try:
                    view = await asyncio.to_thread(
                        tournament_view, self.settings.base_url, self.tournament_id, self.cookie
                    )
                except OSError:
                    continue
                viewer = view.get("viewer") or {}
                if view.get("status") in FINISHED or viewer.get("status") in OUT:
                    self.out = True
                    return None
                if viewer.get("table_id"):
                    return int(viewer["table_id"])
                continue
            try:
                # At most two seconds at a time, so that stop() ends the wait as promptly as a table session's.
                raw = await asyncio.wait_for(socket.recv(), timeout=min(poll_at, deadline, now + 2.0) - now)
            except TimeoutError:
                continue
            table_id = self.seat_named(json.loads(raw))
            if table_id is not None:
                return table_id
        return None

    def seat_named(self, message: dict[str, Any]) -> int | None:
        """The table of this tournament that a player-socket message seats the bot at, if it names one."""
        if message.get("type") == "hello":
            seats = [seat for seat in message.get("seats") or [] if seat.get("tournament_id") == self.tournament_id]
            return int(seats[0]["table_id"]) if seats else None
        if (
            message.get("type") == "notice"
            and message.get("kind") == "take_your_seat"
            and message.get("tournament_id") == self.tournament_id
        ):
            return int(message["table_id"])
        return None

    async def handle_an_empty_stack(self, now: float) -> None:
        """No re-buys in a freezeout: a bot without chips has been knocked out (the events say so)."""

    async def leave_politely(self, ws: Any) -> None:
        """A tournament player does not leave; their chips stay in play."""

    def follow_seat(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        mine = self.user_id is not None and event.get("user_id") == self.user_id
        if kind == "player_moved" and mine:
            self.table_id = int(event["to_table"])
            self.drop_connection = True  # reconnect at the new table (TRN-26)
            return
        if kind == "player_eliminated" and mine:
            self.out = True
            self.stopped = True
            return
        if kind == "table_closed":
            self.drop_connection = True  # the tournament says where to go next, or that it is over
            return
        super().follow_seat(event)
