"""A REST request of the cash tables sent again with the same ``Idempotency-Key`` is answered, not applied again.

Used by the stake queue's join (``POST /api/games/stakes/<id>/queue/``): a double submit from the lobby, a network
retry or a second tab could otherwise seat the player at two tables of a stake (CASH-09 allows a second table). The
first request with a key claims it in Redis for the player (``SET NX``, :data:`KEEP_SECONDS`) together with what it
asked (its fingerprint: the stake, buy-in and choices); once it succeeded, its answer is kept under the key, and a
request with the same key and the same fingerprint gets that answer again without being applied. The same key with
another fingerprint is refused (``idempotency_conflict``). A copy that arrives while the first is still being
handled waits for its answer (at most :data:`WAIT_SECONDS`), then is refused with ``duplicate_request`` if there is
still none.

Only an answer that changed something is kept: a refusal, a request that ends failed (nothing seated or queued) or
an unexpected error gives the key back, so sending it again is applied again (it changed nothing the first time).
Keys are the wallet's (``wallet.api.idempotency_key_of``: 1 to 100 letters, digits, ``.``, ``_``, ``:``, ``-``).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Final

from django.conf import settings

from poker_site.core.redis_clients import blocking_client

KEEP_SECONDS: Final[int] = 3600
"""How long a key's answer is kept: far longer than any retry or double submit."""
WAIT_SECONDS: Final[float] = 10.0
"""How long a copy waits for the first request's answer before it is refused with ``duplicate_request``."""
POLL_SECONDS: Final[float] = 0.05

_PENDING: Final[str] = "pending"


@dataclass(frozen=True)
class Replay:
    """What a request with an already used key gets: the first answer (``body``, ``status``), or a refusal
    (``conflict``: the key was used for another request; ``in_progress``: the first has no answer yet)."""

    body: dict[str, Any] | None = None
    status: int = 200
    conflict: bool = False
    in_progress: bool = False


def redis_key(operation: str, user_id: int, idempotency_key: str) -> str:
    return f"{settings.REDIS_KEY_PREFIX}:rest-idempotency:{operation}:{int(user_id)}:{idempotency_key}"


def _encode(fingerprint: dict[str, Any], state: str, body: Any = None, status: int = 200) -> str:
    return json.dumps(
        {"fingerprint": fingerprint, "state": state, "body": body, "status": status},
        separators=(",", ":"),
        sort_keys=True,
        default=str,
    )


def claim(key: str, fingerprint: dict[str, Any]) -> Replay | None:
    """Claim ``key`` for a request asking ``fingerprint``: None when it is new (apply the request, then
    :func:`remember` or :func:`release`), else the :class:`Replay` to answer. A copy of a request still being handled
    waits up to :data:`WAIT_SECONDS` for its answer; if the first gives the key back meanwhile, the copy claims it."""
    client = blocking_client()
    normalised = json.loads(json.dumps(fingerprint, sort_keys=True, default=str))
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        if client.set(key, _encode(normalised, _PENDING), nx=True, ex=KEEP_SECONDS):
            return None
        stored = client.get(key)
        if stored is None:
            if time.monotonic() >= deadline:
                return Replay(in_progress=True)
            continue  # given back (or expired) between the two calls: claim it
        try:
            seen = json.loads(stored)
        except ValueError:
            return Replay(in_progress=True)
        if seen.get("fingerprint") != normalised:
            return Replay(conflict=True)
        if seen.get("state") != _PENDING:
            return Replay(body=seen.get("body"), status=int(seen.get("status") or 200))
        if time.monotonic() >= deadline:
            return Replay(in_progress=True)
        time.sleep(POLL_SECONDS)


def remember(key: str, fingerprint: dict[str, Any], body: Any, status: int = 200) -> None:
    """Keep the answer of the claimed ``key``: later requests with it get this answer."""
    normalised = json.loads(json.dumps(fingerprint, sort_keys=True, default=str))
    blocking_client().set(key, _encode(normalised, "answered", body, status), ex=KEEP_SECONDS)


def release(key: str) -> None:
    """Give ``key`` back (the request changed nothing): the next request with it is applied."""
    blocking_client().delete(key)
