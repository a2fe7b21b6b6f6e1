"""Sending to the channel layer (or a plain Redis channel: :func:`publish_to_redis`) from synchronous code without
waiting for it: a per-process publisher thread.

Services publish live updates after their transaction commits (``transaction.on_commit``). They run in synchronous
code: a daphne worker thread, the ticker, a Celery task, a management command. ``async_to_sync(layer.group_send)``
there would make the calling thread wait for Redis — in daphne, for the server's own event loop, which is busy with
every socket — and outside daphne it builds a new event loop (and Redis connection pool) for every message.

Instead, :func:`publish` puts the message on this process's queue and returns at once. One background thread per
process runs an event loop that sends the queued messages **in the order they were queued** (one after another, so
a table's events never overtake each other). A failed send is logged and skipped: the change is committed, and a
client that misses a message sees a sequence gap and resynchronises.

:func:`flush` waits until everything queued so far has been sent; it runs at interpreter exit too, so a management
command's last messages are not lost. After ``fork`` the child starts its own thread on first use.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

import redis.asyncio as redis_asyncio

logger = logging.getLogger(__name__)

EXIT_FLUSH_SECONDS: Final[float] = 5.0
"""How long the process waits at exit for queued messages to go out."""

Job = Callable[[], Awaitable[Any]]


class Publisher:
    """A FIFO of send jobs and the daemon thread (with its own event loop) that runs them one at a time."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._queued = 0
        self._done = 0
        self._loop = asyncio.new_event_loop()
        self._jobs: asyncio.Queue[Job] | None = None
        self._redis: redis_asyncio.Redis | None = None
        started = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(started,), name="channel-publisher", daemon=True)
        self._thread.start()
        started.wait()

    def _run(self, started: threading.Event) -> None:
        asyncio.set_event_loop(self._loop)
        self._jobs = asyncio.Queue()
        started.set()
        self._loop.run_until_complete(self._work())

    async def _work(self) -> None:
        assert self._jobs is not None
        while True:
            job = await self._jobs.get()
            try:
                await job()
            except Exception:
                logger.exception("a channel-layer send failed (clients resynchronise on the sequence gap)")
            finally:
                with self._condition:
                    self._done += 1
                    self._condition.notify_all()

    def submit(self, job: Job) -> None:
        """Queue ``job`` (an argument-less coroutine function) to run after everything queued before it."""
        assert self._jobs is not None
        with self._condition:
            self._queued += 1
        self._loop.call_soon_threadsafe(self._jobs.put_nowait, job)

    def redis(self) -> redis_asyncio.Redis:
        """The Redis client of the publisher's event loop (for jobs; a redis.asyncio client belongs to one loop)."""
        if self._redis is None:
            from django.conf import settings

            self._redis = redis_asyncio.Redis.from_url(settings.REDIS_URL)
        return self._redis

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every job queued before this call has run; False if ``timeout`` seconds passed first."""
        with self._condition:
            target = self._queued
            return self._condition.wait_for(lambda: self._done >= target, timeout)


_publisher: Publisher | None = None
_publisher_pid: int | None = None
_publisher_lock = threading.Lock()


def publisher() -> Publisher:
    """This process's publisher (started on first use, again in a forked child)."""
    global _publisher, _publisher_pid
    if _publisher is None or _publisher_pid != os.getpid():
        with _publisher_lock:
            if _publisher is None or _publisher_pid != os.getpid():
                _publisher = Publisher()
                _publisher_pid = os.getpid()
                with _queued_to_redis_lock:
                    _queued_to_redis.clear()  # a forked child's copy counts its parent's queue, never sent here
    return _publisher


def publish(group: str, message: dict[str, Any]) -> None:
    """Queue ``layer.group_send(group, message)``; returns at once (see the module docstring for the ordering)."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is None:  # pragma: no cover - CHANNEL_LAYERS is always configured in this project
        return

    async def send() -> None:
        await layer.group_send(group, message)

    publisher().submit(send)


_queued_to_redis: dict[str, int] = {}
r"""Redis channel → how many of this process's ``PUBLISH``\ es to it are queued and not yet sent."""
_queued_to_redis_lock = threading.Lock()


def publish_to_redis(channel: str, data: str | bytes) -> None:
    """Queue a Redis ``PUBLISH channel data`` (for subscribers of our own, not the channel layer: the table
    broadcasts of :mod:`games.runtime.broadcasts`); returns at once, sent in order with everything else queued here."""
    current = publisher()
    with _queued_to_redis_lock:
        _queued_to_redis[channel] = _queued_to_redis.get(channel, 0) + 1

    async def send() -> None:
        try:
            await current.redis().publish(channel, data)
        finally:
            with _queued_to_redis_lock:
                left = _queued_to_redis[channel] - 1
                if left:
                    _queued_to_redis[channel] = left
                else:
                    del _queued_to_redis[channel]

    current.submit(send)


def nothing_queued_to_redis(channel: str) -> bool:
    """Whether this process has no ``PUBLISH`` to ``channel`` queued (:func:`publish_to_redis`) that is not sent yet:
    then a message this process publishes to ``channel`` some other way (a table owner's, from the script that logs
    the hand's events) cannot overtake one of its own. A caller that keeps it so must queue nothing to ``channel``
    from another thread in the meantime (a table's owner publishes its table's messages one at a time)."""
    with _queued_to_redis_lock:
        return channel not in _queued_to_redis


def first_in_window(key: str, milliseconds: int) -> bool:
    """True for the first call with ``key`` in each window of ``milliseconds`` (a Redis ``SET NX PX`` key, so the
    window holds across processes): publishers that coalesce notices (the lobby, UTH statistics) send only then."""
    from poker_site.core.redis_clients import blocking_client

    return bool(blocking_client().set(key, b"1", nx=True, px=milliseconds))


_windows_taken_here: dict[str, float] = {}
"""Coalescing key → when the window this process took for it ends (``time.monotonic``)."""
_windows_lock = threading.Lock()


def publish_first_in_window(key: str, milliseconds: int, group: str, message: dict[str, Any]) -> None:
    """Queue ``layer.group_send(group, message)`` if it is the first with ``key`` in its window of ``milliseconds``
    across processes (:func:`first_in_window`'s Redis key). Returns at once: the Redis check runs on the publisher
    thread, in order with the other messages. While a window this process took is still open, nothing is queued and
    Redis is not asked (it would refuse anyway)."""
    now = time.monotonic()
    with _windows_lock:
        if _windows_taken_here.get(key, 0.0) > now:
            return
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is None:  # pragma: no cover - CHANNEL_LAYERS is always configured in this project
        return
    current = publisher()

    async def send_if_first() -> None:
        taken_at = time.monotonic()
        if not await current.redis().set(key, b"1", nx=True, px=milliseconds):
            return
        with _windows_lock:
            _windows_taken_here[key] = taken_at + milliseconds / 1000
            if len(_windows_taken_here) > 10_000:  # one entry per table; drop the closed windows now and then
                for stale in [name for name, ends in _windows_taken_here.items() if ends <= taken_at]:
                    del _windows_taken_here[stale]
        await layer.group_send(group, message)

    current.submit(send_if_first)


def flush(timeout: float | None = None) -> bool:
    """Wait until everything this process queued so far was sent (or ``timeout`` seconds passed)."""
    if _publisher is None or _publisher_pid != os.getpid():
        return True
    return _publisher.flush(timeout)


@atexit.register
def _flush_at_exit() -> None:
    if not flush(EXIT_FLUSH_SECONDS):
        logger.warning("channel-layer messages still queued at exit were dropped")
