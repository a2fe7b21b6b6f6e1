"""Brute-force protection for log-in: atomic failure counters in Redis, reserved *before* the password is checked.

Three counters, each in a fixed window of LOGIN_LOCKOUT_SECONDS that starts at its first counted attempt:

* per (username, address): LOGIN_FAILURE_LIMIT (5) — one client guessing one account;
* per username, from any address: LOGIN_ACCOUNT_FAILURE_LIMIT (4× by default) — guessing spread over addresses;
* per address, over all usernames: LOGIN_ADDRESS_FAILURE_LIMIT (10× by default) — one client trying many accounts.
  Deliberately far above the others: behind a proxy that is not trusted every player shares one address.

An attempt first *reserves* a slot on all three counters in one Redis script (check and increment together); only a
reserved attempt has its password checked, so however many attempts arrive at once, at most a limit's worth of
passwords are ever checked in a window. A success gives its reservation back (the account's counters are cleared, the
address's count goes down by one); a failure keeps it. Only a checked wrong password counts: an attempt whose password
was never checked (the request failed first, e.g. no database connection: 503) or was right but the account may not
log in (suspended) gives its reservation back, one down on each counter. A refused attempt reserves nothing: it
checked no password.

**Known devices** (the account-wide counter must not let anyone lock a player out): a browser that logged in to the
account gets a signed cookie naming the account and a random device identifier (:mod:`poker_site.accounts.devices`).
An attempt carrying such a cookie for that username reserves on the address and (username, address) counters and on
the device's own counter (limit 1), not on the account-wide one: an attacker's failures from elsewhere do not refuse
the owner's browser. The device's counter keeps a failure for the window, so a browser that has itself failed (or
has an attempt in flight) goes the ordinary way, the account-wide counter included; its failure also counts on the
account-wide counter. A success through a known device does not clear the account-wide counter (the attacker's count
stands).

Why not django-axes (8.x): it checks the lock in its backend before the password and counts the failure afterwards in
a ``user_login_failed`` handler, so concurrent attempts all pass the check before any is counted (its database
handler's row lock and its cache handler's INCR only make the *count* exact, not the gate); and it compares every
lockout parameter combination with one AXES_FAILURE_LIMIT, so an address-only limit far above the account limit
cannot be expressed.

The client address is REMOTE_ADDR unless TRUSTED_PROXY_COUNT says how many reverse proxies append to
X-Forwarded-For; then it is the entry the outermost trusted proxy added (DRF's NUM_PROXIES rule). The counters count
it by :func:`counted_address`: an IPv4 address as it is, an IPv6 address by its /64 network (one subscriber's
connection usually has a whole /64, so counting each address would let one client rotate through 2^64 of them).
:func:`client_address` itself stays the full address: the connection records of the compliance desk keep that.

:func:`request_counted` puts the same reserve script in front of other requests an anonymous client may repeat: the
public "Forgot your password?" page counts each request per client address and per (e-mail address asked for, client
address). :func:`sending_reserved` counts what is actually sent: the same page's links to one account's address
(:func:`poker_site.accounts.password_reset.password_reset_links_send` says why that cannot lock a player out).
"""

from __future__ import annotations

import enum
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

# KEYS: the reserved counters, each one down (never below zero): a reservation given back.
_GIVE_BACK_SCRIPT = """
for _, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') > 0 then
    redis.call('DECR', key)
  end
end
return 0
"""

# KEYS[1]: a counter; ARGV[1]: the window. One more, the window starting with its first count.
_COUNT_SCRIPT = """
if redis.call('INCR', KEYS[1]) == 1 or redis.call('TTL', KEYS[1]) < 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
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


# KEYS[1]: the pause after the last message sent, KEYS[2]: the count of messages sent; ARGV[1]: the pause in seconds,
# ARGV[2]: the count's limit, ARGV[3]: its window in seconds. 0: reserved (counted, the pause begins again); 1: within
# the pause; 2: the limit reached. Nothing changes unless reserved.
_SENDING_SCRIPT = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 1
end
if tonumber(redis.call('GET', KEYS[2]) or '0') >= tonumber(ARGV[2]) then
  return 2
end
if redis.call('INCR', KEYS[2]) == 1 or redis.call('TTL', KEYS[2]) < 0 then
  redis.call('EXPIRE', KEYS[2], ARGV[3])
end
redis.call('SET', KEYS[1], '1', 'EX', ARGV[1])
return 0
"""

