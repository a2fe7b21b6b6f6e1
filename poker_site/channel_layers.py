"""The Channels layer configuration, in one place for the site's settings and the benchmark's bare echo server.

``pubsub`` (the default): a group message is one Redis PUBLISH, and each server process subscribed to the group
receives it once and hands it to its own sockets (a table broadcast reaches six players with one Redis round trip,
not six queue pops). Delivery is at most once, which the table protocol already allows: a socket that misses a message
sees a sequence gap and resynchronises. ``queues``: channels_redis's list-based layer (messages wait up to ``expiry``
seconds for their reader).

With ``pubsub`` a message published to a group arrives once per process and channels_redis queues the same bytes to
each local socket of the group, then decodes them once per socket. :class:`SharedDecodingPubSubChannelLayer` decodes
those bytes once and gives every socket the same message (see its contract).

Every key and channel of the site in Redis (the cache, this layer, Celery's queues, the table and account pub/sub
channels) starts with ``settings.REDIS_KEY_PREFIX``; :func:`default_redis_key_prefix` is its default.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Final

from channels_redis.pubsub import RedisPubSubChannelLayer
from django.core.exceptions import ImproperlyConfigured
from redis.connection import parse_url

CHANNEL_LAYER_KINDS: Final[tuple[str, ...]] = ("pubsub", "queues")

DECODED_MESSAGES_KEPT: Final[int] = 256
"""Received messages whose decoding is kept for the other sockets the same bytes were queued to. A message waits in
at most one queue per local member of its group, and those queues drain within moments, so a few hundred cover the
busiest process (the decoding is only an optimisation: a message that dropped out is decoded again)."""


class SharedDecodingPubSubChannelLayer(RedisPubSubChannelLayer):
    """The pub/sub layer, decoding each received message once for all the sockets of this process it was queued to.

    Contract: a received message is shared by every consumer of the process that receives the same published message,
    so consumers treat it as read-only (they may add keys that start with ``_`` as a cache of values derived from it,
    the same for every receiver: :func:`games.runtime.consumers.TableConsumer.events_frame`). The bytes object itself
    is the
    key: channels_redis puts the very object it read from Redis into each member's queue, and the cache holds a
    reference to it, so an identical object means the same delivery (equal bytes published twice are two deliveries
    and are decoded twice).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._decoded: OrderedDict[int, tuple[bytes, dict[str, Any]]] = OrderedDict()

    def deserialize(self, message: bytes) -> dict[str, Any]:
        key = id(message)
        kept = self._decoded.get(key)
        if kept is not None and kept[0] is message:
            return kept[1]
        decoded: dict[str, Any] = super().deserialize(message)
        self._decoded[key] = (message, decoded)
        if len(self._decoded) > DECODED_MESSAGES_KEPT:
            self._decoded.popitem(last=False)
        return decoded


def channel_layer(kind: str, redis_url: str, prefix: str) -> dict[str, Any]:
    """The ``CHANNEL_LAYERS["default"]`` entry for ``kind`` (one of :data:`CHANNEL_LAYER_KINDS`)."""
    if kind == "pubsub":
        return {
            "BACKEND": "poker_site.channel_layers.SharedDecodingPubSubChannelLayer",
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


def default_redis_key_prefix(database_name: str, redis_url: str) -> str:
    """The Redis key prefix of a site whose ``REDIS_KEY_PREFIX`` is not given: ``poker:<database name>:<redis db>``.

    Redis's pub/sub ignores the database number, so two sites on one Redis server that differ only in the number
    (``redis://host/1`` and ``redis://host/2``) heard each other's channel-layer and table messages under one shared
    prefix (one site's balance updates showed in the other's header). A site's own PostgreSQL database and Redis
    database number make its default prefix its own; the same settings always give the same prefix, so every process
    of one site (web, workers, table owners, ticker) shares it.
    """
    try:
        database_number = int(parse_url(redis_url).get("db") or 0)
    except ValueError as error:
        raise ImproperlyConfigured(f"REDIS_URL is not a Redis URL with a database number: {error}") from error
    return f"poker:{database_name}:{database_number}"
