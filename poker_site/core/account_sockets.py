"""Closing every game socket of one player at once, in every server process (a suspended account, FRD-18).

A socket reads its user once, when it connects. When the compliance desk suspends or terminates an account, the
account stops signing anybody in at once (``poker_site.accounts.backends``): new sockets and requests are anonymous,
and open sockets close at their next session re-check. That re-check runs every few minutes; this module closes them
immediately:

* each game socket of a logged-in player joins its event loop's :class:`AccountSockets` (``join`` / ``leave``);
* :func:`account_sockets_close` (after the suspension commits) publishes one Redis message on :func:`channel`;
* each loop's subscription hands it to that player's sockets in the loop (``socket.account_closed(reason)``), which
  say why and close.

Delivery is at most once (Redis pub/sub): a message lost while a loop's subscription reconnects leaves the session
re-check to close the socket.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from typing import Any, Final, Protocol

import redis.asyncio as redis_asyncio
from django.conf import settings

logger = logging.getLogger(__name__)

SUBSCRIBE_TIMEOUT_SECONDS: Final[float] = 10.0
RECONNECT_MAXIMUM_SECONDS: Final[float] = 5.0


def channel() -> str:
    """The Redis channel that carries "close this player's sockets"."""
    return f"{settings.REDIS_KEY_PREFIX}:account-sockets"


class AccountSocket(Protocol):
    def account_closed(self, reason: str) -> None:
        """Say ``reason`` to the client and close; must not block (schedule the work on the socket's loop)."""
        ...


class AccountSockets:
    """One event loop's game sockets by player, and its subscription to :func:`channel`."""

    def __init__(self) -> None:
        # Weak: a socket whose consumer ended without saying goodbye (its handler raised) does not stay here.
        self.sockets: dict[int, weakref.WeakSet[Any]] = {}
        self.subscribed = asyncio.Event()
        self.reader: asyncio.Task[None] | None = None

    async def join(self, user_id: int, socket: AccountSocket) -> None:
        """Register the socket; returns once the loop's subscription is in place (or after
        :data:`SUBSCRIBE_TIMEOUT_SECONDS`, logged: the session re-check still closes the socket later)."""
        if self.reader is None or self.reader.done():
            self.reader = asyncio.ensure_future(self._read_forever())
        self.sockets.setdefault(int(user_id), weakref.WeakSet()).add(socket)
        try:
            await asyncio.wait_for(self.subscribed.wait(), SUBSCRIBE_TIMEOUT_SECONDS)
        except TimeoutError:
            logger.warning(
                "account sockets: no subscription yet; user %s's socket relies on its session check", user_id
            )

    def leave(self, user_id: int, socket: AccountSocket) -> None:
        members = self.sockets.get(int(user_id))
        if members is not None:
            members.discard(socket)
            if not members:
                del self.sockets[int(user_id)]

    def dispatch(self, data: bytes | str) -> int:
        """Hand one published message to the player's sockets in this loop; returns how many were told."""
        message = json.loads(data)
        members = list(self.sockets.get(int(message["user_id"]), ()))
        for socket in members:
            socket.account_closed(str(message.get("reason") or "Your account cannot play now."))
        return len(members)

    async def _read_forever(self) -> None:
        pause = 0.1
        while True:
            client = redis_asyncio.Redis.from_url(settings.REDIS_URL, socket_timeout=None, socket_keepalive=True)
            pubsub = client.pubsub()
            try:
                await pubsub.subscribe(channel())
                while True:
                    confirmation = await pubsub.get_message(timeout=SUBSCRIBE_TIMEOUT_SECONDS)
                    if confirmation is None:
                        raise TimeoutError("Redis did not confirm the account sockets subscription")
                    if confirmation["type"] == "subscribe":
                        break
                self.subscribed.set()
                pause = 0.1
                async for message in pubsub.listen():
                    if message["type"] == "message":
                        try:
                            self.dispatch(message["data"])
                        except Exception:
                            logger.exception("could not hand out an account sockets message")
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning("account sockets: subscription lost; subscribing again", exc_info=True)
            finally:
                self.subscribed.clear()
                for closing in (pubsub.aclose, client.aclose):
                    try:
                        await closing()
                    except Exception:
                        logger.debug("closing the account sockets connection failed", exc_info=True)
            await asyncio.sleep(pause)
            pause = min(RECONNECT_MAXIMUM_SECONDS, pause * 2)


_by_loop: dict[asyncio.AbstractEventLoop, AccountSockets] = {}


def account_sockets() -> AccountSockets:
    """The running event loop's :class:`AccountSockets` (one per loop: redis.asyncio connections belong to one)."""
    loop = asyncio.get_running_loop()
    instance = _by_loop.get(loop)
    if instance is None:
        for closed in [other for other in _by_loop if other.is_closed()]:
            del _by_loop[closed]
        instance = _by_loop[loop] = AccountSockets()
    return instance


def account_sockets_close(user_id: int, reason: str) -> None:
    """Close every game socket of user ``user_id`` in every process, telling the client ``reason``. Returns at once
    (queued on the process's publisher, :func:`poker_site.core.publish.publish_to_redis`); call it after commit."""
    from poker_site.core.publish import publish_to_redis

    data: dict[str, Any] = {"user_id": int(user_id), "reason": reason}
    publish_to_redis(channel(), json.dumps(data))
