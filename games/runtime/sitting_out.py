"""Sitting out and coming back (CASH-16..21) and the player's table settings (CASH-15, CASH-19, LOB-04).

Global sit out (CASH-18, CASH-20, AMB-12): sitting out at one table while seated at other cash tables puts the player
into sit-out on those tables too, from their next hand, except tables where "sit out next big blind" is armed (those
wait for the big blind, CASH-19). Tables in global sit out are left after 500 s; a single-table sit-out after 10
minutes (CASH-17). Services that touch several tables lock them in primary-key order.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import LeaveReason, Seat, SeatStatus, SitOutReason, Table, TableKind, TableStatus
from games.runtime.errors import NotAllowedNow, NotSeated
from games.runtime.events import NewEvent, events_append
from games.runtime.locking import player_settings_lock, seats_lock, table_lock, table_terms
from games.runtime.policy import policy_for, seat_stack
from games.runtime.seat_state import (
    global_sit_out_settle,
    seat_event,
    seat_in_running_hand,
    seat_return,
    seat_save,
    seat_sit_out_now,
    table_start_soon,
)


def _lock_player_tables(user_id: int, also: int | None = None) -> list[tuple[Table, dict[int, Seat]]]:
    """Lock every open cash table where the player sits (and ``also``) in primary-key order, with their seats.
    Tournament tables take no part in global sit out (CASH-18 is a cash-game rule)."""
    table_ids = set(
        Seat.objects.filter(user_id=user_id, table__status=TableStatus.OPEN, table__kind=TableKind.CASH).values_list(
            "table_id", flat=True
        )
    )
    if also is not None:
        table_ids.add(also)
    locked = []
    for table_id in sorted(table_ids):
        table = table_lock(table_id)
        locked.append((table, seats_lock(table)))
    return locked


def _seat_of(seats: dict[int, Seat], user_id: int) -> Seat | None:
    return next((seat for seat in seats.values() if seat.user_id == user_id), None)


def _sit_out(table: Table, seat: Seat, reason: str, now: datetime, events: list[NewEvent]) -> None:
    """Sit out now, or after the hand the player is dealt into (they play it out)."""
    rules = policy_for(table).current_rules(table, now)
    if seat_in_running_hand(table, seat) is not None:
        seat.sit_out_after_hand = True
        seat.sit_out_reason_after_hand = reason
        seat_save(seat, "sit_out_after_hand", "sit_out_reason_after_hand")
        events.append(seat_event(seat, "seat_sitting_out_after_hand", with_stack=False))
    else:
        events.append(seat_sit_out_now(seat, reason, now, rules))


@transaction.atomic(durable=True)
def seat_sit_out(user: Any, table: Table, *, now: datetime | None = None) -> Seat:
    """``user`` sits out at ``table`` (CASH-16): from now, or after the hand they are playing. If they are seated at
    other cash tables, global sit out starts (CASH-18) with its 500-second limit (CASH-20)."""
    moment = now or timezone.now()
    user_id = int(user.pk)
    locked = _lock_player_tables(user_id, also=table.pk)
    by_table = {candidate.pk: (candidate, seats) for candidate, seats in locked}
    this_table, this_seats = by_table[table.pk]
    seat = _seat_of(this_seats, user_id)
    if seat is None:
        raise NotSeated("You do not have a seat at this table.")
    if seat.status == SeatStatus.SITTING_OUT:
        return seat
    others = [
        (other_table, other_seat)
        for other_table, seats in locked
        if other_table.pk != table.pk and (other_seat := _seat_of(seats, user_id)) is not None
    ]
    if this_table.kind != TableKind.CASH:
        others = []  # a tournament player sits out at that table alone (TRN-19)
    events: dict[int, list[NewEvent]] = {candidate.pk: [] for candidate, _seats in locked}
    global_reason = bool(others)
    if global_reason:
        _terms, rules = table_terms(this_table, moment)
        settings_row = player_settings_lock(user_id)
        settings_row.global_sit_out_since = moment
        settings_row.global_sit_out_deadline = moment + timedelta(seconds=rules.global_sit_out_seconds)
        settings_row.save(update_fields=["global_sit_out_since", "global_sit_out_deadline"])
    _sit_out(this_table, seat, SitOutReason.GLOBAL if global_reason else SitOutReason.PLAYER, moment, events[table.pk])
    for other_table, other_seat in others:
        if other_seat.status == SeatStatus.SITTING_OUT or other_seat.sit_out_after_hand:
            continue
        if other_seat.sit_out_next_big_blind:
            continue  # CASH-18 "except as outlined in point 8": this table sits out when its big blind comes.
        _sit_out(other_table, other_seat, SitOutReason.GLOBAL, moment, events[other_table.pk])
    for candidate, _seats in locked:
        events_append(candidate, events[candidate.pk])
    return seat


@transaction.atomic(durable=True)
def seat_sit_in(user: Any, table: Table, *, post_out_of_position: bool = False, now: datetime | None = None) -> Seat:
    """``user`` comes back ("I'm back", CASH-16). A player whose big blind passed while away waits for the big blind
    or, with ``post_out_of_position``, posts one (CASH-21). Also cancels a pending sit-out, and switches a waiting
    player between waiting and posting (CASH-07)."""
    moment = now or timezone.now()
    locked = table_lock(table.pk)
    seats = seats_lock(locked)
    seat = _seat_of(seats, int(user.pk))
    if seat is None:
        raise NotSeated("You do not have a seat at this table.")
    events: list[NewEvent] = []
    if seat.sit_out_after_hand:
        seat.sit_out_after_hand = False
        seat.sit_out_reason_after_hand = ""
        seat_save(seat, "sit_out_after_hand", "sit_out_reason_after_hand")
        events.append(seat_event(seat, "seat_changed", with_stack=False))
    if seat.status == SeatStatus.SITTING_OUT:
        if seat_stack(seat) == 0:
            raise NotAllowedNow("You have no chips: top up to play again.")
        events.append(seat_return(seat, locked, post_out_of_position))
    elif seat.status in (SeatStatus.WAITING_FOR_BIG_BLIND, SeatStatus.POSTING_OUT_OF_POSITION):
        wanted = SeatStatus.POSTING_OUT_OF_POSITION if post_out_of_position else SeatStatus.WAITING_FOR_BIG_BLIND
        if seat.status != wanted:
            seat.status = wanted
            seat_save(seat, "status")
            events.append(seat_event(seat, "seat_changed", with_stack=False))
    global_sit_out_settle(int(user.pk))
    table_start_soon(locked, moment)
    events_append(locked, events)
    return seat


@transaction.atomic(durable=True)
def player_settings_update(
    user: Any,
    *,
    auto_top_up: bool | None = None,
    sit_out_next_big_blind: bool | None = None,
    now: datetime | None = None,
) -> None:
    """Change the player's client settings (LOB-04). "Sit out next big blind" applies to every table they sit at:
    each sits them out when its big blind reaches them (CASH-19); the option clears at a table once applied there."""
    user_id = int(user.pk)
    locked = _lock_player_tables(user_id) if sit_out_next_big_blind is not None else []
    settings_row = player_settings_lock(user_id)
    fields = []
    if auto_top_up is not None:
        settings_row.auto_top_up = bool(auto_top_up)
        fields.append("auto_top_up")
    if sit_out_next_big_blind is not None:
        settings_row.sit_out_next_big_blind = bool(sit_out_next_big_blind)
        fields.append("sit_out_next_big_blind")
    if fields:
        settings_row.save(update_fields=fields)
    for table, seats in locked:
        seat = _seat_of(seats, user_id)
        if seat is not None and seat.sit_out_next_big_blind != bool(sit_out_next_big_blind):
            seat.sit_out_next_big_blind = bool(sit_out_next_big_blind)
            seat_save(seat, "sit_out_next_big_blind")
            events_append(table, [seat_event(seat, "seat_changed", with_stack=False)])


@transaction.atomic(durable=True)
def seat_sit_out_next_big_blind(user: Any, table: Table, enabled: bool, *, now: datetime | None = None) -> Seat:
    """Arm or disarm "sit out next big blind" at one table (CASH-19)."""
    locked = table_lock(table.pk)
    seats = seats_lock(locked)
    seat = _seat_of(seats, int(user.pk))
    if seat is None:
        raise NotSeated("You do not have a seat at this table.")
    if seat.sit_out_next_big_blind != bool(enabled):
        seat.sit_out_next_big_blind = bool(enabled)
        seat_save(seat, "sit_out_next_big_blind")
        events_append(locked, [seat_event(seat, "seat_changed", with_stack=False)])
    return seat


@transaction.atomic(durable=True)
def seat_sit_out_expire(seat_id: int, *, now: datetime | None = None) -> bool:
    """Remove a player whose sit-out deadline has passed (CASH-17: 10 minutes; CASH-20: 500 s in global sit out),
    returning their stack to their balance. Idempotent: does nothing unless the seat is still sitting out and its
    deadline has passed."""
    moment = now or timezone.now()
    table_id = Seat.objects.filter(pk=seat_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return False
    locked = table_lock(table_id)
    seats = seats_lock(locked)
    seat = next((seat for seat in seats.values() if seat.pk == seat_id), None)
    if (
        seat is None
        or seat.session_id is None
        or seat.status != SeatStatus.SITTING_OUT
        or seat.sit_out_deadline is None
        or seat.sit_out_deadline > moment
        or seat_in_running_hand(locked, seat) is not None
    ):
        return False
    reason = (
        LeaveReason.GLOBAL_SIT_OUT_LIMIT if seat.sit_out_reason == SitOutReason.GLOBAL else LeaveReason.SIT_OUT_LIMIT
    )
    events_append(locked, [policy_for(locked).seat_remove(seat, locked, reason, moment)])
    return True
