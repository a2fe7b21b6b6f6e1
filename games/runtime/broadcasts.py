"""Table broadcasts: one Redis subscription per server event loop hands each committed range of a table's events
straight to that loop's sockets on the table (the receiving half of :mod:`games.runtime.realtime`).

Why not the channel layer: through Channels' layer every broadcast reached each socket as a message on its own
channel, and each socket's consumer woke for it through Channels' receive loop (a new task and an ``asyncio.wait``
per message per socket). A table broadcast reaches six players and its spectators, so that machinery cost more than
the game: measured on the benchmark's floor server (benchmarks/floor_server.py), handing frames straight to the
sockets of the process gave an otherwise identical table 1.6 to 2.1 times the actions per second (docs/benchmarks.md;
on the real tables, whose own work dominates, the gain is lower latency at the same load rather than throughput).

How it works:

* :func:`games.runtime.realtime.table_events_committed` publishes one Redis message per committed range on the channel
  :func:`table_channel` ``(table_id)``: the spectator view, that view already encoded as the ``events`` frame, and the
  private view of each player who owns a private event in the range (their hole cards). See :func:`message_encode`.
* Each server event loop has one :class:`TableBroadcasts`: a pattern subscription to every table's channel and a
  reader task. A message for a table with no socket in this loop is dropped before it is decoded; otherwise it is
  decoded once, and each socket on the table is handed, in the order the messages were published, the view meant for
  it: its player's private view, or the spectator view with its frame encoded once for all (``socket.deliver``).
* Sockets receive what the channel layer delivered before: ``table.events`` and ``table.refresh`` messages for
  :class:`games.runtime.consumers.TableConsumer`, which handles them one at a time in its own order with its client
  frames.
* Delivery is at most once, as with the pub/sub channel layer before: a socket that misses a message sees a sequence
  gap and reads what it is missing. When the subscription's connection fails, the reader connects again (backing
  off up to :data:`RECONNECT_MAXIMUM_SECONDS`), subscribes, and then tells every socket in the loop to catch up
  (``table.refresh``, reason ``reconnected``), since messages published in between are lost.

A loop reads every table's broadcasts, dropping the ones it has no socket for by a look-up on the channel name; with
a few server processes that is cheap. Many processes would want the channels split among them (a subscription per
table), which redis-py's asyncio pub/sub makes fragile: a SUBSCRIBE sent while the reader waits is lost.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final, Protocol

import redis.asyncio as redis_asyncio
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder

from poker_site.core.loop_stalls import loop_stalls_watch_start

logger = logging.getLogger(__name__)

SUBSCRIBE_TIMEOUT_SECONDS: Final[float] = 10.0
"""How long a socket that joins waits for its loop's subscription before its connection fails."""
RECONNECT_MAXIMUM_SECONDS: Final[float] = 5.0
"""The longest pause between two attempts to subscribe again after the subscription's connection failed."""

ENCODED_EVENTS_FRAME: Final[str] = "_encoded_events_frame"
"""The key under which a delivered ``table.events`` message carries its ``events`` frame, already encoded (the same
text for every socket that receives that message)."""

_json_encoder = DjangoJSONEncoder(separators=(",", ":"))


def encode(message: Mapping[str, Any]) -> str:
    """JSON text of a frame or broadcast (compact; dates and decimals as Django encodes them)."""
    return _json_encoder.encode(message)


def channel_prefix() -> str:
    return f"{settings.REDIS_KEY_PREFIX}:table-events:"


def table_channel(table_id: int) -> str:
    """The Redis channel that carries table ``table_id``'s broadcasts."""
    return f"{channel_prefix()}{int(table_id)}"


def subscription_pattern() -> str:
    """The pattern of every table's channel (the key prefix escaped: it may not be read as a glob)."""
    return re.sub(r"([\\*?\[\]])", r"\\\1", channel_prefix()) + "*"


def events_frame(table_id: int, events: Sequence[Mapping[str, Any]]) -> str:
    """The ``events`` frame a socket sends for a live range (docs/protocol.md)."""
    return encode({"type": "events", "table_id": int(table_id), "events": events})


def message_encode(
    table_id: int,
    first_sequence: int,
    last_sequence: int,
    public: Sequence[Mapping[str, Any]],
    private: Mapping[int, Sequence[Mapping[str, Any]]],
) -> str:
    """The published form of a committed range: the spectator view (``public``, with its frame encoded here once for
    every socket of every process) and each owner's private view of the whole range (``private`` by user id)."""
    return encode(
        {
            "kind": "events",
            "table_id": int(table_id),
            "first_sequence": int(first_sequence),
            "last_sequence": int(last_sequence),
            "public": public,
            "frame": events_frame(table_id, public),
            "private": {str(user_id): events for user_id, events in private.items()},
        }
    )


def refresh_encode(table_id: int, reason: str) -> str:
    """The published form of "every socket on this table: read what you are missing"."""
    return encode({"kind": "refresh", "table_id": int(table_id), "reason": reason})