# KEYS[1]: the pause (ended), KEYS[2]: the count of messages sent (one down, never below zero): nothing went out.
_SENDING_GIVE_BACK_SCRIPT = """
redis.call('DEL', KEYS[1])
if tonumber(redis.call('GET', KEYS[2]) or '0') > 0 then
  redis.call('DECR', KEYS[2])
end
return 0
"""


class Sending(enum.IntEnum):
    """The answer of :func:`sending_reserved` (the values its Redis script returns)."""

    RESERVED = 0
    """Send it: counted, and the pause after it has begun."""
    PAUSED = 1
    """One was sent within the pause: send none now."""
    LIMITED = 2
    """The window's limit was sent: send none until the window ends."""


@dataclass(frozen=True)
class Counters:
    """The Redis keys and limits of one (username, address) pair, address counter first."""

    keys: tuple[str, str, str]
    limits: tuple[int, int, int]


@dataclass(frozen=True)
class Reservation:
    """The answer of :func:`attempt_reserve`: ``seconds_locked`` is 0 when the password may be checked, else how
    long the lock still lasts; ``device`` is the known device the slot was reserved through ("" when the
    account-wide counter was reserved)."""

    seconds_locked: int
    device: str = ""


def account_key(username: str) -> str:
    """The account's name in the counters: hashed (any length or bytes an attacker sends) and case-folded, so "Alice"
    and "alice" share one count instead of giving five guesses per spelling."""
    return hashlib.sha256(username.strip().casefold().encode()).hexdigest()[:32]


def _prefix() -> str:
    return f"{settings.REDIS_KEY_PREFIX}:login-failures"


def device_counter(device: str) -> str:
    return f"{_prefix()}:device:{device}"


def counters(username: str, address: str) -> Counters:
    account = account_key(username)
    prefix = _prefix()
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


IPV6_COUNTED_PREFIX = 64


def counted_address(request: HttpRequest | None) -> str:
    """The client as the counters count it: :func:`client_address`, an IPv6 address reduced to its /64 network
    (``2001:db8::/64``; an IPv4-mapped one to its IPv4 address)."""
    return address_counted(client_address(request))


def address_counted(address: str) -> str:
    """``address`` as the counters count it (see :func:`counted_address`); anything else unchanged."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, IPV6_COUNTED_PREFIX), strict=False))
    return address


def _ip_or_none(value: object) -> str | None:
    try:
        return str(ipaddress.ip_address(str(value)))
    except ValueError:
        return None


def _reserved_keys(username: str, address: str, device: str) -> tuple[list[str], list[int]]:
    """The counters an attempt reserves on, with their limits: through a known device its own counter (limit 1)
    stands in for the account-wide one."""
    found = counters(username, address)
    if not device:
        return list(found.keys), list(found.limits)
    address_key, _, pair_key = found.keys
    address_limit, _, pair_limit = found.limits
    return [address_key, pair_key, device_counter(device)], [address_limit, pair_limit, 1]


def attempt_reserve(username: str, address: str, device: str = "") -> Reservation:
    """Reserve one attempt for ``username`` from ``address`` (``device``: the known device the browser presented for
    this username, see :mod:`poker_site.accounts.devices`). ``seconds_locked`` 0: the password may be checked, and
    the attempt counts as a failure until :func:`attempt_succeeded` or :func:`attempt_given_back` is called."""
    window = settings.LOGIN_LOCKOUT_SECONDS
    if device:
        keys, limits = _reserved_keys(username, address, device)
        if not int(_script(_RESERVE_SCRIPT)(keys=keys, args=[window, *limits])):
            return Reservation(0, device)
        # The device has failed (or has an attempt in flight): the ordinary way, account-wide counter included.
    keys, limits = _reserved_keys(username, address, "")
    return Reservation(int(_script(_RESERVE_SCRIPT)(keys=keys, args=[window, *limits])))


def attempt_succeeded(username: str, address: str, device: str = "") -> None:
    """The reserved attempt logged in: give the address its slot back and clear the (username, address) counter;
    the account-wide counter is cleared too unless the slot was reserved through a known device (whose own counter
    is then cleared instead): an owner logging in from a known browser leaves an attacker's count standing."""
    found = counters(username, address)
    if device:
        _script(_RELEASE_SCRIPT)(keys=[found.keys[0], found.keys[2], device_counter(device)])
        return
    _script(_RELEASE_SCRIPT)(keys=list(found.keys))


