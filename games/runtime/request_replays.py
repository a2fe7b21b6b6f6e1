"""A command frame is applied once per ``request_id`` (issue 30): a resent frame is answered, never applied again.

A client resends a frame with the same ``request_id`` when it did not see the answer (a network retry, a reconnect, a
double click that reuses the id). Without this, each copy was applied: UTH ``bet`` frames of one request id added up
eight times, a ``double`` was applied four times, and the cash tables' frames likewise. Now the first frame of a
(game, player, table, request id, what it asks) claims it in Redis (``SET NX`` with an expiry of
:data:`KEEP_SECONDS`); the answer it got (its ``ok`` or its refusal) is kept under the same key. A copy arriving
later, on this socket or on another socket of the same player (a second tab, a reconnected socket, another web
process), is not applied: it gets the first answer again, marked ``"duplicate": true``, or, while the first is still
being handled (or its socket died before answering), a ``duplicate_request`` error naming the request id. Nothing
changes either way. A client must therefore not reuse a request id for a new request within :data:`KEEP_SECONDS`
(the site's pages and bots make ids unique per page or session; ``docs/protocol.md``).

A frame that failed with ``server_error`` (nothing was changed) gives its request id back, so a retry is applied.
Frames without a ``request_id`` cannot be recognised and are applied as before; a malformed ``request_id`` is refused
by the protocol (``bad_request_id``) before anything runs.

Memory is bounded: each key expires after :data:`KEEP_SECONDS`, and the sockets' rate limit (10 frames a second)
bounds how many one socket can make.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Final

from django.conf import settings

from poker_site.core.redis_clients import event_loop_client

KEEP_SECONDS: Final[int] = 300
"""How long a handled request id is remembered (and its answer kept): "the last few minutes"."""

PENDING: Final[bytes] = b"pending"
"""The value of a claimed request id whose answer is not known yet."""

DUPLICATE_REQUEST: Final[str] = "duplicate_request"
"""The error code of a copy whose first frame has not been answered (yet)."""


def request_key(
    namespace: str, user_id: int, table_id: int, request_id: str, message_type: str, fields: dict[str, Any]
) -> str:
    """The key of one request of a player at a table: its request id (the protocol's ``REQUEST_ID_PATTERN``: letters,
    digits and ``_.:-``, at most 64) and a digest of what it asks (type and fields). A resent frame asks the same
    thing under the same id; a frame under an id used before that asks something else is another request (a client
    whose counter of ids started again after a reload, or a bot that took over a name), and is applied."""
    asked = json.dumps([message_type, fields], sort_keys=True, separators=(",", ":"), default=str)
    digest = hashlib.sha256(asked.encode()).hexdigest()[:32]
    return f"{settings.REDIS_KEY_PREFIX}:request-ids:{namespace}:{int(user_id)}:{int(table_id)}:{request_id}:{digest}"


@dataclass(frozen=True)
class Seen:
    """A request id handled before: ``reply`` is the answer it got, None while it is still being handled."""

    reply: dict[str, Any] | None


async def claim(key: str) -> Seen | None:
    """Claim ``key`` for a new frame: None when it is new (the caller applies the frame, then :func:`remember` or
    :func:`release`), else what the earlier frame of that request id got."""
    client = event_loop_client()
    if await client.set(key, PENDING, nx=True, ex=KEEP_SECONDS):
        return None
    stored = await client.get(key)
    if stored is None or stored == PENDING:
        return Seen(None)  # still being handled (or expired between the two calls: refuse rather than apply twice)
    try:
        reply = json.loads(stored)
    except ValueError:
        return Seen(None)
    return Seen(reply if isinstance(reply, dict) else None)


async def remember(key: str, reply: dict[str, Any] | None) -> None:
    """Keep the answer of the claimed ``key`` (None: the frame was handled but sent no answer of its own)."""
    value = PENDING if reply is None else json.dumps(reply, separators=(",", ":"), default=str)
    await event_loop_client().set(key, value, ex=KEEP_SECONDS)


async def release(key: str) -> None:
    """Give the request id back (the frame failed and changed nothing): a retry is applied."""
    await event_loop_client().delete(key)
