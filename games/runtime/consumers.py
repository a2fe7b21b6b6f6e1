"""WebSocket consumers for the lobby (``/ws/lobby/``) and one cash table (``/ws/tables/<id>/``); see docs/protocol.md.
Their frame handling, :class:`ProtocolConsumer`, is also the UTH table socket's (:mod:`games.uth.consumers`).

The consumers are thin: they validate each frame (:mod:`games.runtime.protocol`), rate-limit the connection, call the
domain
services through :mod:`games.runtime.commands` and :mod:`games.runtime.readside` in a worker thread, and relay what
:mod:`games.runtime.realtime` publishes after each commit (to table sockets through :mod:`games.runtime.broadcasts`, to
the lobby
through the channel layer). They hold no game state beyond the last sequence number they sent and whether their
table has closed (its snapshot's status, its ``table_closed`` event): a command that plays at a closed table is
refused at once (``table_closed``, :func:`games.runtime.commands.closed_table_refusal`), never sent to an owner that
will not come.

A frame that changes something is applied at most once per ``request_id`` of the player at the table, across all of
the player's sockets (:mod:`games.runtime.request_replays`, issue 30): a resent copy gets the first answer again,
marked ``duplicate``, or a ``duplicate_request`` error while the first is unanswered; nothing is applied again.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Final, Generic, Protocol, TypeVar

from channels.db import database_sync_to_async as _database_sync_to_async

from games.runtime import commands, presence, readside, realtime, request_replays
from games.runtime.broadcasts import ENCODED_EVENTS_FRAME, encode, table_broadcasts
from games.runtime.protocol import (
    LOBBY_MESSAGES,
    TABLE_MESSAGES,
    ClientMessage,
    FieldRule,
    ProtocolError,
    TokenBucket,
    parse_client_message,
)
from poker_site.core.account_sockets import account_sockets
from poker_site.core.sockets import (
    DatabaseInWorkerThreadsConsumer,
    MailboxConsumer,
    session_still_signs_in,
    socket_connected,
)

logger = logging.getLogger(__name__)
T = TypeVar("T")

RATE_CAPACITY: Final[float] = 20.0
"""Messages a client may send in a burst."""
RATE_PER_SECOND: Final[float] = 10.0
"""Sustained messages per second a client may send."""
FLOOD_REFUSALS: Final[int] = 20
"""Refused messages after which the socket is closed (close code 4008)."""

SEAT_CHANGING_COMMANDS: Final[frozenset[str]] = frozenset({"seat_me", "leave", "sit_in", "sit_out", "top_up"})

READ_ONLY_MESSAGES: Final[frozenset[str]] = frozenset({"ping", "snapshot", "resync"})
"""Table frames that change nothing: every other one is applied at most once per request id (issue 30)."""

CLOSE_TABLE_NOT_FOUND: Final[int] = 4404
CLOSE_FLOOD: Final[int] = 4008
CLOSE_TOO_LARGE: Final[int] = 4009
CLOSE_SIGNED_OUT: Final[int] = 4401
SESSION_CHECK_EVERY_HEARTBEATS: Final[int] = 10
"""A socket re-reads its session every this many heartbeats (5 minutes): each check is two queries and a worker thread
hop, which at every heartbeat would be 60 checks a second for the 1,800 sockets of 300 tables."""


def database_sync_to_async(function: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """Run ``function`` in the worker thread pool with its own database connection.

    Not thread-sensitive on purpose: the default would run every socket's database work of the process one call at a
    time in a single thread, so one slow snapshot would hold up every table. Each call is a self-contained service
    call (its own transaction), so they may run side by side; per socket, calls still happen one after another.
    """
    return _database_sync_to_async(function, thread_sensitive=False)


class ParsedMessage(Protocol):
    """What a socket's parser returns: the message's ``type``, its ``fields`` and the client's ``request_id`` (echoed
    in replies)."""

    @property
    def type(self) -> str: ...

    @property
    def fields(self) -> dict[str, Any]: ...

    @property
    def request_id(self) -> str | None: ...


MessageT = TypeVar("MessageT", bound=ParsedMessage)


class ProtocolConsumer(DatabaseInWorkerThreadsConsumer, Generic[MessageT]):
    """Frame handling every game socket shares (the cash tables, the lobby, UTH): the rate limit and flood cut-off,
    parsing with the socket's own protocol, one error reply per refused frame, and the JSON encoding of what is sent.

    Subclasses give :meth:`parse` (raising :class:`ProtocolError`) and :meth:`handle`, and name in ``refusals`` the
    exceptions whose ``code`` and ``message`` are a refusal for the client (nothing changed); any other exception is
    logged and answered with ``server_error``.
    """

    refusals: ClassVar[tuple[type[Exception], ...]] = (commands.CommandRefused,)

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        self.bucket = TokenBucket(RATE_CAPACITY, RATE_PER_SECOND, time.monotonic())
        await super().websocket_connect(message)
        await self.account_sockets_join()

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        self.account_sockets_leave()
        await super().websocket_disconnect(message)

    # --- A player's sockets close at once when the account is suspended (poker_site.core.account_sockets) --------

    async def account_sockets_join(self) -> None:
        user = self.scope.get("user")
        self.account_user_id: int | None = user.pk if user is not None and user.is_authenticated else None
        if self.account_user_id is not None:
            await account_sockets().join(self.account_user_id, self)

    def account_sockets_leave(self) -> None:
        if getattr(self, "account_user_id", None) is not None:
            assert self.account_user_id is not None
            account_sockets().leave(self.account_user_id, self)

    def account_closed(self, reason: str) -> None:
        """Handle "close" in the socket's own order: through its mailbox when it has one, else as a task."""
        message = {"type": "account.signed_out", "reason": reason}
        deliver = getattr(self, "deliver", None)
        if deliver is not None:
            deliver(message)
        else:
            self.account_closing = asyncio.ensure_future(self.account_signed_out(message))

    async def account_signed_out(self, message: dict[str, Any]) -> None:
        await self.send_error("signed_out", str(message["reason"]))
        await self.close(code=CLOSE_SIGNED_OUT)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.bucket.take(time.monotonic()):
            if self.bucket.refusals >= FLOOD_REFUSALS:
                await self.send_error("flood", "too many messages; closing the connection")
                await self.close(code=CLOSE_FLOOD)
            elif self.bucket.refusals == 1:
                await self.send_error("rate_limited", f"at most {RATE_PER_SECOND:g} messages per second")
            return
        try:
            parsed = self.parse(text_data)
        except ProtocolError as error:
            await self.send_error(error.code, error.message, error.request_id)
            if error.code == "message_too_large":
                await self.close(code=CLOSE_TOO_LARGE)
            return
        key = self.request_key(parsed)
        if key is None:
            await self.handle_and_answer(parsed)
            return
        try:
            seen = await request_replays.claim(key)
        except Exception:
            logger.exception("socket message %s: its request id could not be claimed", parsed.type)
            await self.send_error(
                "server_error", "the server could not handle this message; nothing was changed", parsed.request_id
            )
            return
        if seen is not None:
            await self.send_duplicate(parsed, seen)
            return
        self.answer_of = parsed.request_id
        self.answer = None
        try:
            failed = await self.handle_and_answer(parsed)
        finally:
            self.answer_of = None
        try:
            if failed:
                await request_replays.release(key)
            else:
                await request_replays.remember(key, self.answer)
        except Exception:
            logger.exception("socket message %s: its answer could not be kept for replays", parsed.type)

    async def handle_and_answer(self, parsed: MessageT) -> bool:
        """Handle the frame; answer a refusal or a failure. True when it failed unexpectedly (``server_error``)."""
        try:
            await self.handle(parsed)
        except self.refusals as refusal:
            await self.send_error(
                getattr(refusal, "code", "refused"),
                getattr(refusal, "message", str(refusal)),
                parsed.request_id,
                getattr(refusal, "details", None),
            )
        except Exception:
            logger.exception("socket message %s failed", parsed.type)
            await self.send_error(
                "server_error", "the server could not handle this message; nothing was changed", parsed.request_id
            )
            return True
        return False

    # --- A command frame is applied once per request id (games.runtime.request_replays, issue 30) ---------------

    request_namespace: ClassVar[str | None] = None
    """The socket's namespace of request ids (one per game); None: this socket's frames change nothing."""
    answer_of: str | None = None
    """The request id of the frame being handled, until its answer (``ok`` or ``error``) is sent."""
    answer: dict[str, Any] | None = None
    """The answer of the frame being handled, kept for its copies."""

    def applied_once(self, message: MessageT) -> bool:
        """Whether ``message`` changes something, so that a copy of it must not be applied again."""
        return False

    def request_key(self, message: MessageT) -> str | None:
        """The Redis key of the frame's request id for this player and table, or None when the frame is not guarded
        (no request id, a visitor, a frame that changes nothing)."""
        user_id = getattr(self, "account_user_id", None)
        table_id = getattr(self, "table_id", None)
        if (
            self.request_namespace is None
            or message.request_id is None
            or user_id is None
            or table_id is None
            or not self.applied_once(message)
        ):
            return None
        return request_replays.request_key(
            self.request_namespace, user_id, table_id, message.request_id, message.type, message.fields
        )

    async def send_duplicate(self, message: MessageT, seen: request_replays.Seen) -> None:
        """Answer a copy of a frame already handled: the first answer again (``duplicate: true``), or, while the
        first has no answer yet, a ``duplicate_request`` error. Nothing is applied."""
        if seen.reply is not None:
            await self.send_message({**seen.reply, "duplicate": True})
            return
        await self.send_error(
            request_replays.DUPLICATE_REQUEST,
            f"request {message.request_id} was already received; it is not applied again",
            message.request_id,
        )

    def parse(self, text_data: str | None) -> MessageT:  # pragma: no cover - overridden
        raise NotImplementedError

    async def handle(self, message: MessageT) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    async def send_message(self, message: dict[str, Any]) -> None:
        if (
            self.answer_of is not None
            and message.get("request_id") == self.answer_of
            and message.get("type") in ("ok", "error")
        ):
            self.answer = message  # the answer a copy of this frame gets again (request_replays)
            self.answer_of = None
        await self.send(text_data=encode(message))

    async def send_error(
        self, code: str, message: str, request_id: str | None = None, details: dict[str, Any] | None = None
    ) -> None:
        """One ``error`` frame; ``details`` (a refusal's figures, e.g. the end of a chat mute) go in as more fields."""
        await self.send_message(
            {**(details or {}), "type": "error", "code": code, "message": message, "request_id": request_id}
        )


