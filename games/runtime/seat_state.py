"""Seat state changes shared by the table services (internal: the caller holds the table and seat locks).

Every change is saved with a version bump and produces a table event (``seat_*``) describing the seat afterwards, so
clients can redraw it without a snapshot.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from games.models import (
    Hand,
    HandStatus,
    LeaveReason,
    PlayerTableSettings,
    Seat,
    SeatStatus,
    SitOutReason,
    Table,
)
from games.runtime.events import NewEvent
from games.runtime.policy import TableRules, seat_stack
from poker_site.core.compiled_sql import fields_update


def seat_payload(seat: Seat, *, with_stack: bool = True, **extra: Any) -> dict[str, Any]:
    """The public description of a seat carried by seat events. ``with_stack`` is False for events that may happen
    while the player is in a hand, when the table account still holds the start-of-hand stack."""
    payload: dict[str, Any] = {"seat": seat.number, "status": seat.status}
    if seat.user_id is not None:
        assert seat.user is not None
        if with_stack:
            payload["stack"] = seat_stack(seat)
        payload.update(
            {
                "user_id": seat.user_id,
                "name": getattr(seat.user, "table_name", seat.user.get_username()),
                "sit_out_reason": seat.sit_out_reason,
                "sit_out_deadline": seat.sit_out_deadline.isoformat() if seat.sit_out_deadline else None,
                "sit_out_after_hand": seat.sit_out_after_hand,
                "sit_out_next_big_blind": seat.sit_out_next_big_blind,
                "leave_after_hand": seat.leave_after_hand,
                "disconnected": seat.disconnected_since is not None,
            }
        )
    payload.update(extra)
    return payload


def seat_save(seat: Seat, *fields: str) -> None:
    """Save ``fields`` of a locked seat and bump its version."""
    seat.version += 1
    fields_update(seat, [*fields, "version"])


def seat_event(seat: Seat, kind: str, *, with_stack: bool = True, **extra: Any) -> NewEvent:
    return NewEvent(kind, seat_payload(seat, with_stack=with_stack, **extra))


def seat_connection_record(seat: Seat, disconnected_since: datetime | None) -> NewEvent:
    """Record that the seat's player lost their connection at ``disconnected_since`` (None: is connected again) and
    return the table event that says so (CASH-22, TB-07)."""
    seat.disconnected_since = disconnected_since
    seat_save(seat, "disconnected_since")
    return seat_event(
        seat, "seat_disconnected" if disconnected_since is not None else "seat_reconnected", with_stack=False
    )


def sit_out_deadline_for(seat: Seat, reason: str, now: datetime, rules: TableRules) -> datetime | None:
    """When a seat sitting out for ``reason`` is removed: the global sit-out deadline (CASH-20, 500 s) for global sit
    out, otherwise 10 minutes (CASH-17, AMB-12); never where the rules remove nobody for sitting out (tournaments:
    the player stays in until blinded out, TRN-20)."""
    if rules.sit_out_removal_seconds is None:
        return None
    if reason == SitOutReason.GLOBAL and seat.user_id is not None:
        settings_row = PlayerTableSettings.objects.filter(user_id=seat.user_id).first()
        if settings_row is not None and settings_row.global_sit_out_deadline is not None:
            return settings_row.global_sit_out_deadline
        return now + timedelta(seconds=rules.global_sit_out_seconds)
    return now + timedelta(seconds=rules.sit_out_removal_seconds)


def seat_sit_out_now(seat: Seat, reason: str, now: datetime, rules: TableRules) -> NewEvent:
    """Put an occupied seat into sit-out now (not dealt in, pays no blinds, CASH-16) with its removal deadline."""
    seat.status = SeatStatus.SITTING_OUT
    seat.sit_out_reason = reason
    seat.sit_out_since = now
    seat.sit_out_deadline = sit_out_deadline_for(seat, reason, now, rules)
    seat.sit_out_after_hand = False
    seat.sit_out_reason_after_hand = ""
    if reason == SitOutReason.NEXT_BIG_BLIND:
        seat.sit_out_next_big_blind = False
    seat_save(
        seat,
        "status",
        "sit_out_reason",
        "sit_out_since",
        "sit_out_deadline",
        "sit_out_after_hand",
        "sit_out_reason_after_hand",
        "sit_out_next_big_blind",
    )
    return seat_event(seat, "seat_sat_out")


def entry_status_after_absence(seat: Seat, table: Table, post_out_of_position: bool) -> str:
    """How a player comes back into play: straight in, or — after missing the big blind, or when joining a table that
    has dealt before — waiting for the big blind or posting one out of position (CASH-07, CASH-21)."""
    if table.previous_big_blind_seat is None:
        return SeatStatus.PLAYING
    if seat.missed_big_blind or seat.hands_dealt_in == 0:
        return SeatStatus.POSTING_OUT_OF_POSITION if post_out_of_position else SeatStatus.WAITING_FOR_BIG_BLIND
    return SeatStatus.PLAYING


def seat_return(seat: Seat, table: Table, post_out_of_position: bool) -> NewEvent:
    """Bring a sitting-out seat back into play (CASH-16 "I'm back", CASH-21; TRN-19), with the status the table's
    policy gives a returning player."""
    from games.runtime.policy import policy_for

    seat.status = policy_for(table).seat_returns_as(seat, table, post_out_of_position)
    seat.sit_out_reason = SitOutReason.NONE
    seat.sit_out_since = None
    seat.sit_out_deadline = None
    seat.sit_out_after_hand = False
    seat.sit_out_reason_after_hand = ""
    seat_save(
        seat,
        "status",
        "sit_out_reason",
        "sit_out_since",
        "sit_out_deadline",
        "sit_out_after_hand",
        "sit_out_reason_after_hand",
    )
    return seat_event(seat, "seat_sat_in")


def seat_empty(seat: Seat) -> None:
    """Clear the occupant of a locked seat and everything about their stay (the caller has dealt with the stack)."""
    seat.user = None
    seat.session = None
    seat.chips = 0
    seat.status = SeatStatus.EMPTY
    seat.sit_out_reason = SitOutReason.NONE
    seat.sit_out_since = None
    seat.sit_out_deadline = None
    seat.sit_out_after_hand = False
    seat.sit_out_reason_after_hand = ""
    seat.sit_out_next_big_blind = False
    seat.missed_big_blind = False
    seat.leave_after_hand = False
    seat.top_up_after_hand = 0
    seat.disconnected_since = None
    seat.timebank_milliseconds = 0
    seat.hands_dealt_in = 0
    seat.seated_at = None
    seat_save(seat, *SEAT_OCCUPANCY_FIELDS)


SEAT_OCCUPANCY_FIELDS = (
    "user",
    "session",
    "chips",
    "status",
    "sit_out_reason",
    "sit_out_since",
    "sit_out_deadline",
    "sit_out_after_hand",
    "sit_out_reason_after_hand",
    "sit_out_next_big_blind",
    "missed_big_blind",
    "leave_after_hand",
    "top_up_after_hand",
    "disconnected_since",
    "timebank_milliseconds",
    "hands_dealt_in",
    "seated_at",
)
"""The fields that describe a seat's occupant (what emptying or filling a seat writes)."""