def attempt_failed(username: str, address: str, device: str = "") -> None:
    """The reserved attempt's password was checked and wrong. Its reservation stays on the counters; one reserved
    through a known device also counts on the account-wide counter (the device's own keeps it from bypassing)."""
    if device:
        _script(_COUNT_SCRIPT)(keys=[counters(username, address).keys[1]], args=[settings.LOGIN_LOCKOUT_SECONDS])


def attempt_given_back(username: str, address: str, device: str = "") -> None:
    """The reserved attempt checked no wrong password (its request failed before the check, or the password was
    right but the account may not log in): one down on each counter it reserved on."""
    keys, _ = _reserved_keys(username, address, device)
    _script(_GIVE_BACK_SCRIPT)(keys=keys)


def seconds_locked(username: str, address: str) -> int:
    """How many seconds log-in stays refused for ``username`` from ``address`` (0: the next attempt is checked)."""
    found = counters(username, address)
    return int(_script(_LOCKED_SCRIPT)(keys=list(found.keys), args=list(found.limits)))


def request_counted(kind: str, counted: list[tuple[str, int]], window: int) -> int:
    """Count one request of ``kind`` (e.g. ``"password-reset"``) on each ``(key, limit)`` of ``counted`` in a fixed
    window of ``window`` seconds, atomically and only when every counter is under its limit (the log-in lock's reserve
    script). 0: counted, go ahead; else the seconds until the longest exhausted counter's window ends (nothing
    counted). The keys are hashed like usernames (:func:`account_key`), so any text an attacker sends is one short
    key."""
    keys = [f"{settings.REDIS_KEY_PREFIX}:{kind}:{account_key(key)}" for key, _ in counted]
    return int(_script(_RESERVE_SCRIPT)(keys=keys, args=[window, *(limit for _, limit in counted)]))


def _sending_keys(kind: str, subject: str) -> list[str]:
    hashed = account_key(subject)
    return [f"{settings.REDIS_KEY_PREFIX}:{kind}:pause:{hashed}", f"{settings.REDIS_KEY_PREFIX}:{kind}:sent:{hashed}"]


def sending_reserved(kind: str, subject: str, *, pause: int, limit: int, window: int) -> Sending:
    """Reserve one message of ``kind`` (e.g. ``"password-reset-sent"``) to ``subject`` (who or what it goes to; hashed
    like the other keys), atomically: ``RESERVED`` when none was sent within the last ``pause`` seconds and fewer than
    ``limit`` in the fixed window of ``window`` seconds that began with the first one counted; then it is counted and
    the pause begins. Otherwise ``PAUSED`` or ``LIMITED``, and nothing is counted. A message that could not be sent is
    given back with :func:`sending_given_back`."""
    answer = _script(_SENDING_SCRIPT)(keys=_sending_keys(kind, subject), args=[pause, limit, window])
    return Sending(int(answer))


def sending_given_back(kind: str, subject: str) -> None:
    """The message reserved by :func:`sending_reserved` did not go out: its pause ends and its count goes one down."""
    _script(_SENDING_GIVE_BACK_SCRIPT)(keys=_sending_keys(kind, subject))


@functools.cache
def _script(source: str) -> Script:
    """The script registered once per process (redis-py runs it by its SHA and loads it again if Redis lost it)."""
    return blocking_client().register_script(source)
