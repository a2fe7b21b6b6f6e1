"""Brute-force protection for log-in, counted in the shared Redis cache.

Failures are counted per username and per client address. When either count reaches
LOGIN_FAILURE_LIMIT inside the lock-out window, log-in for that username or address is refused
until the window has passed, whether the password is right or not. A success clears the username's
count. Every log-in path (site form, admin, API session) goes through the authentication backend,
so none of them can be used to go around the limit.
"""

from __future__ import annotations

import math
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest


def client_address(request: HttpRequest | None) -> str:
    if request is None:
        return "unknown"
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def _keys(username: str, address: str) -> list[str]:
    return [f"login-failures:user:{username.strip().lower()}", f"login-failures:address:{address}"]


def record_failure(username: str, address: str) -> None:
    """Count one failed attempt; the window starts at the first failure."""
    window = settings.LOGIN_LOCKOUT_SECONDS
    for key in _keys(username, address):
        if cache.add(key, {"count": 1, "since": time.time()}, timeout=window):
            continue
        entry = cache.get(key) or {"count": 0, "since": time.time()}
        entry["count"] += 1
        remaining = max(1, int(entry["since"] + window - time.time()))
        cache.set(key, entry, timeout=remaining)


def clear_failures(username: str) -> None:
    cache.delete(_keys(username, "")[0])


def seconds_locked(username: str, address: str) -> int:
    """How many seconds log-in stays refused for this username or address (0 = not locked)."""
    longest = 0.0
    for key in _keys(username, address):
        entry = cache.get(key)
        if entry and entry["count"] >= settings.LOGIN_FAILURE_LIMIT:
            longest = max(longest, entry["since"] + settings.LOGIN_LOCKOUT_SECONDS - time.time())
    return max(0, math.ceil(longest))