class TableSocket(Protocol):
    """What a table socket gives :class:`TableBroadcasts`: its player (``None`` for a spectator) and a mailbox."""

    @property
    def user_id(self) -> int | None: ...

    def deliver(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for the socket's own handling; must not block or raise."""
        ...


def refresh_message(table_id: int, reason: str) -> dict[str, Any]:
    """The ``table.refresh`` message a socket handles by reading what it is missing."""
    return {"type": "table.refresh", "table_id": table_id, "reason": reason}


def socket_messages(payload: Mapping[str, Any]) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """The messages a decoded broadcast becomes: the one for spectators (and players without a private view), and
    each private view's by user id. Every socket given the same message shares the one dict (read-only)."""
    table_id = int(payload["table_id"])
    if payload.get("kind") == "refresh":
        return refresh_message(table_id, str(payload.get("reason", "changed"))), {}
    common = {
        "type": "table.events",
        "table_id": table_id,
        "first_sequence": int(payload["first_sequence"]),
        "last_sequence": int(payload["last_sequence"]),
    }
    public = {**common, "events": payload["public"], ENCODED_EVENTS_FRAME: payload["frame"]}
    private = {int(user_id): {**common, "events": events} for user_id, events in payload.get("private", {}).items()}
    return public, private


class TableBroadcasts:
    """One event loop's subscription to every table's broadcasts and its sockets by table (see the module docstring).

    Use :func:`table_broadcasts` for the running loop's instance. :meth:`join` returns once the subscription is in
    place, so a socket that joins and then reads its snapshot misses no broadcast committed after that read."""

    def __init__(self) -> None:
        self.sockets: dict[int, set[TableSocket]] = {}
        self.subscribed = asyncio.Event()
        self.reader: asyncio.Task[None] | None = None
        self.prefix = channel_prefix().encode()

    async def join(self, table_id: int, socket: TableSocket) -> None:
        if self.reader is None or self.reader.done():
            self.reader = asyncio.ensure_future(self._read_forever())
            loop_stalls_watch_start("web process")
        self.sockets.setdefault(int(table_id), set()).add(socket)
        try:
            await asyncio.wait_for(self.subscribed.wait(), SUBSCRIBE_TIMEOUT_SECONDS)
        except BaseException:
            self.leave(table_id, socket)
            raise

    def leave(self, table_id: int, socket: TableSocket) -> None:
        members = self.sockets.get(int(table_id))
        if members is not None:
            members.discard(socket)
            if not members:
                del self.sockets[int(table_id)]

    def dispatch(self, channel: bytes, data: bytes) -> int:
        """Hand one published message to the sockets of its table in this loop; returns how many were handed it.
        Decodes nothing when the table has no socket here."""
        if not channel.startswith(self.prefix):
            return 0
        try:
            table_id = int(channel[len(self.prefix) :])
        except ValueError:
            return 0
        members = self.sockets.get(table_id)
        if not members:
            return 0
        public, private = socket_messages(json.loads(data))
        for socket in members:
            socket.deliver(private.get(socket.user_id, public) if socket.user_id is not None else public)
        return len(members)

    def refresh_all(self, reason: str) -> None:
        for table_id, members in self.sockets.items():
            message = refresh_message(table_id, reason)
            for socket in members:
                socket.deliver(message)

    async def _read_forever(self) -> None:
        pause = 0.1
        subscribed_before = False
        while True:
            client = redis_asyncio.Redis.from_url(
                settings.REDIS_URL, socket_timeout=None, socket_keepalive=True, client_name=self.client_name()
            )
            pubsub = client.pubsub()
            try:
                await pubsub.psubscribe(subscription_pattern())
                while True:  # the confirmation: from here on every broadcast published reaches this reader
                    confirmation = await pubsub.get_message(timeout=SUBSCRIBE_TIMEOUT_SECONDS)
                    if confirmation is None:
                        raise TimeoutError("Redis did not confirm the table broadcasts subscription")
                    if confirmation["type"] == "psubscribe":
                        break
                self.subscribed.set()
                pause = 0.1
                if subscribed_before:
                    self.refresh_all("reconnected")  # what was published while we were away is lost
                subscribed_before = True
                async for message in pubsub.listen():
                    if message["type"] == "pmessage":
                        try:
                            self.dispatch(message["channel"], message["data"])
                        except Exception:
                            logger.exception("could not hand out a table broadcast on %r", message["channel"])
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning("table broadcasts: subscription lost; subscribing again", exc_info=True)
            finally:
                self.subscribed.clear()
                await _close_quietly(pubsub, client)
            await asyncio.sleep(pause)
            pause = min(RECONNECT_MAXIMUM_SECONDS, pause * 2)

    @staticmethod
    def client_name() -> str:
        """The subscription connection's Redis client name (``CLIENT LIST`` shows whose it is)."""
        return f"{settings.REDIS_KEY_PREFIX}:table-broadcasts"


async def _close_quietly(pubsub: Any, client: redis_asyncio.Redis) -> None:
    for closing in (pubsub.aclose, client.aclose):
        try:
            await closing()
        except Exception:
            logger.debug("closing the table broadcasts connection failed", exc_info=True)


_by_loop: dict[asyncio.AbstractEventLoop, TableBroadcasts] = {}
"""Each loop's instance. Not a weak mapping: the instance's reader task refers to its loop, so the loop would never
be dropped; closed loops (tests run one per scenario) are dropped when the next one asks instead."""


def table_broadcasts() -> TableBroadcasts:
    """The running event loop's :class:`TableBroadcasts` (one per loop: redis.asyncio connections belong to one)."""
    loop = asyncio.get_running_loop()
    instance = _by_loop.get(loop)
    if instance is None:
        for closed in [other for other in _by_loop if other.is_closed()]:
            del _by_loop[closed]
        instance = _by_loop[loop] = TableBroadcasts()
    return instance
