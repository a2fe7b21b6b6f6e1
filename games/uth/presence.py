"""Which sockets a player has open on a UTH table, so only the *last* one closing counts as a disconnection (UTH-38).

Each socket of a logged-in player is a member of a Redis sorted set per (player, table), scored by its last
heartbeat; members older than :data:`STALE_SECONDS` (a server process that died without saying goodbye) do not count.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from typing import Final

import redis.asyncio as redis_asyncio
from django.conf import settings

HEARTBEAT_SECONDS: Final[float] = 30.0
STALE_SECONDS: Final[float] = 3 * HEARTBEAT_SECONDS

_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, redis_asyncio.Redis] = weakref.WeakKeyDictionary()


def _client() -> redis_asyncio.Redis:
    loop = asyncio.get_running_loop()  # a redis.asyncio connection belongs to the loop that opened it
    client = _clients.get(loop)
    if client is None:
        client = _clients[loop] = redis_asyncio.Redis.from_url(settings.REDIS_URL)
    return client


def presence_key(user_id: int, table_id: int) -> str:
    return f"{settings.REDIS_KEY_PREFIX}:uth-presence:{int(user_id)}:{int(table_id)}"


async def connected(user_id: int, table_id: int, channel_name: str) -> None:
    key = presence_key(user_id, table_id)
    client = _client()
    await client.zadd(key, {channel_name: time.time()})
    await client.expire(key, int(STALE_SECONDS) * 2)


async def disconnected(user_id: int, table_id: int, channel_name: str) -> bool:
    """Forget the socket; True when the player has no other live socket on the table."""
    key = presence_key(user_id, table_id)
    client = _client()
    await client.zrem(key, channel_name)
    await client.zremrangebyscore(key, 0, time.time() - STALE_SECONDS)
    return int(await client.zcard(key)) == 0
