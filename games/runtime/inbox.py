"""A table's inbox and its owner's answers, in Redis (issue 27, docs/runtime-design.md §2.1 and §2.3).

With ``settings.TABLE_ACTORS`` on, a table is played by the runtime process that holds its lease
(``games.runtime.owner``). A web process that has a message for the table (a player's action) does not touch the
table: it appends the message to the table's Redis stream and waits for the owner's answer:

* the stream ``<prefix>:table:<id>:inbox`` (``XADD``, trimmed to about :data:`STREAM_MAXIMUM_LENGTH` entries) is read
  by the owner through the consumer group :data:`STREAM_GROUP` (``XREADGROUP``), so the entries outlive a change of
  owner: a new owner reads what nobody read, and finds what the dead owner read but never acknowledged pending;
* each entry carries the request id, the user id, the message type, its fields (JSON) and when it expires: the sender
  waits ``settings.TABLE_REPLY_SECONDS`` and then gives up, so an owner that reads it later drops it unanswered;
* the owner answers on ``<prefix>:reply:<request id>`` (a one-element list with an expiry; ``BLPOP`` by the sender):
  ``ok``, or the refusal code, message and details exactly as ``commands.CommandRefused`` carries them.

The leases (``games.runtime.leases``) live under the same prefix; :func:`tables_owned` tells the ticker and the
start-up recovery which tables have a live owner (their hands and clocks are the owner's, not the database's), and a
sender asks, in the same step as its append, whether anyone holds the table's lease (:func:`message_send_if_owned`):
a table nobody owns (a closed one has no owner, ever) is not waited for blindly.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import redis
from django.conf import settings

from games.runtime.leases import LeaseStore, epoch_key, owner_key
from poker_site.core.redis_clients import event_loop_client

STREAM_GROUP = "owners"
"""The consumer group of every table's stream: the table's owners, one consumer per runtime process."""

STREAM_MAXIMUM_LENGTH = 1_000
"""Entries a table's stream keeps (approximately): far more than a table receives while its owner changes."""

REPLY_KEEP_SECONDS = 30
"""How long an answer nobody took stays in Redis (its sender gave up or died)."""

TABLE_UNAVAILABLE = "table_unavailable"
"""The refusal code when no owner answered in time (no runtime process owns the table, or it is overloaded)."""

NO_OWNER = "no-owner"
"""What :data:`_APPEND_IF_OWNED` pushes on the sender's reply key instead of appending, when nobody holds the table's
lease: the sender's ``BLPOP``, sent with it, takes it at once. Never an owner's answer (those are JSON objects)."""

_APPEND_IF_OWNED = """
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('RPUSH', KEYS[3], ARGV[1])
  redis.call('EXPIRE', KEYS[3], ARGV[2])
  return 0
end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], '*', unpack(ARGV, 4))
return 1
"""
"""Append a message to a table's stream (KEYS[2]) only while someone holds the table's lease (KEYS[1]); else push
:data:`NO_OWNER` on the message's reply key (KEYS[3]). One step, so a message is either in the stream of an owned
table or nowhere."""


def key_prefix() -> str:
    """Every key of the table runtime's ownership and inboxes starts with this."""
    return f"{settings.REDIS_KEY_PREFIX}:runtime"


def stream_key(table_id: int) -> str:
    return f"{key_prefix()}:table:{int(table_id)}:inbox"


def reply_key(request_id: str) -> str:
    return f"{key_prefix()}:reply:{request_id}"


def table_of_stream(key: str | bytes) -> int:
    """The table id a stream key names (``<prefix>:table:<id>:inbox``)."""
    text = key.decode() if isinstance(key, bytes) else key
    return int(text.rsplit(":", 2)[-2])


