"""A WebSocket consumer base for consumers whose database work runs only through ``database_sync_to_async``.

Channels (4.2+) runs ``close_old_connections`` in the shared synchronous thread before it dispatches *every* message
to a consumer: each frame from the browser and each channel-layer message (a table's broadcast reaches six players'
consumers, so six hops per action). That protects consumers that touch the ORM from the shared thread directly.
Ours never do: every database call goes through ``database_sync_to_async``, whose worker thread closes stale
connections before and after the call. The per-message hop only costs a thread round trip and the event loop's time,
so :class:`DatabaseInWorkerThreadsConsumer` dispatches without it.
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer


class DatabaseInWorkerThreadsConsumer(AsyncWebsocketConsumer):
    """``AsyncWebsocketConsumer`` without the per-message connection clean-up hop (see the module docstring).

    Contract for subclasses: no ORM or database access outside ``database_sync_to_async``.
    """

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
