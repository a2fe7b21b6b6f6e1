"""The events of a hand held in memory by its table's actor, kept in Redis while the hand runs (issue 27, step 4 of
docs/runtime-design.md, §2.1 "Resync").

A table actor (``games.runtime.actor``) writes a hand's events to PostgreSQL only when the hand ends. Until then they
live here, so that any web process answers a resync or a snapshot from the durable rows plus this log, without
asking the owner. Two keys per table, under ``settings.REDIS_KEY_PREFIX``:

* ``<prefix>:table:<id>:events`` — a list, one entry per event in sequence order (:func:`hand_log_append`);
* ``<prefix>:table:<id>:events:last`` — the last sequence number handed out at the table while a hand is held in
  memory, by the log or by a durable append meanwhile (:func:`hand_log_reserve`).

Contracts:

* **Numbering.** Every number is handed out by one Redis script: the next is ``max(last handed out, floor) + 1``,
  where ``floor`` is the table's durable ``last_sequence`` as the caller knows it. So the hand's events get exactly
  the numbers the per-action durable path would have given them, and a durable append made at the table while the
  hand runs (a seat change, a chat line, a cancellation: ``games.runtime.events.events_append`` reserves when
  ``Table.hand_held_in_memory`` is set) is numbered above everything clients saw from the log, never reusing one.
  ``hand_end`` writes the logged events at the numbers they were published with.
* **Reading.** :func:`hand_log_rows_after` returns the logged events after a sequence as unsaved ``HandEvent`` rows
  (``views.event_view`` makes each viewer's view of them, so hole cards stay private to their owner). Readers merge
  them with the durable rows, the durable row winning where both hold a number (after the hand-end commit and
  before the log is cleared, both hold the same event). Read the log *before* the durable rows: an event that
  leaves the log has been committed first.
* **Clearing.** :func:`hand_log_clear` runs after the transaction that wrote the hand (its end, or its cancellation)
  committed: it drops the entries up to the last sequence that transaction wrote, and the counter when nothing above
  it was handed out. Entries a crashed process left behind at or below the durable ``last_sequence`` are also dropped
  by the next :func:`hand_log_append` (they are durable or were cancelled).
* Both keys expire :data:`EXPIRY_MILLISECONDS` after their last write: a guard against a leak, never reached by a
  hand in play (its clock moves every few seconds).
* **Fencing.** An owner's append carries its epoch (``games.runtime.leases``) and the script refuses it, appending
  and numbering nothing, once the table's epoch in Redis is later: an owner paused past its lease that wakes up after
  another process took the table over (and cancelled its hand) can neither publish that hand's events nor leave them
  in the log among its successor's (:class:`~games.runtime.errors.OwnershipLost`). Without an epoch in Redis (never
  acquired, or Redis flushed) the append goes ahead: the hand's end is fenced in PostgreSQL either way.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from django.conf import settings
from django.utils.dateparse import parse_datetime

from games.models import HandEvent
from games.runtime.errors import OwnershipLost
from games.runtime.inbox import Answer, table_epoch_key
from poker_site.core.redis_clients import blocking_client

if TYPE_CHECKING:
    import redis
    import redis.asyncio as redis_asyncio

    from games.runtime.events import NewEvent

EXPIRY_MILLISECONDS: Final[int] = 24 * 60 * 60 * 1000
"""How long a table's log and counter outlive their last write."""

# Entries are "<sequence> <json>": the scripts read the number without decoding the event.
_DROP_HEAD = """
local function drop_through(key, through)
  while true do
    local head = redis.call('LINDEX', key, 0)
    if not head or tonumber(string.match(head, '^(%d+)')) > through then
      return
    end
    redis.call('LPOP', key)
  end
end
"""

