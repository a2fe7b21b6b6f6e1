"""Connection changes reported by the table sockets (CASH-22, TB-07, AMB-10).

The realtime layer calls :func:`player_connection_lost` when a seated player's last socket to a table closes and
:func:`player_connection_restored` when one opens again. Both are idempotent and silent for users without a seat.
While disconnected, a player to act keeps the normal decision time and then gets the reconnection grace (20 s) instead
of the timebank; a timebank already running stops (what was used is gone) and the grace starts.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import ClockPhase, Hand, HandStatus, Seat, Table
from games.runtime.hands import HandContext, clock_switch, timebank_spend
from games.runtime.locking import seats_lock, table_lock
from games.runtime.policy import policy_for
from games.runtime.seat_state import seat_connection_record, seat_return
from poker_site.core.prepared_queries import PreparedQuery


def _running_hand_for_update(table: Table) -> Hand | None:
    """The locked table's running hand whose clock this service switches; None for a hand held in memory by the
    table's owner, which applies most reports to the hand it holds without this service
    (``games.runtime.play.connection_report_apply``) and otherwise runs it and switches the held hand's clock itself
    (``games.runtime.play.connection_clock_switch``)."""
    if table.current_hand_id is None or table.hand_held_in_memory:
        return None
    return (
        Hand.objects.select_for_update()
        .filter(pk=table.current_hand_id, table_id=table.pk, status=HandStatus.RUNNING)
        .first()
    )


def connection_report_may_change(table_id: int, user_id: int, *, restored: bool) -> bool:
    """Whether a connection report of ``user_id`` at ``table_id`` can change anything: the user holds a seat there
    whose recorded connection is the other way. One read without a lock or a transaction; when it says no, the
    report's service would lock the table and its seats only to return False. A change committed after this read is
    ordered after the report, as it would be had the report's service taken its locks first."""
    may_change = _SEAT_DISCONNECTED if restored else _SEAT_CONNECTED
    return bool(may_change.rows(table_id=int(table_id), user_id=int(user_id)))


def _seat_of(*, connected: bool) -> PreparedQuery:
    return PreparedQuery(
        lambda table_id, user_id: Seat.objects.filter(
            table_id=table_id, user_id=user_id, disconnected_since__isnull=connected
        ).values_list("pk")[:1],
        [],
        numbers=["table_id", "user_id"],
    )


# Every socket opened and closed at a table asks one of these: compiled once per process.
_SEAT_CONNECTED = _seat_of(connected=True)
_SEAT_DISCONNECTED = _seat_of(connected=False)


@transaction.atomic(durable=True)
def player_connection_lost(user: Any, table: Any, *, now: datetime | None = None) -> bool:
    """Record that ``user`` lost their connection to ``table``; return whether anything changed."""
    moment = now or timezone.now()
    locked = table_lock(getattr(table, "pk", table))
    seats = seats_lock(locked)
    seat = next((seat for seat in seats.values() if seat.user_id == getattr(user, "pk", None)), None)
    if seat is None or seat.disconnected_since is not None:
        return False
    context = HandContext(locked, seats, moment)
    context.events.append(seat_connection_record(seat, moment))
    hand = _running_hand_for_update(locked)
    if hand is not None and hand.acting_seat == seat.number and hand.clock_phase == ClockPhase.TIMEBANK:
        timebank_spend(context, hand)
        clock_switch(
            context,
            hand,
            ClockPhase.RECONNECT,
            moment,
            moment + timedelta(seconds=policy_for(locked).hand_rules(hand, locked).reconnect_grace_seconds),
        )
    context.commit_events()
    return True


@transaction.atomic(durable=True)
def player_connection_restored(user: Any, table: Any, *, now: datetime | None = None) -> bool:
    """Record that ``user`` is connected to ``table`` again; return whether anything changed. A player back during
    their reconnection grace continues on their timebank, if any is left."""
    moment = now or timezone.now()
    locked = table_lock(getattr(table, "pk", table))
    seats = seats_lock(locked)
    seat = next((seat for seat in seats.values() if seat.user_id == getattr(user, "pk", None)), None)
    if seat is None or seat.disconnected_since is None:
        return False
    context = HandContext(locked, seats, moment)
    context.events.append(seat_connection_record(seat, None))
    if policy_for(locked).returns_on_reconnect(seat):
        # TRN-04 / AMB-57: a tournament player blinded while absent or disconnected plays again once back.
        context.events.append(seat_return(seat, locked, post_out_of_position=False))
    hand = _running_hand_for_update(locked)
    if (
        hand is not None
        and hand.acting_seat == seat.number
        and hand.clock_phase == ClockPhase.RECONNECT
        and seat.timebank_milliseconds > 0
    ):
        clock_switch(
            context, hand, ClockPhase.TIMEBANK, moment, moment + timedelta(milliseconds=seat.timebank_milliseconds)
        )
    context.commit_events()
    return True