class ClientProtocolConsumer(ProtocolConsumer[ClientMessage]):
    """A socket speaking the cash-game protocol (:func:`games.runtime.protocol.parse_client_message`)."""

    allowed_messages: ClassVar[dict[str, dict[str, FieldRule]]] = {}

    def parse(self, text_data: str | None) -> ClientMessage:
        return parse_client_message(text_data, self.allowed_messages)


class TableConsumer(MailboxConsumer, ClientProtocolConsumer):
    """One socket watching (and, for a logged-in player, playing at) one cash table.

    The table's broadcasts arrive in its mailbox from this process's :class:`games.runtime.broadcasts.TableBroadcasts`
    (as
    ``table.events`` / ``table.refresh`` messages), handled in order with the client's frames."""

    allowed_messages = TABLE_MESSAGES
    request_namespace = "table"

    def applied_once(self, message: ClientMessage) -> bool:
        return message.type not in READ_ONLY_MESSAGES

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        self.user_id: int | None = self.user.pk if self.user is not None and self.user.is_authenticated else None
        self.viewer = self.user if self.user_id is not None else None
        self.last_sequence = 0
        self.viewer_seat: int | None = None
        self.table_closed = False
        self.broadcasts_joined = False
        self.heartbeat: asyncio.Task[None] | None = None
        self.table = await database_sync_to_async(readside.table_by_id)(self.table_id)
        await self.accept()
        if self.table is None:
            await self.send_error("table_not_found", f"there is no table {self.table_id}")
            await self.close(code=CLOSE_TABLE_NOT_FOUND)
            return
        # Join before reading the snapshot: an event committed in between arrives as a broadcast and is deduplicated
        # by its sequence number, so nothing falls between the snapshot and the stream.
        await table_broadcasts().join(self.table_id, self)
        self.broadcasts_joined = True
        await self.send_snapshot()
        if self.user_id is not None:
            await presence.connected(self.user_id, self.table_id, self.channel_name)
            self.heartbeat = asyncio.ensure_future(self._heartbeat())
            if not self.table_closed:  # a closed table has no seats, and no owner to read a report from its stream
                await database_sync_to_async(commands.connection_restored)(self.user, self.table)
            await database_sync_to_async(socket_connected.send_robust)(
                sender=type(self), scope=self.scope, user_id=self.user_id, table_id=self.table_id
            )

    def mailbox_closed(self) -> None:
        if getattr(self, "broadcasts_joined", False):
            table_broadcasts().leave(self.table_id, self)
            self.broadcasts_joined = False

    async def disconnect(self, code: int) -> None:
        self.mailbox_closed()
        if getattr(self, "heartbeat", None) is not None:
            assert self.heartbeat is not None
            self.heartbeat.cancel()
        if getattr(self, "user_id", None) is not None and getattr(self, "table", None) is not None:
            assert self.user_id is not None
            last = await presence.disconnected(self.user_id, self.table_id, self.channel_name)
            if last and not getattr(self, "table_closed", False):
                # This was the player's last socket on the table: the domain starts its disconnection grace.
                await database_sync_to_async(commands.connection_lost)(self.user, self.table)

    async def _heartbeat(self) -> None:
        """Every :data:`presence.HEARTBEAT_SECONDS` refresh the presence record; every
        :data:`SESSION_CHECK_EVERY_HEARTBEATS` heartbeats first close the socket if its session no longer signs the
        player in (logged out, password changed, account deactivated)."""
        assert self.user_id is not None
        # Sockets opened together (a page load, a reconnect wave) spread their session checks over the interval.
        beats = random.randrange(SESSION_CHECK_EVERY_HEARTBEATS)
        while True:
            await asyncio.sleep(presence.HEARTBEAT_SECONDS)
            beats += 1
            if beats % SESSION_CHECK_EVERY_HEARTBEATS == 0 and not await database_sync_to_async(session_still_signs_in)(
                self.scope, self.user_id
            ):
                await self.send_error("signed_out", "You are no longer logged in: log in again to play.")
                await self.close(code=CLOSE_SIGNED_OUT)
                return
            await presence.connected(self.user_id, self.table_id, self.channel_name)

    # --- Client messages ------------------------------------------------------------------------------------

    async def handle(self, message: ClientMessage) -> None:
        if message.type == "ping":
            await self.send_message({"type": "pong", "request_id": message.request_id})
        elif message.type == "snapshot":
            await self.send_snapshot(message.request_id)
        elif message.type == "resync":
            await self.resync(message.fields["since"], message.request_id)
        else:
            if self.user_id is None:
                raise commands.CommandRefused("not_authenticated", "log in to play; spectators may only watch")
            if self.table_closed and commands.plays_at_the_table(message.type):
                # Nothing is played at a closed table, and it has no owner: answered now, not after the reply time.
                raise await database_sync_to_async(commands.closed_table_refusal)(self.table, self.user, message.type)
            if commands.goes_to_the_owner(message.type):
                # Waited for on this loop: an action takes no worker thread (and no context copy back and forth).
                result = await commands.table_owner_ask_on_the_loop(self.table, self.user, message.type, message.fields)
            else:
                result = await database_sync_to_async(commands.execute)(self.user, self.table, message)
            await self.send_message({"type": "ok", "request_id": message.request_id, "of": message.type, **result})
            if message.type in SEAT_CHANGING_COMMANDS:
                await self.send_snapshot()  # the player's own view changed (their seat, stack, legal actions)

    async def send_snapshot(self, request_id: str | None = None) -> None:
        snapshot = await database_sync_to_async(readside.snapshot)(self.table, self.viewer)
        self.last_sequence = readside.snapshot_sequence(snapshot)
        self.table_closed = commands.table_closed_in(snapshot)
        viewer = snapshot.get("viewer") or {}
        self.viewer_seat = viewer.get("seat") if self.user_id is not None else None
        await self.send_message(
            {
                "type": "snapshot",
                "table_id": self.table_id,
                "sequence": self.last_sequence,
                "snapshot": snapshot,
                "request_id": request_id,
            }
        )

    async def resync(self, since: int, request_id: str | None) -> None:
        """Send every event after ``since`` the client may see, or a snapshot when they are too many or gone."""
        if since > self.last_sequence:
            # The client claims events this socket never sent: start it afresh rather than trust the number.
            await self.send_snapshot(request_id)
            return
        events = await database_sync_to_async(readside.events_since)(
            self.table, since, self.viewer, realtime.MAXIMUM_EVENTS_PER_MESSAGE + 1
        )
        contiguous = all(int(event["sequence"]) == since + index + 1 for index, event in enumerate(events))
        if len(events) > realtime.MAXIMUM_EVENTS_PER_MESSAGE or not contiguous:
            await self.send_snapshot(request_id)
            return
        if events:
            self.last_sequence = max(self.last_sequence, int(events[-1]["sequence"]))
            self.track_table_closed(events)
        await self.send_message(
            {"type": "events", "table_id": self.table_id, "events": events, "resync": True, "request_id": request_id}
        )

    # --- Broadcasts (from games.runtime.realtime through games.runtime.broadcasts)
    # ----------------------------------------------

    async def table_events(self, message: dict[str, Any]) -> None:
        # The message is already this socket's view of the range (games.runtime.broadcasts hands a player with a
        # private event
        # in it their own view instead of the spectators').
        events: list[dict[str, Any]] = message["events"]
        if events and int(events[0]["sequence"]) > self.last_sequence:
            fresh = events  # the usual case: the whole range is new, and its frame is the same for every receiver
        else:
            fresh = [event for event in events if int(event["sequence"]) > self.last_sequence]
        if not fresh:
            return
        if int(fresh[0]["sequence"]) != self.last_sequence + 1:
            await self.catch_up()  # a message went missing: read the gap ourselves rather than leave the client stuck
            return
        await self.forward(fresh, self.events_frame(message) if fresh is events else None)

    def events_frame(self, message: dict[str, Any]) -> str:
        """The ``events`` frame of a broadcast's whole range: encoded by the publisher for the spectator view (every
        receiver would encode the same text), else encoded here once and kept on the message, which every socket of
        this process given the same message shares (a player's private view reaches only that player's sockets)."""
        frame = message.get(ENCODED_EVENTS_FRAME)
        if not isinstance(frame, str):
            frame = encode({"type": "events", "table_id": self.table_id, "events": message["events"]})
            message[ENCODED_EVENTS_FRAME] = frame
        return frame

    async def forward(self, events: list[dict[str, Any]], frame: str | None = None) -> None:
        """Send contiguous new events (``frame``: those events already encoded as an ``events`` frame); then, if the
        last turn in them is this player's, their legal actions."""
        self.last_sequence = int(events[-1]["sequence"])
        if frame is None:
            frame = encode({"type": "events", "table_id": self.table_id, "events": events})
        await self.send(text_data=frame)
        if self.user_id is None:
            return
        turn: dict[str, Any] | None = None
        for event in events:
            self.track_viewer_seat(event)
            kind = event.get("type")
            if kind == "turn":
                turn = event
            elif kind == "table_closed":
                self.table_closed = True
        if turn is not None and self.viewer_seat is not None and turn.get("seat") == self.viewer_seat:
            await self.send_your_turn(turn)

    def track_table_closed(self, events: list[dict[str, Any]]) -> None:
        """Note the table's close from its ``table_closed`` event among ``events`` (a resync's: :meth:`forward` notes
        it as it goes through the events it relays)."""
        if any(event.get("type") == "table_closed" for event in events):
            self.table_closed = True

    def track_viewer_seat(self, event: dict[str, Any]) -> None:
        """Follow the player's own seat through seat events (they carry ``user_id`` while occupied)."""
        seat = event.get("seat")
        if "status" not in event or not isinstance(seat, int):
            return
        if event.get("user_id") == self.user_id and event["status"] != "empty":
            self.viewer_seat = seat
        elif seat == self.viewer_seat and (event["status"] == "empty" or event.get("user_id") != self.user_id):
            self.viewer_seat = None

    async def send_your_turn(self, event: dict[str, Any]) -> None:
        """Tell the player it is their turn, with what they may do: from the ``turn`` event when it carries the legal
        actions (a turn that starts), else read once (a clock switch; for the acting player only)."""
        turn: dict[str, Any] | None
        if isinstance(event.get("legal_actions"), dict) and isinstance(event.get("hand_id"), int):
            turn = {
                "hand_id": event["hand_id"],
                "seat": event["seat"],
                "legal_actions": event["legal_actions"],
                "deadline": event.get("deadline"),
            }
        else:
            turn = await database_sync_to_async(readside.turn_of)(self.table, self.viewer)
        if turn is None:
            return  # the turn already moved on (acted in another tab, timed out)
        await self.send_message(
            {
                "type": "your_turn",
                "table_id": self.table_id,
                "sequence": self.last_sequence,
                "hand_id": turn["hand_id"],
                "seat": turn["seat"],
                "legal_actions": turn["legal_actions"],
                "deadline": turn["deadline"],
            }
        )

    async def table_refresh(self, message: dict[str, Any]) -> None:
        await self.catch_up()

    async def catch_up(self) -> None:
        events = await database_sync_to_async(readside.events_since)(
            self.table, self.last_sequence, self.viewer, realtime.MAXIMUM_EVENTS_PER_MESSAGE + 1
        )
        if not events:
            # Nothing new in the log (a seat change, say): the table's state moved, so send a fresh snapshot.
            await self.send_snapshot()
            return
        contiguous = all(int(event["sequence"]) == self.last_sequence + i + 1 for i, event in enumerate(events))
        if len(events) > realtime.MAXIMUM_EVENTS_PER_MESSAGE or not contiguous:
            await self.send_snapshot()
            return
        await self.forward(events)


