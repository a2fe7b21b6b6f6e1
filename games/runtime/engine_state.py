"""The engine state of a hand, rebuilt from its stored configuration and event log (games.engine.state.replay).

Services that change a hand under its table's lock may take the state from a small in-process cache instead of
replaying the log (:func:`hand_engine_state_to_change` / :func:`hand_engine_state_remember`). The database stays the
source of truth: an entry is used only when it was stored after a commit that left the table at exactly the
``last_sequence`` (and the hand at exactly the ``version``, deck and configuration) the locked rows show now. Every
append to a table's log advances ``last_sequence``, so a change made meanwhile by any process (or a rolled-back one,
which never stores anything) makes the entry miss and the log is replayed.

Within one transaction (several changes of a hand before the commit: a test's transaction, a service calling services)
the state a change left is reused by the next change of the same transaction, on the same connection, while the
change that left it still stands: it is kept with the ``transaction.on_commit`` callback that would store it, and that
callback is still in the connection's list only while neither its savepoint nor the transaction was rolled back (Django
drops the callbacks of a rolled-back savepoint from the list, and empties the list at a commit or rollback). A state
of a rolled-back change is therefore never served, whatever the rows say.
"""

from __future__ import annotations

import contextlib
import copy
import json
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.db import connections, router, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field

from games.engine.config import HandConfig
from games.engine.events import EVENT_TYPES, Event
from games.engine.state import HandState, replay
from games.models import Hand, HandEvent, Table
from games.runtime.events import engine_event_from_stored
from poker_site.core.strict_input import LARGEST_INTEGER

ENGINE_EVENT_KINDS = frozenset(EVENT_TYPES)

CACHED_HANDS_LIMIT = 2048
"""How many running hands' states one process keeps (least recently stored dropped first)."""


_held_states: ContextVar[dict[int, HandState] | None] = ContextVar("held_hand_states", default=None)


@contextlib.contextmanager
def hand_states_held(states: dict[int, HandState]) -> Iterator[None]:
    """While the block runs (in this thread / context), :func:`hand_engine_state` of a hand in ``states`` (by hand id)
    is a copy of the state given there: a table owner runs a durable service during a hand it holds in memory, whose
    durable log holds only the deal (a top-up checked against the stack behind now, CASH-15)."""
    token = _held_states.set(states)
    try:
        yield
    finally:
        _held_states.reset(token)


def hand_engine_state(hand: Hand) -> HandState:
    """Replay ``hand``'s engine events on its configuration; raises ``ReplayMismatch`` if the log was tampered with.
    A hand its table owner holds in memory while it runs a service (:func:`hand_states_held`) is a copy of that
    state (a reader cannot change the held one)."""
    held = _held_states.get()
    if held is not None and hand.pk in held:
        return copy.deepcopy(held[hand.pk])
    return replay(HandConfig.from_dict(hand.config), hand_engine_events(hand.pk))


_engine_events_statements: dict[str, str] = {}


def hand_engine_events(hand_id: int, *, through_sequence: int | None = None) -> list[Event]:
    """The engine events in hand ``hand_id``'s log, in order: what
    ``HandEvent.objects.filter(hand=..., kind__in=ENGINE_EVENT_KINDS).order_by("sequence")`` holds, read as the two
    columns an engine event is made of. ``through_sequence``: only the rows numbered up to it.

    Why not the queryset: a hand replayed on an action is read again each time, and building a model instance (with
    every column, timestamps parsed) per stored event was most of the cost of a replay (measured: 10 % of a web
    process's interpreter time in the closed-loop benchmark, against 1 % for the replay itself).
    """
    alias = router.db_for_read(HandEvent)
    connection = connections[alias]
    sql = _engine_events_statements.get(alias)
    if sql is None:
        quote = connection.ops.quote_name
        columns: dict[str, str] = {}
        for name in ("hand", "kind", "payload", "sequence"):
            field = HandEvent._meta.get_field(name)
            assert isinstance(field, Field)
            assert field.column is not None
            columns[name] = quote(field.column)
        sql = _engine_events_statements[alias] = (
            f"SELECT {columns['kind']}, {columns['payload']} FROM {quote(HandEvent._meta.db_table)}"
            f" WHERE {columns['hand']} = %s AND {columns['kind']} = ANY(%s) AND {columns['sequence']} <= %s"
            f" ORDER BY {columns['sequence']}"
        )
    with connection.cursor() as cursor:
        # No bound is the largest a bigint column holds: one statement either way (prepared once per connection).
        bound = LARGEST_INTEGER if through_sequence is None else through_sequence
        cursor.execute(sql, [hand_id, sorted(ENGINE_EVENT_KINDS), bound])
        rows: Sequence[tuple[str, Any]] = cursor.fetchall()
    # Django reads jsonb as text (its JSONField decodes it); a connection configured otherwise hands over the value.
    return [
        engine_event_from_stored(kind, json.loads(payload) if isinstance(payload, str) else payload)
        for kind, payload in rows
    ]


