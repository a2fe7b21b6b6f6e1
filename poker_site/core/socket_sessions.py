"""The WebSocket middleware stack: Channels' cookies, session and user in the scope, without a wrapper around every
frame sent.

Channels' ``SessionMiddleware`` wraps the ``send`` of every application it serves, so that an HTTP response can save a
modified session and set its cookie. A WebSocket message never does either (Channels saves and sets cookies on
``http.response.start`` only), yet the wrapper looked at the lazy session twice for every frame a socket sent:
3.6-3.9 µs of CPU a frame against 0.1 µs for the server's ``send`` alone (2026-12-02), and an action sends about seven
frames (six players' broadcasts, the actor's answer). :class:`SocketSessionMiddleware` resolves the session exactly as
Channels does and hands the application the server's own ``send`` (issue 27, the web process's CPU per action).

Consumers behind it must not count on a session they change being saved: none does (signing in and out are HTTP
requests).
"""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware


class SocketSessionMiddleware(SessionMiddleware):
    """``scope["session"]`` from the session cookie, as Channels' ``SessionMiddleware`` resolves it, for WebSocket
    scopes only (ValueError otherwise); the inner application sends through the server's ``send`` itself."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") != "websocket":
            raise ValueError(f"SocketSessionMiddleware serves WebSocket scopes, not {scope.get('type')!r}")
        session = InstanceSessionWrapper(scope, send)
        await session.resolve_session()
        return await self.inner(session.scope, receive, send)


def socket_middleware_stack(inner: Any) -> CookieMiddleware:
    """Channels' ``AuthMiddlewareStack`` for WebSockets: cookies, the session (:class:`SocketSessionMiddleware`) and
    ``scope["user"]`` around ``inner``."""
    return CookieMiddleware(SocketSessionMiddleware(AuthMiddleware(inner)))
