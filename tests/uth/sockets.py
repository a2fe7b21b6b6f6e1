"""Socket helpers for the UTH tests: logged-in sockets over the real ASGI stack (origin check, session log-in,
routing) and the real Redis channel layer."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client

from tests.event_loops import run_scenario
from tests.socket_headers import SITE_HEADERS

T = TypeVar("T")


def run(coroutine_function: Callable[[], Awaitable[T]]) -> T:
    """Run a socket scenario in its own event loop and channel layer (:mod:`tests.event_loops`); afterwards close the
    database connections its worker thread opened (otherwise the test database cannot be dropped at the end)."""

    async def close_connections() -> None:
        await database_sync_to_async(connections.close_all)()

    return run_scenario(coroutine_function, timeout=90, after=close_connections)


def _headers(user: Any | None) -> list[tuple[bytes, bytes]]:
    headers = list(SITE_HEADERS)
    if user is not None:
        client = Client()
        client.force_login(user)
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return headers


class Closed(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(f"socket closed with code {code}")
        self.code = code


class Socket:
    """A test socket that keeps every frame it received."""

    def __init__(self, communicator: WebsocketCommunicator) -> None:
        self.communicator = communicator
        self.received: list[dict[str, Any]] = []

    async def send(self, message: Any) -> None:
        await self.communicator.send_to(text_data=message if isinstance(message, str) else json.dumps(message))

    async def receive(self, timeout: float = 5) -> dict[str, Any]:
        frame = await self.communicator.receive_output(timeout)
        if frame["type"] == "websocket.close":
            raise Closed(frame.get("code", 1000))
        message = json.loads(frame["text"])
        self.received.append(message)
        return message

    async def until(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 8) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"no matching message within {timeout} s; last: {self.received[-4:]}")
            message = await self.receive(remaining)
            if predicate(message):
                return message

    async def answer(self, message: dict[str, Any], timeout: float = 8) -> dict[str, Any]:
        """Send a command with a request id and return the ``ok`` or ``error`` answering it."""
        request_id = f"r{len(self.received)}-{id(message) % 10_000}"
        await self.send({**message, "request_id": request_id})
        return await self.until(
            lambda reply: reply.get("type") in ("ok", "error") and reply.get("request_id") == request_id, timeout
        )

    async def event(self, kind: str, timeout: float = 8) -> dict[str, Any]:
        """Wait for a public event of ``kind``; returns it."""
        found: dict[str, Any] = {}

        def has_kind(message: dict[str, Any]) -> bool:
            for event in message.get("events", []) if message.get("type") == "events" else []:
                if event["kind"] == kind:
                    found.update(event)
                    return True
            return False

        await self.until(has_kind, timeout)
        return found

    async def me(self, predicate: Callable[[dict[str, Any]], bool] = lambda _me: True) -> dict[str, Any]:
        """Wait for the player's own view (a ``you`` message) that satisfies ``predicate``."""
        message = await self.until(lambda reply: reply.get("type") == "you" and predicate(reply["me"]))
        return message["me"]

    async def drain(self, quiet: float = 0.4) -> list[dict[str, Any]]:
        messages = []
        while not await self.communicator.receive_nothing(quiet):
            messages.append(await self.receive())
        return messages

    async def close(self) -> None:
        await self.communicator.disconnect()

    def sequences(self) -> list[int]:
        """Every public event sequence number this socket received, in order."""
        return [
            int(event["sequence"])
            for message in self.received
            if message.get("type") == "events"
            for event in message["events"]
        ]


async def open_socket(table_id: int, user: Any | None = None) -> tuple[Socket, dict[str, Any]]:
    """Connect to the table and return the socket and its first message (the snapshot)."""
    from poker_site.asgi import application

    headers = await database_sync_to_async(_headers)(user)
    communicator = WebsocketCommunicator(application, f"/ws/uth/{table_id}/", headers=headers)
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    socket = Socket(communicator)
    snapshot = await socket.receive()
    assert snapshot["type"] == "snapshot", snapshot
    return socket, snapshot
