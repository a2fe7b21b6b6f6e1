"""A WebSocket consumer base for consumers whose database work runs only through ``database_sync_to_async``.

Channels (4.2+) runs ``close_old_connections`` in the shared synchronous thread before it dispatches *every* message
to a consumer: each frame from the browser and each channel-layer message (a table's broadcast reaches six players'
consumers, so six hops per action). That protects consumers that touch the ORM from the shared thread directly.
Ours never do: every database call goes through ``database_sync_to_async``, whose worker thread closes stale
connections before and after the call. The per-message hop only costs a thread round trip and the event loop's time,
so :class:`DatabaseInWorkerThreadsConsumer` dispatches without it.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.dispatch import Signal

socket_connected = Signal()
"""Sent (blocking: from a worker thread) when a logged-in player's table socket has connected, with ``scope`` (the
socket's ASGI scope: its client address and headers), ``user_id`` and ``table_id``. The compliance app records the
connection (FRD-03, FRD-19: shared addresses and devices at one table)."""

logger = logging.getLogger(__name__)


class DatabaseInWorkerThreadsConsumer(AsyncWebsocketConsumer):
    """``AsyncWebsocketConsumer`` without the per-message connection clean-up hop (see the module docstring).

    Contract for subclasses: no ORM or database access outside ``database_sync_to_async``.

    A frame for a client whose connection has already closed is dropped, not raised (:meth:`send`).
    """

    async def send(self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False) -> None:
        """Send a frame; when the client's connection closed before it could be sent (daphne's ``Disconnected``: the
        reply to the last message of a client that went away, a broadcast racing the disconnect), drop it. Nobody can
        receive it, a client that connects again resynchronises from its last sequence number, and the disconnect
        that follows ends the consumer. Raised, it was logged as the message's failure with a traceback, and the
        ``server_error`` reply to it failed the same way."""
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            logger.debug(
                "a frame for %s was dropped: its connection had closed", getattr(self, "channel_name", "a socket")
            )

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class _ReceiveFailed:
    """What the client pump puts in the mailbox when the server's ``receive`` raised (the consumer re-raises it)."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


class MailboxConsumer(DatabaseInWorkerThreadsConsumer):
    """A consumer fed through one mailbox instead of a channel-layer channel: the client's frames and whatever the
    process hands it with :meth:`deliver` (e.g. :mod:`games.runtime.broadcasts`), handled one at a time in arrival
    order, as
    Channels handles a consumer's messages.

    Why: Channels' loop waits on the client and on the consumer's channel with a fresh task and an ``asyncio.wait``
    for every message, and a channel-layer message also passes through the layer's per-channel queue; a table
    broadcast reaches every socket on the table, so that was paid six or more times per action. Here a delivery is
    one ``put_nowait`` and the consumer's one waiting ``get``.

    Contract: the consumer has no channel layer (``channel_layer`` is ``None``; ``groups`` must stay empty);
    ``channel_name`` is still a unique name for the socket. ``deliver`` may be called from the consumer's event loop
    only, and never blocks.
    """

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.scope = scope
        self.channel_layer = None
        self.channel_name = f"socket.{uuid.uuid4().hex}"
        self.base_send = send
        self.mailbox: asyncio.Queue[Any] = asyncio.Queue()
        pump = asyncio.ensure_future(self._pump(receive))
        try:
            while True:
                message = await self.mailbox.get()
                if isinstance(message, _ReceiveFailed):
                    raise message.error
                await self.dispatch(message)
        except StopConsumer:
            pass
        finally:
            pump.cancel()
            self.mailbox_closed()

    def mailbox_closed(self) -> None:
        """Called once the consumer handles nothing more, however it ended (closed, or a handler raised): subclasses
        stop whatever delivers to them here."""

    async def _pump(self, receive: Any) -> None:
        try:
            while True:
                self.mailbox.put_nowait(await receive())
        except asyncio.CancelledError:
            raise
        except BaseException as error:
            self.mailbox.put_nowait(_ReceiveFailed(error))

    def deliver(self, message: dict[str, Any]) -> None:
        """Queue ``message`` (a dict with a ``type`` naming its handler) behind what the consumer already has."""
        self.mailbox.put_nowait(message)


def session_still_signs_in(scope: dict[str, Any], user_id: int) -> bool:
    """Whether the session a socket opened with still signs in user ``user_id`` now (blocking: call it through
    ``database_sync_to_async``).

    A socket's user is read once, when it connects; logging out, a password change (the session's auth hash) or a
    deactivated account end the session for every later HTTP request, but an open socket would go on acting, buying
    in and topping up. A long-lived consumer asks this now and then and closes when the answer is no.
    """
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import get_user
    from django.http import HttpRequest

    key = getattr(scope.get("session"), "session_key", None)
    if not key:
        return False
    request = HttpRequest()
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(key)  # read afresh, not the cached copy
    user = get_user(request)
    return bool(user.is_authenticated and user.pk == user_id)