# The fence and the numbered append, shared by both append scripts: KEYS[1..3] the log, the counter and the table's
# epoch; ARGV[1..3] the floor, the expiry and the owner's epoch ('' unfenced); the entries from ARGV[first_entry].
# A refusal returns -1 - the table's epoch and changes nothing.
_APPEND_FUNCTION = (
    _DROP_HEAD
    + """
local function append(first_entry)
  if ARGV[3] ~= '' then
    local current = tonumber(redis.call('GET', KEYS[3]) or '0')
    if current > tonumber(ARGV[3]) then return -1 - current end
  end
  local floor = tonumber(ARGV[1])
  local last = tonumber(redis.call('GET', KEYS[2]) or '0')
  drop_through(KEYS[1], floor)
  if floor > last then last = floor end
  local first = last + 1
  for index = first_entry, #ARGV do
    last = last + 1
    redis.call('RPUSH', KEYS[1], last .. ' ' .. ARGV[index])
  end
  redis.call('SET', KEYS[2], last, 'PX', ARGV[2])
  if #ARGV >= first_entry then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
  return first
end
"""
)

_APPEND = (
    _APPEND_FUNCTION
    + """
return append(4)
"""
)

# Also KEYS[4] the reply list and KEYS[5] the inbox stream; ARGV[4] the first number the broadcast in ARGV[6] was
# made for ('' none) and ARGV[5] its channel, ARGV[7] the reply ('' none), ARGV[8] how long it is kept (seconds),
# ARGV[9] the stream's group and ARGV[10] the entry answered; the entries from ARGV[11]. Returns {first, 1 when the
# broadcast went out}; a refusal sends and answers nothing.
_APPEND_PUBLISH_ANSWER = (
    _APPEND_FUNCTION
    + """
local first = append(11)
if first < 0 then return {first, 0} end
local published = 0
if ARGV[4] ~= '' and tonumber(ARGV[4]) == first then
  redis.call('PUBLISH', ARGV[5], ARGV[6])
  published = 1
end
if ARGV[7] ~= '' then
  redis.call('RPUSH', KEYS[4], ARGV[7])
  redis.call('EXPIRE', KEYS[4], ARGV[8])
  redis.call('XACK', KEYS[5], ARGV[9], ARGV[10])
end
return {first, published}
"""
)

_RESERVE = """
local floor = tonumber(ARGV[1])
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
if floor > last then last = floor end
redis.call('SET', KEYS[1], last + tonumber(ARGV[2]), 'PX', ARGV[3])
return last + 1
"""

_CLEAR = (
    _DROP_HEAD
    + """
local through = tonumber(ARGV[1])
drop_through(KEYS[1], through)
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
if last <= through then redis.call('DEL', KEYS[2]) end
return redis.call('LLEN', KEYS[1])
"""
)

_scripts: dict[tuple[int, str], Any] = {}


def _script(source: str, client: redis.Redis | redis_asyncio.Redis | None = None) -> Any:
    """``source`` registered with ``client`` (default: the process's blocking client), once per client."""
    if client is None:
        client = blocking_client()
    key = (id(client), source)
    script = _scripts.get(key)
    if script is None:
        script = _scripts[key] = client.register_script(source)
    return script


def log_key(table_id: int) -> str:
    """The Redis list of the events of table ``table_id``'s hand held in memory."""
    return f"{settings.REDIS_KEY_PREFIX}:table:{int(table_id)}:events"


def counter_key(table_id: int) -> str:
    """The last sequence number handed out at table ``table_id`` while a hand is held in memory."""
    return f"{log_key(table_id)}:last"


def _entry(event: NewEvent, now: datetime) -> str:
    return json.dumps(
        {
            "kind": event.kind,
            "payload": event.payload,
            "hand_id": event.hand.pk if event.hand is not None else None,
            "audience": event.audience,
            "private_to_seat": event.private_to_seat,
            "private_to_user_id": event.private_to_user_id,
            "created_at": now.isoformat(),
        },
        separators=(",", ":"),
    )


def _row(table_id: int, sequence: int, data: dict[str, Any]) -> HandEvent:
    created_at = parse_datetime(data["created_at"])
    assert created_at is not None
    return HandEvent(
        table_id=table_id,
        hand_id=data["hand_id"],
        sequence=sequence,
        kind=data["kind"],
        payload=data["payload"],
        audience=data["audience"],
        private_to_seat=data["private_to_seat"],
        private_to_user_id=data["private_to_user_id"],
        created_at=created_at,
    )