def global_sit_out_settle(user_id: int) -> None:
    """End the player's global sit out once no seat of theirs is sitting out under it (CASH-18/20)."""
    still = (
        Seat.objects.filter(user_id=user_id, sit_out_reason=SitOutReason.GLOBAL).exists()
        or Seat.objects.filter(
            user_id=user_id, sit_out_reason_after_hand=SitOutReason.GLOBAL, sit_out_after_hand=True
        ).exists()
    )
    if not still:
        PlayerTableSettings.objects.filter(user_id=user_id, global_sit_out_since__isnull=False).update(
            global_sit_out_since=None, global_sit_out_deadline=None
        )


def table_start_soon(table: Table, now: datetime) -> None:
    """Ask the ticker to try to deal as soon as possible (a seat change may have met the start condition)."""
    if table.current_hand_id is None and (table.next_hand_at is None or table.next_hand_at > now):
        Table.objects.filter(pk=table.pk).update(next_hand_at=now)
        table.next_hand_at = now


def seat_in_running_hand(table: Table, seat: Seat) -> Hand | None:
    """The running hand the seat's current occupant is dealt into, if any."""
    if table.current_hand_id is None:
        return None
    hand = Hand.objects.filter(pk=table.current_hand_id, status=HandStatus.RUNNING).first()
    if hand is None:
        return None
    participant = hand.participants.get(str(seat.number))
    if participant is None or participant["user"] != seat.user_id:
        return None
    return hand


def table_touch(table: Table, **changes: Any) -> None:
    """Save ``changes`` on the locked table and bump its version (one statement, built once per set of fields: every
    hand start and end touches its table)."""
    for name, value in changes.items():
        setattr(table, name, value)
    fields_update(table, sorted(changes), counted="version")
    table.version += 1


LEAVE_REASON_BY_SIT_OUT = {
    SitOutReason.GLOBAL: LeaveReason.GLOBAL_SIT_OUT_LIMIT,
}
