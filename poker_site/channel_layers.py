"""The Channels layer configuration, in one place for the site's settings and the benchmark's bare echo server.

``pubsub`` (the default): a group message is one Redis PUBLISH, and each server process subscribed to the group
receives it once and hands it to its own sockets (a table broadcast reaches six players with one Redis round trip,
not six queue pops). Delivery is at most once, which the table protocol already allows: a socket that misses a message
sees a sequence gap and resynchronises. ``queues``: channels_redis's list-based layer (messages wait up to ``expiry``
seconds for their reader).
"""

from __future__ import annotations

from typing import Any, Final

CHANNEL_LAYER_KINDS: Final[tuple[str, ...]] = ("pubsub", "queues")


def channel_layer(kind: str, redis_url: str, prefix: str) -> dict[str, Any]:
    """The ``CHANNEL_LAYERS["default"]`` entry for ``kind`` (one of :data:`CHANNEL_LAYER_KINDS`)."""
    if kind == "pubsub":
        return {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": redis_url}], "prefix": prefix},
        }
    if kind == "queues":
        return {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # redis-py 8 reads with a 5 s socket timeout by default, the same length as channels_redis's blocking
                # BZPOPMIN: an idle socket's receive then raises TimeoutError and the consumer dies (redis-py #4091).
                "hosts": [{"address": redis_url, "socket_timeout": 30}],
                "prefix": prefix,
                "capacity": 1000,
                "expiry": 30,
            },
        }
    raise ValueError(f"unknown channel layer kind {kind!r}; expected one of {', '.join(CHANNEL_LAYER_KINDS)}")
