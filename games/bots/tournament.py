"""A bot tournament player: it follows its tournament's table assignment instead of taking a seat.

The tournament seats its players (TRN-03) and moves them (TRN-25); the bot asks the tournament's API where it sits
(``GET /api/tournaments/<id>/`` → ``viewer.table_id``), plays that table over the ordinary table socket, follows a
``player_moved`` event that names it to its new table, and stops when it is knocked out or the tournament is over.
It never takes a seat, tops up or leaves: none of that exists at a tournament table. No Django import.
"""

from __future__ import annotations

import asyncio
import json
import time
from random import Random
from typing import Any
from urllib.request import Request, urlopen

from games.bots.client import Bot, BotSettings, BotStats

FINISHED = {"finished", "cancelled"}


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
        """Wait until the tournament has seated the bot; None once it is out or the tournament is over."""
        while time.monotonic() < deadline and not self.stopped:
            try:
                view = await asyncio.to_thread(tournament_view, self.settings.base_url, self.tournament_id, self.cookie)
            except OSError:
                await asyncio.sleep(1.0)
                continue
            viewer = view.get("viewer") or {}
            if view.get("status") in FINISHED or viewer.get("status") in {"finished", "busted", "disqualified"}:
                self.out = True
                return None
            if viewer.get("table_id"):
                return int(viewer["table_id"])
            await asyncio.sleep(1.0)
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
