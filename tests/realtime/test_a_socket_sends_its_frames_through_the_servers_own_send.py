"""The WebSocket stack reads the session and the user from the session cookie as Channels' ``AuthMiddlewareStack`` does,
but hands the consumer the server's own ``send``: no session wrapper runs for each frame a socket sends (a WebSocket
message never saves a session or sets a cookie; issue 27, the web process's CPU per action)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async

from poker_site.asgi import application
from poker_site.core.socket_origins import SiteOriginValidator
from poker_site.core.socket_sessions import SocketSessionMiddleware, socket_middleware_stack
from tests.realtime.conftest import make_user, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def _socket_scope(cookie: bytes) -> dict[str, Any]:
    return {"type": "websocket", "path": "/ws/tables/1/", "headers": [(b"cookie", cookie)]}


def test_the_consumer_gets_the_session_the_user_and_the_servers_own_send() -> None:
    user = make_user("frames-direct")
    cookie = session_cookie(user)
    session_key = cookie.decode().split("=", 1)[1]
    seen: dict[str, Any] = {}

    async def consumer(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen["send"] = send
        seen["session_key"] = scope["session"].session_key
        seen["user_id"] = await database_sync_to_async(lambda: scope["user"].pk)()

    async def server_send(message: dict[str, Any]) -> None:
        raise AssertionError("the consumer sent nothing here")

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    asyncio.run(socket_middleware_stack(consumer)(_socket_scope(cookie), receive, server_send))

    assert seen["send"] is server_send
    assert seen["session_key"] == session_key
    assert seen["user_id"] == user.pk


def test_a_socket_without_a_valid_session_is_anonymous() -> None:
    seen: dict[str, Any] = {}

    async def consumer(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen["authenticated"] = await database_sync_to_async(lambda: scope["user"].is_authenticated)()

    async def nothing(*arguments: Any) -> None:
        return None

    asyncio.run(socket_middleware_stack(consumer)(_socket_scope(b"sessionid=not-a-session"), nothing, nothing))

    assert seen["authenticated"] is False


def test_the_session_middleware_serves_websocket_scopes_only() -> None:
    async def consumer(scope: dict[str, Any], receive: Any, send: Any) -> None:
        raise AssertionError("not reached")

    async def nothing(*arguments: Any) -> None:
        return None

    middleware = SocketSessionMiddleware(consumer)
    scope = {"type": "http", "path": "/", "headers": [], "cookies": {}}
    with pytest.raises(ValueError, match="WebSocket scopes"):
        asyncio.run(middleware(scope, nothing, nothing))


def test_the_sites_websocket_stack_is_this_one() -> None:
    websocket = application.application_mapping["websocket"]
    assert isinstance(websocket, SiteOriginValidator)
    assert isinstance(websocket.application.inner, SocketSessionMiddleware)
