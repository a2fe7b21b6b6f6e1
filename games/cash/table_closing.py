"""Closing a cash table from the back office (LOB-08): every player is cashed out and the table closes for good.

Between hands the table closes at once. While a hand is in play it closes when that hand ends: the table-wide form of a
player's ``leave_after_hand`` (CASH-08). The hand plays out and settles as usual (or support cancels it with
``hand_cancel``, CASH-23), and then ``between_hands`` cashes everyone out and closes the table instead of pausing
before the next hand. From the moment closing is asked for nobody new sits down (``seat_take``, the seating queue) and
the table leaves the lobby, so the hand in play is the last one.

The waiting list (``SeatingRequest``) belongs to a stake, not to a table: there is nothing per table to clear, and
queued players go on waiting for the other open tables of the stake.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.cash.cashier import seat_vacate
from games.models import Hand, HandStatus, LeaveReason, Seat, StakeTerms, Table, TableKind, TableStatus
from games.runtime.errors import NotAllowedNow, ReasonRequired
from games.runtime.events import NewEvent, events_append
from games.runtime.locking import seats_lock, table_lock, table_terms
from games.runtime.seat_state import table_touch

REASON_LENGTH = Table._meta.get_field("close_reason").max_length or 300
"""The longest reason kept (the column's length); a longer one is cut."""


@transaction.atomic(durable=True)
def table_close(table: Table, *, reason: str, now: datetime | None = None) -> Table:
    """Close ``table`` for ``reason`` (recorded on the table; the players are told it in the closing events).

    Between hands every occupied seat is vacated with ``LeaveReason.TABLE_CLOSED``: the stack goes back to the
    player's cash account through the wallet, as when a player leaves (CASH-08). The table's status becomes CLOSED,
    and the events ``seat_left`` (one per player) and ``table_closed`` are appended. Returns the table, closed.

    During a hand nothing is cashed out yet: the table is marked ``close_after_hand`` (event ``table_closing``) and
    closes as above when the hand ends. Returns the table, still open, with ``close_after_hand`` set.

    Refused, and nothing changes: a blank reason (:class:`ReasonRequired`), a table already closed or already closing
    (:class:`NotAllowedNow`), no such table (:class:`NotFound`).
    """
    text = reason.strip() if isinstance(reason, str) else ""
    if not text:
        raise ReasonRequired("Give the reason for closing the table.")
    moment = now or timezone.now()
    locked = table_lock(table.pk)
    if locked.kind != TableKind.CASH:
        raise NotAllowedNow(f"{locked.name} is a tournament table: the tournament opens and breaks its tables.")
    seats = seats_lock(locked)
    if locked.status != TableStatus.OPEN:
        raise NotAllowedNow(f"{locked.name} is already closed.")
    if locked.close_after_hand:
        raise NotAllowedNow(f"{locked.name} already closes when the hand in play ends.")
    hand_running = (
        locked.current_hand_id is not None
        and Hand.objects.filter(pk=locked.current_hand_id, status=HandStatus.RUNNING).exists()
    )
    if hand_running:
        table_touch(locked, close_after_hand=True, close_reason=text[:REASON_LENGTH])
        events_append(locked, [NewEvent("table_closing", {"reason": locked.close_reason})])
        return locked
    terms, _rules = table_terms(locked, moment)
    events_append(locked, table_close_locked(locked, seats, moment, terms, reason=text))
    return locked


def table_close_locked(
    table: Table, seats: dict[int, Seat], now: datetime, terms: StakeTerms, *, reason: str | None = None
) -> list[NewEvent]:
    """Cash out every occupied seat and close the table; return the events for the caller to append.

    Internal: the caller holds the table and seat locks and no hand is in play (``between_hands`` calls this when the
    hand ends at a table marked ``close_after_hand``; ``reason`` None keeps the reason given then). A player who had
    asked to leave after the hand leaves for their own reason, not the table's.
    """
    events = []
    for seat in sorted(seats.values(), key=lambda seat: seat.pk):
        if seat.session_id is None:
            continue
        leave_reason = LeaveReason.PLAYER if seat.leave_after_hand else LeaveReason.TABLE_CLOSED
        events.append(seat_vacate(seat, table, leave_reason, now, terms))
    table_touch(
        table,
        status=TableStatus.CLOSED,
        closed_at=now,
        close_after_hand=False,
        close_reason=(reason[:REASON_LENGTH] if reason is not None else table.close_reason),
        current_hand=None,
        next_hand_at=None,
    )
    events.append(NewEvent("table_closed", {"reason": table.close_reason}))
    return events
