"""A bare Channels echo server: the peer the live-table benchmark compares against (benchmarks/bench_tables.py).

Served by daphne (``daphne benchmarks.echo_server:application``) over the same kind of Redis channel layer as the site
(``CHANNEL_LAYER``: pubsub by default, or queues): each
frame a client sends goes into the channel layer (``group_send`` to the socket's own group) and comes back out to the
socket, so it pays daphne, the consumer machinery and a Redis round trip, but no database and no game logic.

Environment: ``REDIS_URL`` (required) and ``REDIS_KEY_PREFIX`` (default ``bench``).
"""

from __future__ import annotations

import uuid
from typing import Any

from benchmarks.standalone_channels import channels_configure

channels_configure("echo")

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402 - after settings.configure()
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402 - after settings.configure()
from django.urls import path  # noqa: E402 - after settings.configure()


class EchoConsumer(AsyncWebsocketConsumer):
    """Echoes every text frame through the channel layer."""

    async def connect(self) -> None:
        self.group = f"echo.{uuid.uuid4().hex}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.channel_layer.group_send(self.group, {"type": "echo.message", "text": text_data or ""})

    async def echo_message(self, message: dict[str, Any]) -> None:
        await self.send(text_data=message["text"])


application = ProtocolTypeRouter({"websocket": URLRouter([path("ws/echo/", EchoConsumer.as_asgi())])})
