"""Helpers for the socket tests: tables, logged-in sockets over the real ASGI stack and the real Redis channel layer.

Sockets go through ``poker_site.asgi.application`` (origin check, session authentication, routing), so a test's
socket is what a browser's would be. Tests run their async part with :func:`run` (one event loop per test).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from tests.event_loops import run_scenario
from tests.socket_headers import SITE_HEADERS

T = TypeVar("T")


@pytest.fixture(autouse=True)
def fresh_redis_namespace(clean_cache: None) -> None:
    """Channel groups, presence and lobby keys of one test never leak into the next: every test here gets the shared
    ``clean_cache`` (the run's Redis keys deleted before and after)."""


def run(coroutine_function: Callable[[], Awaitable[T]]) -> T:
    """Run a socket scenario in its own event loop and channel layer (see :mod:`tests.event_loops`)."""
    return run_scenario(coroutine_function, timeout=180)


def session_cookie(user: Any) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def headers_for(user: Any | None) -> list[tuple[bytes, bytes]]:
    headers = list(SITE_HEADERS)
    if user is not None:
        headers.append((b"cookie", session_cookie(user)))
    return headers


class Socket:
    """A test client socket that remembers every frame it received (for privacy scans)."""

    def __init__(self, path: str, headers: list[tuple[bytes, bytes]]) -> None:
        from poker_site.asgi import application

        self.communicator = WebsocketCommunicator(application, path, headers=headers)
        self.received: list[str] = []
        self.closed_with: int | None = None

    async def connect(self) -> bool:
        connected, _ = await self.communicator.connect(timeout=30)
        return bool(connected)

    async def send(self, message: Any) -> None:
        await self.communicator.send_to(text_data=message if isinstance(message, str) else json.dumps(message))

    async def receive(self, timeout: float = 15) -> dict[str, Any]:
        frame = await self.communicator.receive_output(timeout)
        if frame["type"] == "websocket.close":
            self.closed_with = frame.get("code", 1000)
            raise ConnectionClosed(self.closed_with)
        text = frame["text"]
        self.received.append(text)
        return json.loads(text)

    async def receive_until(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 15) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"no matching message within {timeout} s; got {self.received[-5:]}")
            message = await self.receive(remaining)
            if predicate(message):
                return message

    async def drain(self, quiet: float = 0.3) -> list[dict[str, Any]]:
        """Every message that arrives until the socket has been quiet for ``quiet`` seconds.

        (``receive_nothing`` waits without consuming; a timed-out ``receive_output`` would cancel the application.)
        """
        messages = []
        while not await self.communicator.receive_nothing(quiet):
            messages.append(await self.receive())
        return messages

    async def nothing_more(self, wait: float = 0.3) -> bool:
        return await self.communicator.receive_nothing(wait)

    async def close(self) -> None:
        await self.communicator.disconnect()


class ConnectionClosed(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(f"socket closed with code {code}")
        self.code = code


async def open_socket(path: str, user: Any | None = None) -> Socket:
    from channels.db import database_sync_to_async

    headers = await database_sync_to_async(headers_for)(user)
    socket = Socket(path, headers)
    assert await socket.connect(), f"could not connect to {path}"
    return socket


def seed_catalog() -> None:
    """The catalogue rows (a transactional test's flush removes what the migration seeded)."""
    from games.cash.catalog_seed import seed_catalog as seed
    from games.models import GameRules, GameType, Stake, StakeTerms

    seed(GameType, GameRules, Stake, StakeTerms)


def pause_between_hands(milliseconds: int, game: str = "holdem") -> None:
    """From now on ``game``'s tables wait ``milliseconds`` between hands: a new version of its rules (back-office data,
    as staff would change it). The catalogue's 2.5 s gives people time to read a result; the rules set no lower limit,
    and bots read nothing, so the bot tests deal their hands without it."""
    from django.utils import timezone

    from games.models import GameType

    rules = GameType.objects.get(code=game).rules_at()
    rules.pk = None
    rules.effective_from = timezone.now()
    rules.pause_between_hands_milliseconds = milliseconds
    rules.save()


def make_table(game: str = "holdem", stake: str | None = None, name: str = "Test table") -> Any:
    """An open cash table of a seeded stake (through the domain's ``table_open``)."""
    from games.models import Stake
    from games.services import table_open

    seed_catalog()
    stakes = Stake.objects.filter(game_type__code=game).order_by("display_order")
    chosen = stakes.get(label=stake) if stake else stakes.first()
    assert chosen is not None
    return table_open(chosen, name=name)


def deposit(user: Any, cents: int) -> None:
    """Sandbox money on the player's cash account, through the wallet's cashier."""
    from wallet.services.cashier import deposit_create

    deposit_create(user, cents, f"test-{user.pk}-{cents}", f"test-deposit-{user.pk}-{cents}")


def make_user(username: str) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username=username, password="not-used-in-tests-0")
