"""The floor of a live table action: the least work any table server must do per action under the architecture rules,
as a second peer of the live-table benchmark (benchmarks/bench_tables.py).

Served by daphne (``daphne benchmarks.floor_server:application``) over the same kind of Redis channel layer as the
site. A socket joins table ``<id>`` at ``/ws/floor/<id>/``. Each frame it sends, ``{"seat": s}``, is one action:

1. one durable PostgreSQL transaction appends the action to the table's sequence-numbered event log (architecture
   rule 4): a single autocommit statement bumps the table's counter and inserts the event row with that number, and
   the commit waits for the WAL flush (``synchronous_commit`` as the server has it, ``on`` by default);
2. after the commit, one Redis PUBLISH (received once by each server process), the frame encoded once by the sender;
3. every socket of the table receives the same ``events`` frame, which names the next seat to act.

Three ways of fanning out, each measured by the benchmark:

* ``/ws/floor/<id>/``: a Channels consumer per socket, the table a channel-layer group (as the site and the echo do);
* ``/ws/floor-local/<id>/``: a Channels consumer per socket, but the broadcast skips the channel layer: one Redis
  pub/sub subscription per process for all its tables, and each frame handed straight to the ``send`` of every
  local consumer of the table;
* ``/ws/floor-raw/<id>/``: no Channels consumer and no channel layer: a bare ASGI application under the same daphne,
  with the same per-process subscription, each frame written straight to every local socket of the table (what a
  server that bypassed Channels altogether would still have to do).

What it leaves out, and a real table cannot: authentication, the rate limit and message validation, the game itself
(the engine, legal actions, the clocks), row locks, the hand's state, hole cards and private views, the ``ok`` and
``your_turn`` frames, rake, the ledger, the lobby and the ticker. So a table server on this stack can be no faster
than this; the benchmark measures it in the same run as the echo server and the site.

Environment: ``REDIS_URL`` and ``DATABASE_URL`` (required), ``REDIS_KEY_PREFIX`` (default ``bench``),
``FLOOR_DATABASE_CONNECTIONS`` (per process, default 4).
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg
import redis.asyncio as redis_asyncio

from benchmarks.standalone_channels import channels_configure

channels_configure("floor")

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402 - after settings.configure()
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402 - after settings.configure()
from django.urls import path  # noqa: E402 - after settings.configure()

SEATS = 6

SCHEMA = """
CREATE TABLE IF NOT EXISTS floor_table (id integer PRIMARY KEY, sequence bigint NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS floor_event (
    table_id integer NOT NULL REFERENCES floor_table (id),
    sequence bigint NOT NULL,
    payload jsonb NOT NULL,
    PRIMARY KEY (table_id, sequence)
);
"""

APPEND = """
WITH counter AS (UPDATE floor_table SET sequence = sequence + 1 WHERE id = %(table)s RETURNING id, sequence)
INSERT INTO floor_event (table_id, sequence, payload) SELECT id, sequence, %(payload)s FROM counter
RETURNING sequence
"""


def schema_create(database_url: str, tables: int) -> None:
    """Create the floor's two tables and ``tables`` table rows (the benchmark calls this before starting servers)."""
    with psycopg.connect(database_url, autocommit=True) as connection:
        connection.execute(SCHEMA)
        connection.execute(
            "INSERT INTO floor_table (id) SELECT generate_series(1, %s) ON CONFLICT DO NOTHING", (tables,)
        )


class ConnectionPool:
    """A few autocommit connections of this process's event loop, handed out one action at a time."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.idle: asyncio.Queue[psycopg.AsyncConnection[Any]] | None = None
        self.opening: asyncio.Lock | None = None

    async def append(self, table_id: int, payload: str) -> int:
        if self.idle is None:
            await self._open()
        assert self.idle is not None
        connection = await self.idle.get()
        try:
            cursor = await connection.execute(APPEND, {"table": table_id, "payload": payload}, prepare=True)
            row = await cursor.fetchone()
            assert row is not None
            return int(row[0])
        finally:
            self.idle.put_nowait(connection)

    async def _open(self) -> None:
        if self.opening is None:
            self.opening = asyncio.Lock()
        async with self.opening:
            if self.idle is not None:
                return
            idle: asyncio.Queue[psycopg.AsyncConnection[Any]] = asyncio.Queue()
            for _ in range(self.size):
                idle.put_nowait(await psycopg.AsyncConnection.connect(os.environ["DATABASE_URL"], autocommit=True))
            self.idle = idle


POOL = ConnectionPool(int(os.environ.get("FLOOR_DATABASE_CONNECTIONS", "4")))


class FloorConsumer(AsyncWebsocketConsumer):
    """One player's socket at one floor table."""

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.group = f"floor.{self.table_id}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        frame = await floor_act(self.table_id, text_data)
        await self.channel_layer.group_send(self.group, {"type": "floor.events", "frame": frame})

    async def floor_events(self, message: dict[str, Any]) -> None:
        await self.send(text_data=message["frame"])


async def floor_act(table_id: int, text: str | None) -> str:
    """One action ``{"seat": s}``: appended to the table's log (durably); returns the ``events`` frame announcing it."""
    seat = int(json.loads(text or "{}")["seat"]) % SEATS
    event = {"type": "action", "seat": seat, "action": "call"}
    sequence = await POOL.append(table_id, json.dumps(event))
    return events_frame(table_id, sequence, event)


def events_frame(table_id: int, sequence: int, event: dict[str, Any]) -> str:
    return json.dumps(
        {
            "type": "events",
            "table_id": table_id,
            "events": [{"sequence": sequence, **event}],
            "next_seat": (event["seat"] + 1) % SEATS,
        },
        separators=(",", ":"),
    )


class RawFanOut:
    """This process's sockets by table, and the one Redis subscription that feeds them all (no Channels)."""

    def __init__(self) -> None:
        self.sockets: dict[int, set[Callable[[str], Awaitable[None]]]] = {}
        self.redis: redis_asyncio.Redis | None = None
        self.pubsub: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()
        self.prefix = f"{os.environ.get('REDIS_KEY_PREFIX', 'bench')}:floor-raw:"

    async def join(self, table_id: int, send: Callable[[str], Awaitable[None]]) -> None:
        if self.redis is not None:
            await self.ready.wait()
        else:
            self.redis = redis_asyncio.Redis.from_url(os.environ["REDIS_URL"])
            self.pubsub = self.redis.pubsub()
            # One pattern for every table, confirmed before the reader starts: redis-py's asyncio listen() returns at
            # once while no subscription is confirmed (the reader then ended and no table received anything), and a
            # SUBSCRIBE sent while another task waits in listen() is lost. Each process so receives every table's
            # frames and keeps those of its own sockets (as games/runtime/broadcasts.py does).
            await self.pubsub.psubscribe(f"{self.prefix}*")
            while (await self.pubsub.get_message(timeout=10.0) or {}).get("type") != "psubscribe":
                pass
            self.reader = asyncio.ensure_future(self._read())
            self.ready.set()
        self.sockets.setdefault(table_id, set()).add(send)

    def leave(self, table_id: int, send: Callable[[str], Awaitable[None]]) -> None:
        self.sockets.get(table_id, set()).discard(send)

    async def publish(self, table_id: int, frame: str) -> None:
        assert self.redis is not None
        await self.redis.publish(f"{self.prefix}{table_id}", frame)

    async def _read(self) -> None:
        async for message in self.pubsub.listen():
            if message["type"] != "pmessage":
                continue
            table_id = int(message["channel"].decode().rsplit(":", 1)[1])
            frame = message["data"].decode()
            for send in list(self.sockets.get(table_id, ())):
                try:
                    await send(frame)
                except Exception:
                    # A socket that is gone (its consumer ended before it left): one bad socket must not end the
                    # reader, as it did in two runs (17.5 actions/s: every later frame was lost).
                    self.leave(table_id, send)


RAW = RawFanOut()


async def raw_floor(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The floor without Channels: a bare ASGI WebSocket application (see the module docstring)."""
    table_id = int(scope["path"].rstrip("/").rsplit("/", 1)[1])
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})

    async def send_frame(frame: str) -> None:
        await send({"type": "websocket.send", "text": frame})

    await RAW.join(table_id, send_frame)
    try:
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                return
            await RAW.publish(table_id, await floor_act(table_id, message.get("text")))
    finally:
        RAW.leave(table_id, send_frame)


class LocalFanOutConsumer(AsyncWebsocketConsumer):
    """A Channels consumer whose table broadcasts come from the process's own subscription (``RAW``), not the layer."""

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        await self.accept()
        await RAW.join(self.table_id, self.send_frame)

    async def send_frame(self, frame: str) -> None:
        await self.send(text_data=frame)

    async def disconnect(self, code: int) -> None:
        RAW.leave(self.table_id, self.send_frame)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await RAW.publish(self.table_id, await floor_act(self.table_id, text_data))


channels_application = ProtocolTypeRouter(
    {
        "websocket": URLRouter(
            [
                path("ws/floor/<int:table_id>/", FloorConsumer.as_asgi()),
                path("ws/floor-local/<int:table_id>/", LocalFanOutConsumer.as_asgi()),
            ]
        )
    }
)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "websocket" and scope["path"].startswith("/ws/floor-raw/"):
        await raw_floor(scope, receive, send)
    else:
        await channels_application(scope, receive, send)