@dataclass(frozen=True)
class _Entry:
    table_sequence: int
    hand_version: int
    deck: tuple[str, ...]
    state: HandState


_entries: OrderedDict[int, _Entry] = OrderedDict()
_entries_lock = threading.Lock()


class _Pending:
    """A state remembered inside a transaction that has not committed yet: ``store`` (its ``on_commit`` callback) puts
    ``entry`` in the cache at the commit unless a later change of the same transaction took the state (and mutated
    it) first."""

    __slots__ = ("entry", "store", "taken")

    def __init__(self, entry: _Entry, store: Callable[[], None]) -> None:
        self.entry = entry
        self.store = store
        self.taken = False


_pending: weakref.WeakKeyDictionary[BaseDatabaseWrapper, OrderedDict[int, _Pending]] = weakref.WeakKeyDictionary()
"""Per connection (so per thread), the states its open transaction remembered, by hand id (a commit moves them to the
cache; those of a rolled-back transaction are dead, dropped when looked up or when more than ``CACHED_HANDS_LIMIT``
are kept)."""


def _pending_take(hand_id: int) -> _Entry | None:
    """The state the current transaction of this thread's connection left for ``hand_id``, taken (no other change
    gets it, and its commit callback stores nothing), if the change that left it was not rolled back: its callback
    is still in the connection's ``run_on_commit`` list."""
    connection = transaction.get_connection()
    with _entries_lock:
        kept = _pending.get(connection)
        pending = kept.pop(hand_id, None) if kept is not None else None
    if pending is None or pending.taken or not connection.in_atomic_block:
        return None
    # Searched from the end: the hand's last change is usually among the last callbacks.
    if not any(callback is pending.store for _, callback, _ in reversed(connection.run_on_commit)):
        return None
    pending.taken = True
    return pending.entry


def hand_engine_state_to_change(hand: Hand, table: Table) -> HandState:
    """The engine state of ``hand`` for a service that holds ``table`` locked and may change the hand.

    The state is taken out of the cache (the caller owns it and may mutate it; if its transaction rolls back
    nothing is put back) when it matches the locked rows exactly: the state an earlier change of this same transaction
    left (if that change was not rolled back), else the one the last commit left; otherwise the log is replayed.
    """
    with _entries_lock:
        entry = _entries.pop(hand.pk, None)
    entry = _pending_take(hand.pk) or entry
    if (
        entry is not None
        and entry.table_sequence == table.last_sequence
        and entry.hand_version == hand.version
        and entry.deck == tuple(hand.deck)
    ):
        return entry.state
    return hand_engine_state(hand)


def hand_engine_state_remember(hand: Hand, table: Table, state: HandState) -> None:
    """After the current transaction commits, keep ``state`` (the state after this transaction's events, which have
    been appended: ``table.last_sequence`` is the last of them) for the next change of a running hand; until then a
    later change of the hand in the same transaction may take it (:func:`hand_engine_state_to_change`)."""
    if state.is_complete:
        return
    entry = _Entry(table.last_sequence, hand.version, tuple(hand.deck), state)
    hand_id = hand.pk

    def store() -> None:
        # The connection is looked up, not held: a callback held by ``_pending`` must not keep its key alive.
        with _entries_lock:
            kept = _pending.get(transaction.get_connection())
            if kept is not None and kept.get(hand_id) is pending:
                del kept[hand_id]
            if pending.taken:
                return
            _entries[hand_id] = entry
            _entries.move_to_end(hand_id)
            while len(_entries) > CACHED_HANDS_LIMIT:
                _entries.popitem(last=False)

    pending = _Pending(entry, store)
    connection = transaction.get_connection()
    if connection.in_atomic_block:
        with _entries_lock:
            kept = _pending.setdefault(connection, OrderedDict())
            kept[hand_id] = pending
            kept.move_to_end(hand_id)
            while len(kept) > CACHED_HANDS_LIMIT:
                kept.popitem(last=False)
    transaction.on_commit(store)
