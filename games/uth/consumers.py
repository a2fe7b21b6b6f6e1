"""The UTH table socket ``/ws/uth/<table_id>/`` (docs/uth-protocol.md). Thin: validate, rate-limit, call a service
in a worker thread, relay what games.uth.realtime publishes after each commit. A command frame is applied at most once
per ``request_id`` of the player at the table (games.runtime.request_replays, issue 30): a copy gets the first answer
again."""

from __future__ import annotations

import asyncio
from typing import Any

from channels.db import database_sync_to_async

from games.chat.errors import ChatRefused
from games.chat.services import CHAT_EVENT
from games.runtime.consumers import CLOSE_TABLE_NOT_FOUND, ProtocolConsumer
from games.uth import commands, presence, readside, realtime
from games.uth.errors import UthRefused
from games.uth.models import UthTable
from games.uth.protocol import COMMANDS, UthMessage, parse_uth_message
from games.uth.services import uth_player_disconnected


class UthTableConsumer(ProtocolConsumer[UthMessage]):
    """One socket watching (and, for a logged-in player, playing at) one UTH table. Frame handling (rate limit, flood
    cut-off, error replies) is the game sockets' shared :class:`games.runtime.consumers.ProtocolConsumer`."""

    refusals = (UthRefused, ChatRefused)
    request_namespace = "uth"

    def applied_once(self, message: UthMessage) -> bool:
        """Commands (a bet, a double, a decision, ...) are applied at most once per request id (issue 30)."""
        return message.type in COMMANDS

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        user = self.scope.get("user")
        self.user = user if user is not None and user.is_authenticated else None
        self.last_sequence = 0
        self.groups_joined: list[str] = []
        self.heartbeat: asyncio.Task[None] | None = None
        self.table = await database_sync_to_async(UthTable.objects.filter(pk=self.table_id).first)()
        await self.accept()
        if self.table is None:
            await self.send_error("table_not_found", f"There is no Ultimate Texas Hold'em table {self.table_id}.")
            await self.close(code=CLOSE_TABLE_NOT_FOUND)
            return
        # Join before reading the snapshot: an event committed in between arrives by the group and is skipped by its
        # sequence number, so nothing falls between the snapshot and the stream.
        groups = [realtime.table_group(self.table_id)]
        if self.user is not None:
            groups.append(realtime.user_group(self.user.pk, self.table_id))
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups_joined.append(group)
        await self.send_snapshot()
        if self.user is not None:
            await presence.connected(self.user.pk, self.table_id, self.channel_name)
            self.heartbeat = asyncio.ensure_future(self._heartbeat())

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        if getattr(self, "heartbeat", None) is not None:
            assert self.heartbeat is not None
            self.heartbeat.cancel()
        if getattr(self, "user", None) is not None and getattr(self, "table", None) is not None:
            assert self.user is not None
            if await presence.disconnected(self.user.pk, self.table_id, self.channel_name):
                # The player's last socket on this table: bets still in betting time are void (UTH-38).
                await database_sync_to_async(uth_player_disconnected)(self.user, self.table_id)

    async def _heartbeat(self) -> None:
        assert self.user is not None
        while True:
            await asyncio.sleep(presence.HEARTBEAT_SECONDS)
            await presence.connected(self.user.pk, self.table_id, self.channel_name)

    # --- client messages --------------------------------------------------------------------------------------------

    def parse(self, text_data: str | None) -> UthMessage:
        return parse_uth_message(text_data)

    async def handle(self, message: UthMessage) -> None:
        if message.type == "ping":
            await self.send_message({"type": "pong", "request_id": message.request_id})
        elif message.type == "snapshot":
            await self.send_snapshot(message.request_id)
        elif message.type == "resync":
            await self.resync(message.fields["since"], message.request_id)
        elif message.type in COMMANDS:
            if self.user is None:
                raise UthRefused("Log in to play; visitors may only watch.", code="not_authenticated")
            result = await database_sync_to_async(commands.execute)(self.user, self.table_id, message)
            await self.send_message({"type": "ok", "request_id": message.request_id, "of": message.type, **result})
            if message.type != "chat":  # a chat line changes nothing of the player's own view
                await self.send_me()

    # --- sending ----------------------------------------------------------------------------------------------------

    async def send_snapshot(self, request_id: str | None = None) -> None:
        assert self.table is not None
        snapshot = await database_sync_to_async(readside.snapshot)(self.table, self.user)
        self.last_sequence = int(snapshot["sequence"])
        await self.send_message(
            {"type": "snapshot", "sequence": self.last_sequence, "snapshot": snapshot, "request_id": request_id}
        )

    async def send_me(self) -> None:
        """The player's own view (bets, balance, options, results); a full replacement, so it needs no sequence."""
        if self.user is None or self.table is None:
            return
        view = await database_sync_to_async(readside.player_view)(self.table, self.user)
        await self.send_message({"type": "you", "me": view})

    async def resync(self, since: int, request_id: str | None) -> None:
        """The events after ``since``, or a snapshot when they are too many, gone, or ``since`` is not believable."""
        if since > self.last_sequence:
            await self.send_snapshot(request_id)
            return
        limit = realtime.MAXIMUM_EVENTS_PER_MESSAGE
        events = await database_sync_to_async(readside.events_since)(self.table_id, since, limit + 1)
        contiguous = all(int(event["sequence"]) == since + index + 1 for index, event in enumerate(events))
        if len(events) > limit or not contiguous:
            await self.send_snapshot(request_id)
            return
        if events:
            self.last_sequence = max(self.last_sequence, int(events[-1]["sequence"]))
        await self.send_message({"type": "events", "events": events, "resync": True, "request_id": request_id})

    # --- channel-layer messages (games.uth.realtime) ----------------------------------------------------------------

    async def uth_events(self, message: dict[str, Any]) -> None:
        fresh = [event for event in message["events"] if int(event["sequence"]) > self.last_sequence]
        if not fresh:
            return
        if int(fresh[0]["sequence"]) != self.last_sequence + 1:
            await self.catch_up()  # something went missing: read the gap ourselves
        else:
            self.last_sequence = int(fresh[-1]["sequence"])
            await self.send_message({"type": "events", "events": fresh})
            if all(event.get("kind") == CHAT_EVENT for event in fresh):
                return  # chat lines change nobody's own view: no re-read of it per socket
        await self.send_me()

    async def uth_refresh(self, message: dict[str, Any]) -> None:
        await self.catch_up()
        await self.send_me()

    async def uth_player(self, message: dict[str, Any]) -> None:
        await self.send_me()

    async def uth_stats(self, message: dict[str, Any]) -> None:
        await self.send_message({"type": "stats", "round_id": message["round_id"], "stats": message["stats"]})

    async def catch_up(self) -> None:
        limit = realtime.MAXIMUM_EVENTS_PER_MESSAGE
        events = await database_sync_to_async(readside.events_since)(self.table_id, self.last_sequence, limit + 1)
        contiguous = all(int(event["sequence"]) == self.last_sequence + i + 1 for i, event in enumerate(events))
        if len(events) > limit or not contiguous:
            await self.send_snapshot()
            return
        if events:
            self.last_sequence = int(events[-1]["sequence"])
            await self.send_message({"type": "events", "events": events})
