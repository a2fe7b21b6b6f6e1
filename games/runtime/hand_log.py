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
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from django.conf import settings
from django.utils.dateparse import parse_datetime

from games.models import HandEvent
from games.runtime.errors import OwnershipLost
from games.runtime.inbox import table_epoch_key
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

# ARGV: floor, expiry, the owner's epoch ('' unfenced), the entries. A refusal returns -1 - the table's epoch.
_APPEND = (
    _DROP_HEAD
    + """
if ARGV[3] ~= '' then
  local current = tonumber(redis.call('GET', KEYS[3]) or '0')
  if current > tonumber(ARGV[3]) then return -1 - current end
end
local floor = tonumber(ARGV[1])
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
drop_through(KEYS[1], floor)
if floor > last then last = floor end
local first = last + 1
for index = 4, #ARGV do
  last = last + 1
  redis.call('RPUSH', KEYS[1], last .. ' ' .. ARGV[index])
end
redis.call('SET', KEYS[2], last, 'PX', ARGV[2])
if #ARGV >= 4 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return first
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
