"""A client that closes its socket before the reply to its last message (a player leaving the table and closing the
tab at once) gets no reply, and the server logs no failure: daphne raises ``Disconnected`` for a frame sent on a closed
connection, and the message's handler had done its work (the player left). Before, the frame handling logged "socket
message leave failed" with a traceback, and the ``server_error`` reply it then tried failed the same way."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass
from typing import Any

import pytest
from autobahn.exception import Disconnected

from games.runtime.consumers import RATE_CAPACITY, RATE_PER_SECOND, ProtocolConsumer
from games.runtime.protocol import ProtocolError, TokenBucket


@dataclass(frozen=True)
class Message:
    type: str
    request_id: str | None


class LeavingConsumer(ProtocolConsumer[Message]):
    """Handles every message by doing its work and then replying ``ok``."""

    def __init__(self) -> None:
        super().__init__()
        self.handled: list[str] = []

    def parse(self, text_data: str | None) -> Message:
        try:
            data = json.loads(text_data or "")
        except ValueError:
            raise ProtocolError("malformed", "frames are JSON objects") from None
        return Message(data["type"], data.get("request_id"))

    async def handle(self, message: Message) -> None:
        self.handled.append(message.type)
        await self.send_message({"type": "ok", "of": message.type, "request_id": message.request_id})


def consumer_whose_client_has_gone() -> LeavingConsumer:
    consumer = LeavingConsumer()
    consumer.bucket = TokenBucket(RATE_CAPACITY, RATE_PER_SECOND, time.monotonic())

    async def closed_connection(message: dict[str, Any]) -> None:
        raise Disconnected("Attempt to send on a closed protocol")

    consumer.base_send = closed_connection
    return consumer


def test_the_reply_to_a_client_that_has_gone_is_dropped_without_a_logged_failure(
    caplog: pytest.LogCaptureFixture,
) -> None:
    consumer = consumer_whose_client_has_gone()

    with caplog.at_level(logging.DEBUG):
        asyncio.run(consumer.receive(text_data=json.dumps({"type": "leave", "request_id": "r1"})))

    assert consumer.handled == ["leave"]
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert any("dropped" in record.getMessage() for record in caplog.records)


def test_a_refusal_for_a_client_that_has_gone_is_dropped_too() -> None:
    consumer = consumer_whose_client_has_gone()

    asyncio.run(consumer.receive(text_data="not json"))  # the protocol error's reply cannot be sent either

    assert consumer.handled == []
