"""The ``cash_tables`` ticker handler: advances every persisted cash-table deadline (architecture rule 5).

Each tick, in order: (once per ticker process) cancel hands a crash left unfinished (CASH-23/24); run out the action
clocks whose deadline passed (TB-04, TB-07, CASH-22), cancelling a hand whose clock keeps failing (CASH-23); remove
players whose sit-out limit passed (CASH-17, CASH-20); seat queued players (CASH-05); deal at tables whose pause between
hands is over (CASH-06). Every step re-checks its deadline under the table lock, so running a tick twice, or in two
ticker processes, has the effect of running it once.

With table actors (``settings.TABLE_ACTORS``), a table with a live owner (``games.runtime.owner``) is dealt and its
action clocks run by its owner: the ticker skips its hand clocks, its hand starts and (at start-up) its hand in
progress; while any runtime process is alive it deals at no table at all (a table without an owner is about to be
claimed: a new one, or a dead owner's before its takeover, which would cancel a hand the ticker had dealt). It keeps
the deadlines that must survive a crash (sit-out limits, the seating queues; levels, breaks and scheduled starts are
the tournaments' ticker handlers').
"""

from __future__ import annotations

import logging
import sys
from datetime import datetime, timedelta

from games.models import Hand, HandStatus, Seat, SeatStatus, Table, TableStatus
from games.runtime import inbox
from games.runtime.hands import hand_start, hand_timeout
from games.runtime.policy import policies
from games.runtime.recovery import SERVER_ERROR_REASON, hand_cancel, hands_recover_unfinished
from games.runtime.sitting_out import seat_sit_out_expire
from poker_site.core.prepared_queries import PreparedQuery
from poker_site.core.ticker import register

logger = logging.getLogger(__name__)

startup_recovery_pending = len(sys.argv) > 1 and sys.argv[1] == "run_ticker"
"""True in the ``manage.py run_ticker`` process until its first tick has recovered unfinished hands. The ticker starts
with the site, or after the previous ticker died (the launcher restarts it), so any hand running then was cut off by
a crash (CASH-24). Elsewhere (web workers, tests, shells) recovery is only run explicitly (``manage.py
hands_recover``)."""


def _each(label: str, ids: list[int], step: object, now: datetime) -> int:
    advanced = 0
    for item_id in ids:
        try:
            advanced += bool(step(item_id, now=now))  # type: ignore[operator]
        except Exception:
            logger.exception("cash_tables: %s %s failed", label, item_id)
    return advanced


FAILING_HAND_GRACE = timedelta(seconds=30)
"""How long past its deadline a hand whose clock keeps failing is retried before it is cancelled (CASH-23). A passing
fault (a dropped connection, a deadlock victim) is retried on the next ticks; one that lasts this long would freeze
the table with every stack on it."""


def _hand_clock(hand_id: int, *, now: datetime) -> bool:
    """Run out the clock of hand ``hand_id``; when that fails and the deadline is :data:`FAILING_HAND_GRACE` past,
    cancel the hand (CASH-23: a server error prevents it from finishing; the stacks go back to their start-of-hand
    amounts, no money having moved) and re-raise for the log."""
    try:
        return hand_timeout(hand_id, now=now)
    except Exception:
        running = Hand.objects.filter(pk=hand_id, status=HandStatus.RUNNING)
        overdue_since = running.values_list("action_deadline", flat=True).first()
        if (
            overdue_since is not None
            and now - overdue_since >= FAILING_HAND_GRACE
            and hand_cancel(hand_id, reason=SERVER_ERROR_REASON, now=now)
        ):
            logger.error("cash_tables: hand %s cancelled: its clock failed for %s", hand_id, now - overdue_since)
        raise


def _table_start(table_id: int, *, now: datetime) -> bool:
    table = Table.objects.get(pk=table_id)
    return hand_start(table, now=now) is not None


def _tables_with_an_owner(table_ids: list[int]) -> set[int]:
    """With table actors on (``settings.TABLE_ACTORS``), the tables among ``table_ids`` that a runtime process owns
    (``games.runtime.owner``): their hands are dealt and their action clocks run by the owner, in memory (the hand's
    row keeps its start-of-hand deadline), so the ticker leaves both alone. Off: none."""
    if not table_ids or not inbox.actors_play_the_tables():
        return set()
    return inbox.tables_owned(table_ids)


# The ticker asks these several times a second: compiled once (poker_site.core.prepared_queries).
_HANDS_DUE = PreparedQuery(
    lambda now: (
        Hand.objects.filter(status=HandStatus.RUNNING, action_deadline__lte=now)
        .order_by("action_deadline", "pk")
        .values_list("pk", "table_id")
    ),
    ["now"],
)
_SIT_OUTS_DUE = PreparedQuery(
    lambda now: (
        Seat.objects.filter(status=SeatStatus.SITTING_OUT, sit_out_deadline__lte=now)
        .order_by("table_id", "pk")
        .values_list("pk", flat=True)
    ),
    ["now"],
)
_DEALS_DUE = PreparedQuery(
    lambda now: (
        Table.objects.filter(status=TableStatus.OPEN, current_hand__isnull=True, next_hand_at__lte=now)
        .order_by("next_hand_at", "pk")
        .values_list("pk", flat=True)
    ),
    ["now"],
)


@register("cash_tables")
def cash_tables_tick(now: datetime) -> int:
    """Advance every cash-table deadline that has passed at ``now``; return how many were advanced."""
    global startup_recovery_pending
    advanced = 0
    if startup_recovery_pending:
        cancelled = hands_recover_unfinished(now=now)
        if cancelled:
            logger.warning("cash_tables: cancelled %d hands left unfinished by a crash: %s", len(cancelled), cancelled)
        advanced += len(cancelled)
        startup_recovery_pending = False
    due_hands = _HANDS_DUE.rows(now=now)
    owned = _tables_with_an_owner([table_id for _hand_id, table_id in due_hands])
    hands = [hand_id for hand_id, table_id in due_hands if table_id not in owned]
    advanced += _each("hand clock", hands, _hand_clock, now)
    seats = [seat_id for (seat_id,) in _SIT_OUTS_DUE.rows(now=now)]
    advanced += _each("sit-out limit", seats, seat_sit_out_expire, now)
    for policy in policies():  # the products' queues (cash: the stakes' seating queues, CASH-05)
        try:
            advanced += policy.seat_waiting_players(now)
        except Exception:
            logger.exception("cash_tables: seating the %s tables' waiting players failed", policy.kind)
    tables = [table_id for (table_id,) in _DEALS_DUE.rows(now=now)]
    if tables and _owners_deal():
        return advanced
    owned = _tables_with_an_owner(tables)
    advanced += _each("hand start", [table_id for table_id in tables if table_id not in owned], _table_start, now)
    return advanced


def _owners_deal() -> bool:
    """With table actors on, whether a runtime process is alive (its heartbeat has not expired): then every open table
    is dealt by its owner, present or about to claim it within a scan or a lease. A table left without an owner (a new
    table, or a dead owner's before its lease expires) that the ticker dealt at would have that hand cancelled by the
    takeover (CASH-23) a moment later. With no runtime process alive the ticker deals as without actors."""
    if not inbox.actors_play_the_tables():
        return False
    return bool(inbox.lease_store().live_processes())
