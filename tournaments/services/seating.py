"""Seats of a running tournament: opening its tables, seating players, moving them (TRN-03, TRN-05, TRN-25, TRN-26).

Internal to the tournament services: the caller holds the tournament row locked; every table is locked
(``games.runtime.locking.table_lock``) before its seats or its ``TournamentTable`` row are written, in that order,
the order the hands' own transactions use (table, then its link row), so no cycle can form.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games.models import Seat, SeatStatus, Table, TableKind
from games.runtime.events import NewEvent, events_append
from games.runtime.locking import seats_lock, table_lock
from games.runtime.seat_state import SEAT_OCCUPANCY_FIELDS, seat_empty, seat_event, seat_save
from poker_site.core.compiled_sql import rows_update
from tournaments.models import EntryStatus, Tournament, TournamentEntry, TournamentTable
from tournaments.rules.balancing import MoveReason, hands_until_big_blind
from tournaments.rules.common import RandomSource


def table_open(tournament: Tournament, now: datetime) -> tuple[Table, TournamentTable]:
    """Open the tournament's next table (its seats empty) and link it to the tournament."""
    number = tournament.next_table_number
    tournament.next_table_number = number + 1
    table = Table.objects.create(
        kind=TableKind.TOURNAMENT,
        stake=None,
        name=f"{tournament.name} – table {number}",
        seat_count=tournament.table_size,
        created_at=now,
    )
    Seat.objects.bulk_create(Seat(table=table, number=seat) for seat in range(1, tournament.table_size + 1))
    link = TournamentTable.objects.create(table=table, tournament=tournament, number=number)
    events_append(table, [NewEvent("table_opened", {"name": table.name, "seats": table.seat_count})])
    return table, link


def _seat_occupy(seat: Seat, user: Any, chips: int, now: datetime, timebank_milliseconds: int) -> None:
    seat.user = user
    seat.session = None
    seat.chips = chips
    seat.status = SeatStatus.PLAYING
    seat.timebank_milliseconds = timebank_milliseconds
    seat.hands_dealt_in = 0
    seat.seated_at = now


def seat_fill(
    seat: Seat, entry: TournamentEntry, user: Any, chips: int, now: datetime, *, timebank_milliseconds: int
) -> NewEvent:
    """Seat ``entry``'s player with ``chips`` at a locked empty seat."""
    _seat_occupy(seat, user, chips, now, timebank_milliseconds)
    seat_save(seat, *SEAT_OCCUPANCY_FIELDS)
    entry.table_id = seat.table_id
    entry.status = EntryStatus.PLAYING
    entry.save(update_fields=["table", "status"])
    return seat_event(seat, "seat_taken", chips=chips)


def seats_fill(
    placements: list[tuple[Seat, TournamentEntry]], chips: int, now: datetime, *, timebank_milliseconds: int
) -> list[NewEvent]:
    """:func:`seat_fill` for several players at locked empty seats of one table, in two statements (the seats, then
    the entries) instead of two per player: the start seats thousands at once (TRN-03). Each player gets ``chips``,
    or the stack their entry carries from Phase 1 (TRN-45)."""
    events = []
    for seat, entry in placements:
        stack = int(entry.carried_chips) if entry.carried_chips is not None else (entry.starting_chips or chips)
        _seat_occupy(seat, entry.user, stack, now, timebank_milliseconds)
        seat.version += 1
        events.append(seat_event(seat, "seat_taken", chips=stack))
    rows_update([seat for seat, _entry in placements], [*SEAT_OCCUPANCY_FIELDS, "version"])
    by_table: dict[int, list[TournamentEntry]] = {}
    for seat, entry in placements:
        entry.table_id = seat.table_id
        entry.status = EntryStatus.PLAYING
        by_table.setdefault(seat.table_id, []).append(entry)
    for table_id, entries in by_table.items():
        TournamentEntry.objects.filter(pk__in=[entry.pk for entry in entries]).update(
            table_id=table_id, status=EntryStatus.PLAYING
        )
    return events


@dataclass(frozen=True)
class Move:
    """A player moved between two tables of a tournament."""

    user_id: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: MoveReason


def seat_reached_last(table: Table, seats: dict[int, Seat], randomness: RandomSource) -> int:
    """AMB-42: the free seat the big blind will reach last (the most hands before it posts the big blind), random
    among ties."""
    occupied = [number for number, seat in seats.items() if seat.user_id is not None]
    free = [number for number, seat in seats.items() if seat.user_id is None]
    last_big_blind = table.previous_big_blind_seat
    scored = [(hands_until_big_blind(seat, occupied, last_big_blind, table.seat_count), seat) for seat in free]
    best = max(score for score, _seat in scored)
    return int(randomness.choice(sorted(seat for score, seat in scored if score == best)))


def player_move(
    source: Table,
    source_seats: dict[int, Seat],
    from_seat: int,
    target: Table,
    target_seats: dict[int, Seat],
    reason: MoveReason,
    now: datetime,
    randomness: RandomSource,
) -> Move:
    """Move the player of ``from_seat`` (source table between hands) to the seat of ``target`` the big blind reaches
    last; their chips, timebank (TB-01: one per tournament) and sitting-out state go with them. Both tables are locked
    with their seats. Each table's log says what happened; the source's event tells the player where to go (TRN-26)."""
    seat = source_seats[from_seat]
    assert seat.user_id is not None
    assert seat.user is not None
    to_number = seat_reached_last(target, target_seats, randomness)
    destination = target_seats[to_number]
    user, user_id = seat.user, seat.user_id
    destination.user = user
    destination.session = None
    destination.chips = seat.chips
    destination.status = seat.status
    destination.sit_out_reason = seat.sit_out_reason
    destination.sit_out_since = seat.sit_out_since
    destination.sit_out_deadline = None
    destination.sit_out_after_hand = seat.sit_out_after_hand
    destination.sit_out_reason_after_hand = seat.sit_out_reason_after_hand
    destination.disconnected_since = seat.disconnected_since
    destination.timebank_milliseconds = seat.timebank_milliseconds
    destination.hands_dealt_in = seat.hands_dealt_in
    destination.seated_at = now
    seat_empty(seat)
    seat_save(destination, *SEAT_OCCUPANCY_FIELDS)
    TournamentEntry.objects.filter(user_id=user_id, table_id=source.pk, status=EntryStatus.PLAYING).update(
        table_id=target.pk
    )
    move = Move(int(user_id), source.pk, from_seat, target.pk, to_number, reason)
    events_append(
        source,
        [
            NewEvent(
                "player_moved",
                {
                    "seat": from_seat,
                    "status": SeatStatus.EMPTY,
                    "user_id": user_id,
                    "to_table": target.pk,
                    "reason": reason.value,
                    "message": reason.message,
                },
            )
        ],
    )
    events_append(target, [seat_event(destination, "seat_taken", moved_from_table=source.pk, reason=reason.value)])
    return move


def tables_lock(table_ids: list[int]) -> dict[int, tuple[Table, dict[int, Seat]]]:
    """Lock tables (primary-key order) and their seats."""
    locked = {}
    for table_id in sorted(set(table_ids)):
        table = table_lock(table_id)
        locked[table_id] = (table, seats_lock(table))
    return locked
