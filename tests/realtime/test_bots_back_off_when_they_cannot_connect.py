"""A bot that cannot connect waits longer after each failure in a row (exponential backoff with jitter), instead of
retrying an overloaded server at a fixed rate: in the live-table benchmark fixed-rate retries kept daphne busy with
handshakes that timed out (11,530 attempts for 1,200 bots)."""

from __future__ import annotations

import asyncio
import socket
import time
from random import Random

from games.bots.client import Bot, BotSettings, BotStats


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_connection_retries_double_their_wait_after_each_failure() -> None:
    settings = BotSettings(base_url=f"http://127.0.0.1:{closed_port()}", rejoin_seconds=(0.05, 0.05))
    stats = BotStats()
    bot = Bot("backoff", "no-session", 1, 1000, settings, stats, Random(1))

    asyncio.run(bot.run(time.monotonic() + 1.6))

    # Waits of 0.1, 0.2, 0.4 and 0.8 s fit in 1.6 s: five attempts (at a fixed 0.05 s it would be about thirty).
    assert 3 <= stats.connect_failures <= 5