@dataclass(frozen=True, slots=True)
class LoggedEvent:
    """One event just logged, as its broadcast reads it: the attributes of an unsaved ``HandEvent`` row that
    ``views.event_view`` reads, without a model instance (a model's ``__init__`` per event cost four times this)."""

    table_id: int
    hand_id: int | None
    sequence: int
    kind: str
    payload: dict[str, Any]
    audience: str
    private_to_seat: int | None
    private_to_user_id: int | None
    created_at: datetime


@dataclass(frozen=True)
class _Append:
    """One append's script call (keys and arguments) and what turns its answer into rows."""

    table_id: int
    keys: list[str]
    args: list[Any]
    entries: list[str]
    owner_epoch: int | None
    now: datetime

    def rows(self, answer: Any) -> list[LoggedEvent]:
        first = int(answer)
        if first < 0:
            assert self.owner_epoch is not None
            raise OwnershipLost(self.table_id, int(self.owner_epoch), -1 - first)
        return self.rows_from(first)

    def rows_from(self, first: int) -> list[LoggedEvent]:
        """The rows of the entries numbered from ``first``."""
        rows = []
        for offset, entry in enumerate(self.entries):
            # Read back from the entry as a reader of the log reads it (JSON's lists, not tuples).
            data = json.loads(entry)
            rows.append(
                LoggedEvent(
                    self.table_id,
                    data["hand_id"],
                    first + offset,
                    data["kind"],
                    data["payload"],
                    data["audience"],
                    data["private_to_seat"],
                    data["private_to_user_id"],
                    self.now,
                )
            )
        return rows


def _append(table_id: int, floor: int, events: Sequence[NewEvent], now: datetime, owner_epoch: int | None) -> _Append:
    entries = [_entry(event, now) for event in events]
    fence = "" if owner_epoch is None else int(owner_epoch)
    return _Append(
        table_id,
        [log_key(table_id), counter_key(table_id), table_epoch_key(table_id)],
        [floor, EXPIRY_MILLISECONDS, fence, *entries],
        entries,
        owner_epoch,
        now,
    )


def hand_log_append(
    table_id: int, floor: int, events: Sequence[NewEvent], now: datetime, *, owner_epoch: int | None = None
) -> list[LoggedEvent]:
    """Append ``events`` (one applied message's, in order) to the table's log, numbered from
    ``max(last handed out, floor) + 1``; return them as :class:`LoggedEvent` rows (the fields of the ``HandEvent``
    rows the durable path would write: ``sequence`` set, ``created_at`` = ``now``). ``floor``: the table's durable
    ``last_sequence`` as the caller knows it. Entries left at or below ``floor`` (a crashed owner's, durable or
    cancelled since) are dropped first.
    ``owner_epoch``: the appending owner's fencing token; :class:`~games.runtime.errors.OwnershipLost`, and nothing
    appended, when a later owner has acquired the table since (None: unfenced, in-process use)."""
    if not events:
        return []
    append = _append(table_id, floor, events, now, owner_epoch)
    return append.rows(_script(_APPEND)(keys=append.keys, args=append.args))


async def hand_log_append_async(
    client: redis_asyncio.Redis,
    table_id: int,
    floor: int,
    events: Sequence[NewEvent],
    now: datetime,
    *,
    owner_epoch: int | None = None,
) -> list[LoggedEvent]:
    """:func:`hand_log_append` through the asynchronous ``client``, for a caller on an event loop (a table owner
    applying an action to the hand it holds: no thread between the action and its log). Same script, same contract."""
    if not events:
        return []
    append = _append(table_id, floor, events, now, owner_epoch)
    return append.rows(await _script(_APPEND, client)(keys=append.keys, args=append.args))