@dataclass(frozen=True)
class InboxMessage:
    """One message for a table's owner: ``message_type`` (``act``) with its validated ``fields``, from ``user_id``,
    answered on :func:`reply_key` of ``request_id`` unless it has expired (``expires_at``, seconds since the epoch)."""

    table_id: int
    request_id: str
    user_id: int | None
    message_type: str
    fields: dict[str, Any]
    expires_at: float
    entry_id: str = ""

    def encoded(self) -> dict[str, str]:
        return {
            "request_id": self.request_id,
            "user_id": "" if self.user_id is None else str(self.user_id),
            "type": self.message_type,
            "fields": json.dumps(self.fields, separators=(",", ":")),
            "expires_at": repr(self.expires_at),
        }

    @classmethod
    def decoded(cls, table_id: int, entry_id: str | bytes, data: dict[Any, Any]) -> InboxMessage:
        """The message of a stream entry (keys and values as redis-py returns them, bytes or text)."""
        text = {
            (key.decode() if isinstance(key, bytes) else str(key)): (
                value.decode() if isinstance(value, bytes) else str(value)
            )
            for key, value in data.items()
        }
        user = text.get("user_id", "")
        return cls(
            table_id=int(table_id),
            request_id=text["request_id"],
            user_id=int(user) if user else None,
            message_type=text["type"],
            fields=json.loads(text.get("fields") or "{}"),
            expires_at=float(text["expires_at"]),
            entry_id=entry_id.decode() if isinstance(entry_id, bytes) else str(entry_id),
        )

    def expired(self, now: float | None = None) -> bool:
        """Whether the sender has given up waiting (an owner then drops the message unanswered)."""
        return (time.time() if now is None else now) >= self.expires_at


@dataclass(frozen=True)
class Reply:
    """The owner's answer: ``ok``, or the refusal as ``CommandRefused`` has it (code, message, details)."""

    ok: bool
    code: str = ""
    message: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    def encoded(self) -> str:
        if self.ok:
            return json.dumps({"ok": True})
        return json.dumps({"ok": False, "code": self.code, "message": self.message, "details": self.details})

    @classmethod
    def decoded(cls, raw: str | bytes) -> Reply:
        data = json.loads(raw)
        if data.get("ok"):
            return cls(ok=True)
        return cls(
            ok=False, code=str(data["code"]), message=str(data["message"]), details=dict(data.get("details") or {})
        )


@dataclass(frozen=True)
class Answer:
    """A reply on its way, as Redis commands take it: ``reply`` (encoded) pushed on the sender's ``reply_key`` and kept
    ``keep_seconds``, and the answered entry ``entry_id`` acknowledged in its table's ``stream_key`` for ``group``."""

    reply_key: str
    reply: str
    keep_seconds: int
    stream_key: str
    group: str
    entry_id: str


def answer_to(message: InboxMessage, reply: Reply) -> Answer:
    """How ``message`` is answered with ``reply`` (what an owner's reply sends: the reply, its expiry, the ``XACK``)."""
    return Answer(
        reply_key(message.request_id),
        reply.encoded(),
        REPLY_KEEP_SECONDS,
        stream_key(message.table_id),
        STREAM_GROUP,
        message.entry_id,
    )


_waiting_client: redis.Redis | None = None
_waiting_client_lock = threading.Lock()


def waiting_client() -> redis.Redis:
    """The process's blocking client for the inbox and the leases: its read timeout outlasts a sender's wait
    (``poker_site.core.redis_clients``' shared client times out after 2 s, shorter than a ``BLPOP``)."""
    global _waiting_client
    with _waiting_client_lock:
        if _waiting_client is None:
            _waiting_client = redis.Redis.from_url(
                settings.REDIS_URL,
                socket_timeout=_read_timeout_seconds(),
                socket_connect_timeout=2.0,
            )
        return _waiting_client


def table_owner_key(table_id: int) -> str:
    """The Redis key naming table ``table_id``'s owner while its lease lasts (the leases of :func:`lease_store`)."""
    return owner_key(key_prefix(), table_id)


def table_epoch_key(table_id: int) -> str:
    """The Redis key of the epoch of table ``table_id``'s latest acquisition by a runtime process (the leases of
    :func:`lease_store`)."""
    return epoch_key(key_prefix(), table_id)


def lease_store(client: redis.Redis | None = None) -> LeaseStore:
    """The table leases of this site (``settings.TABLE_LEASE_MILLISECONDS`` long)."""
    return LeaseStore(
        client if client is not None else waiting_client(),
        key_prefix(),
        lease_milliseconds=int(settings.TABLE_LEASE_MILLISECONDS),
    )


