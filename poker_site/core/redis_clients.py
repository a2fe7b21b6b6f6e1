"""The process's one blocking Redis client, for code that talks to Redis directly rather than through the cache
(presence counts, coalescing windows, the log-in throttle's atomic counters), and each event loop's asyncio client.

redis-py's blocking client pools connections and is safe to share between threads (services run in worker threads,
the ticker and the publisher thread), so one per process is enough. Keys written through it must carry
``settings.REDIS_KEY_PREFIX`` themselves: the cache's prefix is not applied here.
"""

from __future__ import annotations

import asyncio
import threading
import weakref

import redis
import redis.asyncio as redis_asyncio
from django.conf import settings

_client: redis.Redis | None = None
_client_lock = threading.Lock()

TIMEOUT_SECONDS = 2.0
"""Connect and read timeout: a Redis that does not answer fails the call instead of hanging a worker thread."""


def blocking_client() -> redis.Redis:
    """The shared client for ``settings.REDIS_URL``, created on first use."""
    global _client
    with _client_lock:
        if _client is None:
            _client = redis.Redis.from_url(
                settings.REDIS_URL, socket_timeout=TIMEOUT_SECONDS, socket_connect_timeout=TIMEOUT_SECONDS
            )
        return _client


EVENT_LOOP_CONNECTIONS = 10_000
"""An event loop client's most connections at once. Each waiting command holds one (a socket's ``BLPOP`` for its
table owner's answer, one per socket at most), and redis-py's asyncio pool refuses a command beyond its limit (100 by
default) instead of queueing it; the blocking clients' pools have no limit. Redis's own default ``maxclients``."""

_event_loop_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[float | None, redis_asyncio.Redis]] = (
    weakref.WeakKeyDictionary()
)


def event_loop_client(*, read_timeout_seconds: float | None = None) -> redis_asyncio.Redis:
    """The running event loop's asyncio client for ``settings.REDIS_URL`` (a socket's presence, a table owner's
    answer), one per loop and read timeout, created on first use. A ``redis.asyncio`` connection belongs to the loop
    that opened it, so a client is never shared between loops. ``read_timeout_seconds``: None waits as long as the
    command (a ``BLPOP`` with its own timeout needs a read timeout longer than that)."""
    clients = _event_loop_clients.setdefault(asyncio.get_running_loop(), {})
    client = clients.get(read_timeout_seconds)
    if client is None:
        client = clients[read_timeout_seconds] = redis_asyncio.Redis.from_url(
            settings.REDIS_URL,
            socket_timeout=read_timeout_seconds,
            socket_connect_timeout=TIMEOUT_SECONDS,
            max_connections=EVENT_LOOP_CONNECTIONS,
        )
    return client
