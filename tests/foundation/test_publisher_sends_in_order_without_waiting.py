"""The per-process publisher (poker_site.core.publish): services queue live updates after commit and go on; the
messages reach the channel layer in the order they were queued, a failing send does not stop the ones after it, and
``flush`` waits for everything queued so far."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

from channels.layers import get_channel_layer

from poker_site.core import publish
from tests.event_loops import run_scenario


@contextlib.asynccontextmanager
async def group_member(group: str) -> AsyncIterator[tuple[Any, str]]:
    """A fresh channel in ``group`` for the block (the layer and the channel's name)."""
    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    try:
        yield layer, channel
    finally:
        await layer.group_discard(group, channel)


def test_messages_reach_a_group_in_the_order_they_were_published() -> None:
    group = f"publisher-order-{time.monotonic_ns()}"

    async def scenario() -> list[int]:
        async with group_member(group) as (layer, channel):
            # Published from another thread, as a service's on_commit hook in a worker thread would.
            worker = threading.Thread(
                target=lambda: [publish.publish(group, {"type": "test.message", "number": n}) for n in range(300)]
            )
            worker.start()
            await asyncio.get_running_loop().run_in_executor(None, worker.join)
            return [int((await layer.receive(channel))["number"]) for _ in range(300)]

    assert run_scenario(scenario, timeout=60) == list(range(300))


def test_publishing_returns_before_the_send_and_flush_waits_for_it() -> None:
    sent = threading.Event()

    async def slow_send() -> None:
        await asyncio.sleep(0.5)
        sent.set()

    started = time.monotonic()
    publish.publisher().submit(slow_send)
    assert time.monotonic() - started < 0.2
    assert not sent.is_set()
    assert publish.flush(timeout=10)
    assert sent.is_set()


def test_a_failing_send_is_logged_and_the_next_one_still_goes(caplog: Any) -> None:
    ran: list[str] = []

    async def broken() -> None:
        raise RuntimeError("redis is down")

    async def next_one() -> None:
        ran.append("next")

    publish.publisher().submit(broken)
    publish.publisher().submit(next_one)
    assert publish.flush(timeout=10)
    assert ran == ["next"]
    assert "a channel-layer send failed" in caplog.text


def test_first_in_window_is_true_once_per_key_and_window() -> None:
    """The coalescing key behind the lobby's and the UTH statistics' at-most-once-per-window notices."""
    from django.conf import settings

    key = f"{settings.REDIS_KEY_PREFIX}:test:first-in-window:{time.monotonic_ns()}"
    other = f"{key}:other"
    assert publish.first_in_window(key, 300)
    assert not publish.first_in_window(key, 300)
    assert publish.first_in_window(other, 300)  # each key has its own window
    time.sleep(0.4)
    assert publish.first_in_window(key, 300)


def test_a_coalesced_message_goes_out_once_per_window_without_the_caller_waiting_for_redis() -> None:
    """The lobby's notices (games.runtime.realtime.lobby_table_changed): the first of a window is sent, the rest of
    that window
    are not, across processes by the Redis key; the caller only queues."""
    from django.conf import settings

    key = f"{settings.REDIS_KEY_PREFIX}:test:coalesced:{time.monotonic_ns()}"
    group = f"publisher-coalesced-{time.monotonic_ns()}"

    async def scenario() -> list[int]:
        async with group_member(group) as (layer, channel):
            for number in range(5):  # one window: only the first goes out
                publish.publish_first_in_window(key, 400, group, {"type": "test.message", "number": number})
            await asyncio.get_running_loop().run_in_executor(None, publish.flush, 10)
            await asyncio.sleep(0.5)  # the window closes
            publish.publish_first_in_window(key, 400, group, {"type": "test.message", "number": 5})
            await asyncio.get_running_loop().run_in_executor(None, publish.flush, 10)
            received = [int((await layer.receive(channel))["number"]) for _ in range(2)]
            with contextlib.suppress(TimeoutError):
                extra = await asyncio.wait_for(layer.receive(channel), 0.5)
                received.append(int(extra["number"]))
            return received

    assert run_scenario(scenario, timeout=60) == [0, 5]
