"""The process's one blocking Redis client, for code that talks to Redis directly rather than through the cache
(presence counts, coalescing windows, the log-in throttle's atomic counters).

redis-py's blocking client pools connections and is safe to share between threads (services run in worker threads,
the ticker and the publisher thread), so one per process is enough. Keys written through it must carry
``settings.REDIS_KEY_PREFIX`` themselves: the cache's prefix is not applied here.
"""

from __future__ import annotations

import threading

import redis
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