def message_send(
    table_id: int, user_id: int | None, message_type: str, fields: dict[str, Any], *, wait_seconds: float | None = None
) -> Reply:
    """Append a message to the table's stream and wait for its owner's answer. No answer within ``wait_seconds``
    (default ``settings.TABLE_REPLY_SECONDS``) is the refusal :data:`TABLE_UNAVAILABLE`; the message expires then, so
    an owner that reads it later does not apply it."""
    wait = _wait_seconds(wait_seconds)
    message = _message_append(table_id, user_id, message_type, fields, expires_seconds=wait)
    client = waiting_client()
    return _reply_of(client.blpop([reply_key(message.request_id)], timeout=_blocking_timeout(wait)))


async def message_send_on_the_loop(
    table_id: int, user_id: int | None, message_type: str, fields: dict[str, Any], *, wait_seconds: float | None = None
) -> Reply:
    """:func:`message_send` for a caller on an event loop (a table socket): the same entry and the same answers, sent
    and awaited with the loop's asyncio client, so the socket's action costs no hop to a worker thread and back."""
    wait = _wait_seconds(wait_seconds)
    message = _message_new(table_id, user_id, message_type, fields, expires_seconds=wait)
    return _reply_of(await _appended_and_awaited_on_the_loop(message, wait, only_if_owned=False))


def message_send_if_owned(
    table_id: int, user_id: int | None, message_type: str, fields: dict[str, Any], *, wait_seconds: float | None = None
) -> Reply | None:
    """:func:`message_send` while a runtime process holds the table's lease: the message is appended and its owner's
    answer waited for (the same answers). None at once, and nothing appended, when nobody holds it: the caller decides
    (a closed table is refused; an open one, between two owners or not claimed yet, is sent :func:`message_send`).
    One round trip, as :func:`message_send_on_the_loop`'s: the lease is asked in the append's own script."""
    wait = _wait_seconds(wait_seconds)
    message = _message_new(table_id, user_id, message_type, fields, expires_seconds=wait)
    with waiting_client().pipeline(transaction=False) as pipe:
        _append_if_owned(pipe, message)
        pipe.blpop([reply_key(message.request_id)], timeout=_blocking_timeout(wait))
        _appended, popped = pipe.execute()
    return _owned_reply_of(popped)


async def message_send_if_owned_on_the_loop(
    table_id: int, user_id: int | None, message_type: str, fields: dict[str, Any], *, wait_seconds: float | None = None
) -> Reply | None:
    """:func:`message_send_if_owned` for a caller on an event loop (a table socket's action): one round trip, with the
    loop's asyncio client."""
    wait = _wait_seconds(wait_seconds)
    message = _message_new(table_id, user_id, message_type, fields, expires_seconds=wait)
    return _owned_reply_of(await _appended_and_awaited_on_the_loop(message, wait, only_if_owned=True))


async def _appended_and_awaited_on_the_loop(message: InboxMessage, wait: float, *, only_if_owned: bool) -> Any:
    """Append ``message`` to its table's stream (``only_if_owned``: through :data:`_APPEND_IF_OWNED`) and wait up to
    ``wait`` seconds for its reply; returns what the ``BLPOP`` popped. One round trip: the ``BLPOP`` is sent with the
    append and waits on after it (a pipeline's connection is its own)."""
    client = event_loop_client(read_timeout_seconds=_read_timeout_seconds())
    async with client.pipeline(transaction=False) as pipe:
        if only_if_owned:
            _append_if_owned(pipe, message)
        else:
            entry: Any = message.encoded()
            pipe.xadd(stream_key(message.table_id), entry, maxlen=STREAM_MAXIMUM_LENGTH, approximate=True)
        pipe.blpop([reply_key(message.request_id)], timeout=_blocking_timeout(wait))
        _appended, popped = await pipe.execute()
    return popped


