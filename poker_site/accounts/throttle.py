"""Brute-force protection for log-in: atomic failure counters in Redis, reserved *before* the password is checked.

Three counters, each in a fixed window of LOGIN_LOCKOUT_SECONDS that starts at its first counted attempt:

* per (username, address): LOGIN_FAILURE_LIMIT (5) — one client guessing one account;
* per username, from any address: LOGIN_ACCOUNT_FAILURE_LIMIT (4× by default) — guessing spread over addresses;
* per address, over all usernames: LOGIN_ADDRESS_FAILURE_LIMIT (10× by default) — one client trying many accounts.
  Deliberately far above the others: behind a proxy that is not trusted every player shares one address.

An attempt first *reserves* a slot on all three counters in one Redis script (check and increment together); only a
reserved attempt has its password checked, so however many attempts arrive at once, at most a limit's worth of
passwords are ever checked in a window. A success gives its reservation back (the account's counters are cleared, the
address's count goes down by one); a failure keeps it. A refused attempt reserves nothing: it checked no password.

Why not django-axes (8.x): it checks the lock in its backend before the password and counts the failure afterwards in
a ``user_login_failed`` handler, so concurrent attempts all pass the check before any is counted (its database
handler's row lock and its cache handler's INCR only make the *count* exact, not the gate); and it compares every
lockout parameter combination with one AXES_FAILURE_LIMIT, so an address-only limit far above the account limit
cannot be expressed.

The client address is REMOTE_ADDR unless TRUSTED_PROXY_COUNT says how many reverse proxies append to
X-Forwarded-For; then it is the entry the outermost trusted proxy added (DRF's NUM_PROXIES rule).
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest
from redis.commands.core import Script

from poker_site.core.redis_clients import blocking_client

UNKNOWN_ADDRESS = "unknown"

# KEYS: the counters; ARGV[1]: the window in seconds, ARGV[2..]: each counter's limit. Returns 0 when a slot was
# reserved on every counter, otherwise the seconds until the longest exhausted counter's window ends (nothing counted).
_RESERVE_SCRIPT = """
local longest = 0
for index, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[index + 1]) then
    longest = math.max(longest, redis.call('TTL', key), 1)
  end
end
if longest > 0 then
  return longest
end
for _, key in ipairs(KEYS) do
  if redis.call('INCR', key) == 1 or redis.call('TTL', key) < 0 then
    redis.call('EXPIRE', key, ARGV[1])
  end
end
return 0
"""

# KEYS[1]: the address counter (one down, never below zero); KEYS[2..]: the account's counters (cleared).
_RELEASE_SCRIPT = """
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then
  redis.call('DECR', KEYS[1])
end
for index = 2, #KEYS do
  redis.call('DEL', KEYS[index])
end
return 0
"""

# KEYS: the counters; ARGV: their limits. The seconds until the longest exhausted counter's window ends, or 0.
_LOCKED_SCRIPT = """
local longest = 0
for index, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[index]) then
    longest = math.max(longest, redis.call('TTL', key), 1)
  end
end
return longest
"""


@dataclass(frozen=True)
class Counters:
    """The Redis keys and limits of one (username, address) pair, address counter first."""

    keys: tuple[str, str, str]
    limits: tuple[int, int, int]


def counters(username: str, address: str) -> Counters:
    # Usernames are hashed (any length or bytes an attacker sends) and case-folded, so "Alice" and "alice" share one
    # count instead of giving five guesses per spelling.
    account = hashlib.sha256(username.strip().casefold().encode()).hexdigest()[:32]
    prefix = f"{settings.REDIS_KEY_PREFIX}:login-failures"
    return Counters(
        keys=(f"{prefix}:address:{address}", f"{prefix}:account:{account}", f"{prefix}:pair:{account}:{address}"),
        limits=(
            settings.LOGIN_ADDRESS_FAILURE_LIMIT,
            settings.LOGIN_ACCOUNT_FAILURE_LIMIT,
            settings.LOGIN_FAILURE_LIMIT,
        ),
    )


def client_address(request: HttpRequest | None) -> str:
    """The address the attempt came from: REMOTE_ADDR, or with TRUSTED_PROXY_COUNT = n > 0 the n-th X-Forwarded-For
    entry from the right (what the outermost of the n trusted proxies saw). A header with fewer entries, or an entry
    that is not an IP address, is ignored (REMOTE_ADDR): anything left of the trusted entries is the client's say."""
    if request is None:
        return UNKNOWN_ADDRESS
    remote = _ip_or_none(request.META.get("REMOTE_ADDR")) or UNKNOWN_ADDRESS
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0:
        return remote
    entries = [entry.strip() for entry in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")]
    if len(entries) < proxies:
        return remote
    return _ip_or_none(entries[-proxies]) or remote


def _ip_or_none(value: object) -> str | None:
    try:
        return str(ipaddress.ip_address(str(value)))
    except ValueError:
        return None


def attempt_reserve(username: str, address: str) -> int:
    """Reserve one attempt for ``username`` from ``address``: 0 when the password may be checked (the attempt now
    counts as a failure until :func:`attempt_succeeded` gives it back), else the seconds the lock still lasts."""
    found = counters(username, address)
    return int(_script(_RESERVE_SCRIPT)(keys=list(found.keys), args=[settings.LOGIN_LOCKOUT_SECONDS, *found.limits]))


def attempt_succeeded(username: str, address: str) -> None:
    """The reserved attempt logged in: clear the account's counters and give the address its slot back."""
    found = counters(username, address)
    _script(_RELEASE_SCRIPT)(keys=list(found.keys))


def seconds_locked(username: str, address: str) -> int:
    """How many seconds log-in stays refused for ``username`` from ``address`` (0: the next attempt is checked)."""
    found = counters(username, address)
    return int(_script(_LOCKED_SCRIPT)(keys=list(found.keys), args=list(found.limits)))


@functools.cache
def _script(source: str) -> Script:
    """The script registered once per process (redis-py runs it by its SHA and loads it again if Redis lost it)."""
    return blocking_client().register_script(source)