@dataclass(frozen=True, slots=True)
class Sent:
    """What :func:`hand_log_append_and_send_async` did besides logging: the logged ``rows``, whether the broadcast
    made for them went out with them (``broadcast_sent``) and whether the answer did (``answered``)."""

    rows: list[LoggedEvent]
    broadcast_sent: bool
    answered: bool


async def hand_log_append_and_send_async(
    client: redis_asyncio.Redis,
    table_id: int,
    floor: int,
    events: Sequence[NewEvent],
    now: datetime,
    *,
    expected_first: int,
    broadcast: Callable[[list[LoggedEvent]], tuple[str, str] | None] | None,
    answer: Answer | None,
    owner_epoch: int | None = None,
) -> Sent:
    """:func:`hand_log_append_async` with the rest of an action's Redis work in the same round trip (issue 27: one
    script call per action instead of the append, the publish and the reply each on its own):

    * ``broadcast`` makes the message for the events numbered from ``expected_first`` (the number the caller expects
      the log to hand out next), as ``(channel, message)``; it is published by the append's script only when the log
      numbers them so (a number handed out meanwhile, by a durable append at the table, makes it wrong: then it is
      not sent, ``broadcast_sent`` is False, and the caller publishes the rows as numbered). None: no broadcast.
    * ``answer`` (the reply to the message whose events these are, and the ``XACK`` of its entry) is sent once the
      events are logged; None: none.

    A refused append (``OwnershipLost``) logs, publishes and answers nothing, as :func:`hand_log_append_async`."""
    if not events:
        return Sent([], False, False)
    append = _append(table_id, floor, events, now, owner_epoch)
    expected: list[LoggedEvent] | None = None
    channel_and_message: tuple[str, str] | None = None
    if broadcast is not None:
        expected = append.rows_from(expected_first)
        channel_and_message = broadcast(expected)
    channel, message = channel_and_message if channel_and_message is not None else ("", "")
    keys = [*append.keys, answer.reply_key if answer else "", answer.stream_key if answer else ""]
    arguments = [
        *append.args[:3],
        expected_first if channel_and_message is not None else "",
        channel,
        message,
        answer.reply if answer else "",
        answer.keep_seconds if answer else 0,
        answer.group if answer else "",
        answer.entry_id if answer else "",
        *append.entries,
    ]
    first, published = await _script(_APPEND_PUBLISH_ANSWER, client)(keys=keys, args=arguments)
    if published and expected is not None:
        return Sent(expected, True, answer is not None)  # numbered as expected: the rows the broadcast was made from
    return Sent(append.rows(first), False, answer is not None)  # append.rows raises OwnershipLost for a refusal


def hand_log_reserve(table_id: int, floor: int, count: int) -> int:
    """Hand out ``count`` numbers for a durable append at a table whose hand is held in memory, above everything the
    log or an earlier reservation handed out and above ``floor`` (the locked table's ``last_sequence``); return the
    first. A transaction that rolls back leaves its numbers unused: clients see a gap and resynchronise."""
    if count < 1:
        raise ValueError("reserve at least one number")
    return int(_script(_RESERVE)(keys=[counter_key(table_id)], args=[floor, count, EXPIRY_MILLISECONDS]))


def hand_log_rows_after(table_id: int, sequence: int) -> list[HandEvent]:
    """The logged events of the table with a number above ``sequence``, in order, as unsaved ``HandEvent`` rows."""
    rows = []
    entries: list[bytes] = blocking_client().lrange(log_key(table_id), 0, -1)  # type: ignore[assignment]
    for entry in entries:
        number, data = entry.split(b" ", 1)
        if int(number) > sequence:
            rows.append(_row(table_id, int(number), json.loads(data)))
    return rows


def hand_log_clear(table_id: int, through: int) -> int:
    """After the transaction that wrote the held hand's end (or its cancellation) committed, with ``through`` the last
    sequence it wrote: drop the logged entries up to ``through`` and the counter when nothing above ``through`` was
    handed out. Returns how many entries are left (0 unless a newer hand's events were appended meanwhile)."""
    return int(_script(_CLEAR)(keys=[log_key(table_id), counter_key(table_id)], args=[through]))
