"""Which sockets a player has open on a table, so only the *last* one closing reports a lost connection.

A player may watch a table in two browser tabs; closing one must not start the domain's disconnection grace. Each
socket of a logged-in user is a member of a Redis sorted set per (user, table), scored by its last heartbeat. A socket
that died with its server process never says goodbye, so members older than :data:`STALE_SECONDS` do not count.
"""

from __future__ import annotations

import logging
import time
from typing import Final

import redis
from django.conf import settings

from poker_site.core.redis_clients import blocking_client as _blocking_client
from poker_site.core.redis_clients import event_loop_client

logger = logging.getLogger(__name__)

HEARTBEAT_SECONDS: Final[float] = 30.0
STALE_SECONDS: Final[float] = 3 * HEARTBEAT_SECONDS


class Presence:
    """Live sockets per (user, table) under one key namespace (cash tables and UTH tables each have their own)."""

    def __init__(self, namespace: str) -> None:
        self.namespace = namespace

    def key(self, user_id: int, table_id: int) -> str:
        return f"{settings.REDIS_KEY_PREFIX}:{self.namespace}:{int(user_id)}:{int(table_id)}"

    async def connected(self, user_id: int, table_id: int, channel_name: str) -> None:
        """Record (or refresh) that ``channel_name`` is a live socket of the user on the table."""
        key = self.key(user_id, table_id)
        client = event_loop_client()
        await client.zadd(key, {channel_name: time.time()})
        await client.expire(key, int(STALE_SECONDS) * 2)

    async def disconnected(self, user_id: int, table_id: int, channel_name: str) -> bool:
        """Forget ``channel_name``; True when the user has no other live socket on the table."""
        key = self.key(user_id, table_id)
        client = event_loop_client()
        await client.zrem(key, channel_name)
        await client.zremrangebyscore(key, 0, time.time() - STALE_SECONDS)
        return int(await client.zcard(key)) == 0

    def has_live_socket(self, user_id: int, table_id: int) -> bool | None:
        """Whether the user has a socket on the table that sent a heartbeat within :data:`STALE_SECONDS`, for the
        services (blocking); None when Redis cannot say (the caller keeps what the database records).

        A seat records a lost connection only when a socket closes and says so. A player seated who never opened the
        table, or whose sockets died with their server process, has no such record; this is how the clock finds them.
        """
        try:
            live = _blocking_client().zcount(self.key(user_id, table_id), time.time() - STALE_SECONDS, "+inf")
        except redis.RedisError:
            logger.warning("presence of user %s at table %s is unknown: Redis did not answer", user_id, table_id)
            return None
        return int(live) > 0


cash_table_presence = Presence("presence")
presence_key = cash_table_presence.key
connected = cash_table_presence.connected
disconnected = cash_table_presence.disconnected
has_live_socket = cash_table_presence.has_live_socket
