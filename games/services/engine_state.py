"""The engine state of a hand, rebuilt from its stored configuration and event log (games.engine.state.replay).

Services that change a hand under its table's lock may take the state from a small in-process cache instead of
replaying the log (:func:`hand_engine_state_to_change` / :func:`hand_engine_state_remember`). The database stays the
source of truth: an entry is used only when it was stored after a commit that left the table at exactly the
``last_sequence`` (and the hand at exactly the ``version``, deck and configuration) the locked rows show now. Every
append to a table's log advances ``last_sequence``, so a change made meanwhile by any process (or a rolled-back one,
which never stores anything) makes the entry miss and the log is replayed.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from django.db import transaction

from games.engine.config import HandConfig
from games.engine.events import EVENT_TYPES
from games.engine.state import HandState, replay
from games.models import CashTable, Hand, HandEvent
from games.services.events import engine_event_from_row

ENGINE_EVENT_KINDS = frozenset(EVENT_TYPES)

CACHED_HANDS_LIMIT = 2048
"""How many running hands' states one process keeps (least recently stored dropped first)."""


def hand_engine_state(hand: Hand) -> HandState:
    """Replay ``hand``'s engine events on its configuration; raises ``ReplayMismatch`` if the log was tampered with."""
    rows = HandEvent.objects.filter(hand=hand, kind__in=ENGINE_EVENT_KINDS).order_by("sequence")
    return replay(HandConfig.from_dict(hand.config), [engine_event_from_row(row) for row in rows])


@dataclass(frozen=True)
class _Entry:
    table_sequence: int
    hand_version: int
    deck: tuple[str, ...]
    state: HandState


_entries: OrderedDict[int, _Entry] = OrderedDict()
_entries_lock = threading.Lock()


def hand_engine_state_to_change(hand: Hand, table: CashTable) -> HandState:
    """The engine state of ``hand`` for a service that holds ``table`` locked and may change the hand.

    The cached state is taken out of the cache (the caller owns it and may mutate it; if its transaction rolls back
    nothing is put back) when it matches the locked rows exactly; otherwise the log is replayed.
    """
    with _entries_lock:
        entry = _entries.pop(hand.pk, None)
    if (
        entry is not None
        and entry.table_sequence == table.last_sequence
        and entry.hand_version == hand.version
        and entry.deck == tuple(hand.deck)
    ):
        return entry.state
    return hand_engine_state(hand)


def hand_engine_state_remember(hand: Hand, table: CashTable, state: HandState) -> None:
    """After the current transaction commits, keep ``state`` (the state after this transaction's events, which have
    been appended: ``table.last_sequence`` is the last of them) for the next change of a running hand."""
    if state.is_complete:
        return
    entry = _Entry(table.last_sequence, hand.version, tuple(hand.deck), state)
    hand_id = hand.pk

    def store() -> None:
        with _entries_lock:
            _entries[hand_id] = entry
            _entries.move_to_end(hand_id)
            while len(_entries) > CACHED_HANDS_LIMIT:
                _entries.popitem(last=False)

    transaction.on_commit(store)