def _append_if_owned(pipe: Any, message: InboxMessage) -> None:
    """Queue on ``pipe`` the script that appends ``message`` if its table has an owner (:data:`_APPEND_IF_OWNED`).
    ``EVAL`` with the script's text rather than ``EVALSHA``: a script missing from the server's cache (a restarted
    Redis) would fail the pipeline only after its ``BLPOP`` had waited the whole reply time."""
    entry = [part for pair in message.encoded().items() for part in pair]
    pipe.eval(
        _APPEND_IF_OWNED,
        3,
        table_owner_key(message.table_id),
        stream_key(message.table_id),
        reply_key(message.request_id),
        NO_OWNER,
        REPLY_KEEP_SECONDS,
        STREAM_MAXIMUM_LENGTH,
        *entry,
    )


def _owned_reply_of(popped: Any) -> Reply | None:
    """None when the script found no owner (it pushed :data:`NO_OWNER`), else the owner's answer as :func:`_reply_of`
    reads it."""
    if popped is not None and popped[1] in (NO_OWNER, NO_OWNER.encode()):
        return None
    return _reply_of(popped)


def _wait_seconds(wait_seconds: float | None) -> float:
    return float(settings.TABLE_REPLY_SECONDS if wait_seconds is None else wait_seconds)


def _blocking_timeout(wait: float) -> int:
    """``BLPOP``'s timeout for a sender waiting ``wait`` seconds (whole seconds, at least one: zero would block on)."""
    return max(1, round(wait))


def _read_timeout_seconds() -> float:
    """A waiting client's read timeout: it must outlast a sender's ``BLPOP``."""
    return float(settings.TABLE_REPLY_SECONDS) + 5


def _reply_of(popped: Any) -> Reply:
    """The owner's answer ``BLPOP`` returned, or :data:`TABLE_UNAVAILABLE` when it returned nothing in time."""
    if popped is None:
        return Reply(
            ok=False,
            code=TABLE_UNAVAILABLE,
            message="The table did not answer in time. Try again in a moment.",
        )
    return Reply.decoded(popped[1])


def message_post(
    table_id: int,
    user_id: int | None,
    message_type: str,
    fields: dict[str, Any],
    *,
    expires_seconds: float | None = None,
) -> None:
    """Append a message to the table's stream without waiting for the answer (a report, such as a connection change,
    whose sender has nobody to tell). It expires after ``expires_seconds`` (default ``settings.TABLE_REPLY_SECONDS``)
    unread; the owner's answer goes to a reply key nobody reads, which expires."""
    wait = float(settings.TABLE_REPLY_SECONDS if expires_seconds is None else expires_seconds)
    _message_append(table_id, user_id, message_type, fields, expires_seconds=wait)


def _message_append(
    table_id: int, user_id: int | None, message_type: str, fields: dict[str, Any], *, expires_seconds: float
) -> InboxMessage:
    """Append a new message (:func:`_message_new`) to the table's stream."""
    message = _message_new(table_id, user_id, message_type, fields, expires_seconds=expires_seconds)
    entry: Any = message.encoded()
    waiting_client().xadd(stream_key(table_id), entry, maxlen=STREAM_MAXIMUM_LENGTH, approximate=True)
    return message


def _message_new(
    table_id: int, user_id: int | None, message_type: str, fields: dict[str, Any], *, expires_seconds: float
) -> InboxMessage:
    """A new message with its own request id, expiring ``expires_seconds`` from now."""
    return InboxMessage(
        table_id=int(table_id),
        request_id=uuid.uuid4().hex,
        user_id=user_id,
        message_type=message_type,
        fields=fields,
        expires_at=time.time() + expires_seconds,
    )


def tables_owned(table_ids: Iterable[int], client: redis.Redis | None = None) -> set[int]:
    """Which of ``table_ids`` have a live owner now (a lease that has not expired)."""
    ids = [int(table_id) for table_id in table_ids]
    if not ids:
        return set()
    store = lease_store(client)
    owners = (client if client is not None else waiting_client()).mget([store.owner_key(table_id) for table_id in ids])
    return {table_id for table_id, owner in zip(ids, owners, strict=True) if owner is not None}


def actors_play_the_tables() -> bool:
    """Whether table actors play the tables (``settings.TABLE_ACTORS``), not the per-action durable path."""
    return bool(settings.TABLE_ACTORS)
