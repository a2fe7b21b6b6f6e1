"""The chat's per-player counters in Redis, shared by every web process (as the log-in lock's counters are,
:mod:`poker_site.accounts.throttle`): the rate limit and the automated moderation's warnings.

Each counter is a fixed window that starts at its first counted line. The rate limit reserves a slot atomically (check
and increment in one script), so lines sent at once from several sockets or processes cannot pass the limit together;
a refused line counts nothing.
"""

from __future__ import annotations

import functools

from django.conf import settings
from redis.commands.core import Script

from poker_site.core.redis_clients import blocking_client

# KEYS[1]: the counter; ARGV[1]: the window in seconds, ARGV[2]: the limit. Returns 0 when a slot was reserved,
# otherwise the seconds until the window ends (nothing counted).
_RESERVE_SCRIPT = """
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[2]) then
  return math.max(redis.call('TTL', KEYS[1]), 1)
end
if redis.call('INCR', KEYS[1]) == 1 or redis.call('TTL', KEYS[1]) < 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
end
return 0
"""

# KEYS[1]: the counter; ARGV[1]: the window in seconds. Counts one and returns the count in the window.
_COUNT_SCRIPT = """
local count = redis.call('INCR', KEYS[1])
if count == 1 or redis.call('TTL', KEYS[1]) < 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
end
return count
"""


def rate_key(user_id: int) -> str:
    return f"{settings.REDIS_KEY_PREFIX}:chat:rate:{int(user_id)}"


def warnings_key(user_id: int) -> str:
    return f"{settings.REDIS_KEY_PREFIX}:chat:warnings:{int(user_id)}"


def chat_rate_reserve(user_id: int) -> int:
    """Count one line of ``user_id`` against ``CHAT_RATE_LINES`` per ``CHAT_RATE_SECONDS`` (over all their tables):
    0 when it may be sent, else the seconds until it may (nothing counted)."""
    return int(
        _script(_RESERVE_SCRIPT)(keys=[rate_key(user_id)], args=[settings.CHAT_RATE_SECONDS, settings.CHAT_RATE_LINES])
    )


def chat_warning_count(user_id: int) -> int:
    """Count one moderation warning of ``user_id``; returns their warnings in the last ``CHAT_WARNING_SECONDS``."""
    return int(_script(_COUNT_SCRIPT)(keys=[warnings_key(user_id)], args=[settings.CHAT_WARNING_SECONDS]))


def chat_counters_clear(user_id: int) -> None:
    """Forget the player's rate window and warnings (support lifted a mute: the player starts afresh)."""
    blocking_client().delete(rate_key(user_id), warnings_key(user_id))


@functools.cache
def _script(source: str) -> Script:
    """The script registered once per process (redis-py runs it by its SHA and loads it again if Redis lost it)."""
    return blocking_client().register_script(source)