class LobbyConsumer(ClientProtocolConsumer):
    """The cash-game lobby: the full list on connect, then coalesced updates of the rows that changed.

    Coalescing: :func:`games.runtime.realtime.lobby_table_changed` sends at most one notice per table per window. On a
    notice
    the consumer schedules a reload of that row one window later (so changes inside the window are included); a
    notice that arrives while a reload is scheduled extends the need past its own window and the row is reloaded
    again after the first push, never more often than once per window. One window after connecting, the whole list
    is read again, for changes whose notice went out just before this socket joined. Only rows that differ from what
    this socket last sent are pushed.
    """

    allowed_messages = LOBBY_MESSAGES

    async def connect(self) -> None:
        self.window = realtime.LOBBY_NOTICE_WINDOW_MS / 1000
        self.due_after: dict[int, float] = {}
        self.timers: dict[int | None, asyncio.TimerHandle] = {}
        self.flushes: set[asyncio.Task[None]] = set()
        self.sent: dict[int, dict[str, Any]] = {}
        await self.channel_layer.group_add(realtime.LOBBY_GROUP, self.channel_name)
        await self.accept()
        await self.send_full_list()
        loop = asyncio.get_running_loop()
        self.timers[None] = loop.call_at(loop.time() + self.window, self._flush_soon, None)

    async def disconnect(self, code: int) -> None:
        for timer in getattr(self, "timers", {}).values():
            timer.cancel()
        await self.channel_layer.group_discard(realtime.LOBBY_GROUP, self.channel_name)

    async def handle(self, message: ClientMessage) -> None:
        if message.type == "ping":
            await self.send_message({"type": "pong", "request_id": message.request_id})
        elif message.type == "refresh":
            await self.send_full_list(message.request_id)

    async def send_full_list(self, request_id: str | None = None) -> None:
        tables = await database_sync_to_async(readside.lobby_rows)(None)
        self.sent = {row["id"]: row for row in tables}
        await self.send_message({"type": "lobby", "tables": tables, "request_id": request_id})

    async def lobby_tournament_changed(self, message: dict[str, Any]) -> None:
        """A tournament's lobby row changed (registrations, status): clients reload it from /api/tournaments/."""
        await self.send_message({"type": "tournament_changed", "tournament_id": int(message["tournament_id"])})

    async def lobby_changed(self, message: dict[str, Any]) -> None:
        table_id = int(message["table_id"])
        loop = asyncio.get_running_loop()
        now = loop.time()
        self.due_after[table_id] = max(self.due_after.get(table_id, 0.0), now + self.window)
        if table_id not in self.timers:
            self.timers[table_id] = loop.call_at(now + self.window, self._flush_soon, table_id)

    def _flush_soon(self, table_id: int | None) -> None:
        task = asyncio.ensure_future(self._flush(table_id))
        self.flushes.add(task)  # keep a reference until it finishes (the loop holds tasks only weakly)
        task.add_done_callback(self.flushes.discard)

    async def _flush(self, table_id: int | None) -> None:
        """Push the changed rows of ``table_id`` (``None``: every table), then re-arm if a notice came meanwhile."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        rows = await database_sync_to_async(readside.lobby_rows)(None if table_id is None else [table_id])
        current = {row["id"]: row for row in rows}
        expected = set(self.sent) if table_id is None else {table_id}
        changed = [row for row_id, row in current.items() if self.sent.get(row_id) != row]
        removed = sorted(row_id for row_id in expected if row_id in self.sent and row_id not in current)
        for row in changed:
            self.sent[row["id"]] = row
        for row_id in removed:
            self.sent.pop(row_id, None)
        if changed or removed:
            await self.send_message({"type": "lobby_update", "tables": changed, "removed": removed})
        if table_id is None:
            self.timers.pop(None, None)
        elif self.due_after.get(table_id, 0.0) > started:
            # A notice arrived whose window had not closed when we read: read again after it, once per window.
            self.timers[table_id] = loop.call_at(
                max(self.due_after[table_id], started + self.window), self._flush_soon, table_id
            )
        else:
            self.timers.pop(table_id, None)
            self.due_after.pop(table_id, None)
