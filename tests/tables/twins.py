"""Twin tables for comparing a hand held in memory by a table actor with the same hand played by the per-action durable
path (issue 27): which user sits where at each, the events as clients read them with the users renamed, and what a
hand leaves at the table (the hand row, its players, the settlement's ledger legs, stacks, seats, table)."""

from __future__ import annotations

import random
from typing import Any

from games.models import Hand, HandEvent, HandPlayer, Seat, Table
from games.runtime.policy import policy_for
from tests.tables.support import START, player
from tests.tournaments.support import open_tables, sit_and_go
from tournaments.services import tournament_register
from wallet.models import Leg

ABSENT_SEAT = 2
"""The player in this seat has no socket on the table: their clock runs into the reconnection grace (CASH-22) and a
tournament player there sits out from the first hand and is acted for (TRN-19)."""


class Pair:
    """The table played by the per-action durable path (``durable``) and its twin played in memory (``memory``), and
    which user sits where at each."""

    def __init__(self, durable: Table, memory: Table) -> None:
        self.durable, self.memory = durable, memory
        self.users: dict[int, dict[int, Any]] = {
            table.pk: {
                seat.number: seat.user
                for seat in Seat.objects.filter(table=table, user__isnull=False).select_related("user")
            }
            for table in (durable, memory)
        }
        seats_durable, seats_memory = self.users[durable.pk], self.users[memory.pk]
        assert seats_durable.keys() == seats_memory.keys()
        self.user_ids = {seats_memory[n].pk: seats_durable[n].pk for n in seats_memory}
        self.names = {seats_memory[n].table_name: seats_durable[n].table_name for n in seats_memory}
        self.absent = {seats[ABSENT_SEAT].pk for seats in self.users.values() if ABSENT_SEAT in seats}


def tournament_pair(players: int) -> Pair:
    """Twin Sit & Go tables of ``players`` seats, each filled by registering new players (the same seeds at both)."""
    tables = []
    for _ in range(2):
        tournament = sit_and_go(seats=players)
        for index in range(players):
            tournament_register(player(), tournament, now=START, randomness=random.Random(index))
        (table,) = open_tables(tournament)
        tables.append(table)
    return Pair(*tables)


def normalised(pair: Pair, table: Table, hand: Hand) -> list[tuple[Any, ...]]:
    """The hand's events as the clients would read them, the memory table's users named as their twins."""

    def rename(value: Any, key: str | None = None) -> Any:
        if isinstance(value, dict):
            return {name: rename(item, name) for name, item in value.items()}
        if isinstance(value, list):
            return [rename(item) for item in value]
        if table.pk == pair.memory.pk and key in ("user_id", "user") and isinstance(value, int):
            return pair.user_ids.get(value, value)
        if table.pk == pair.memory.pk and key == "name" and isinstance(value, str):
            return pair.names.get(value, value)
        return value

    first = HandEvent.objects.filter(table=table, hand=hand).order_by("sequence").values_list("sequence", flat=True)
    start = first[0]
    rows = HandEvent.objects.filter(table=table, sequence__gte=start).order_by("sequence")
    return [
        (
            row.sequence,
            row.kind,
            rename(row.payload),
            row.audience,
            row.private_to_seat,
            rename(row.private_to_user_id, "user_id"),
            row.hand.number if row.hand is not None else None,
        )
        for row in rows
    ]


def settled(table: Table, hand: Hand) -> dict[str, Any]:
    """How the hand ended and what it left at the table: the hand row, its players, the ledger legs of its settlement
    (by seat), the stacks where they live, the seats."""
    hand = Hand.objects.get(pk=hand.pk)
    seats = {seat.number: seat for seat in Seat.objects.filter(table=table).select_related("session__account")}
    seat_of_account = {seat.session.account_id: seat.number for seat in seats.values() if seat.session is not None}
    fresh = Table.objects.get(pk=table.pk)
    legs = (
        sorted(
            (str(seat_of_account.get(leg.account_id, leg.account.kind)), leg.amount)
            for leg in Leg.objects.filter(transfer_id=hand.settlement_id).select_related("account")
        )
        if hand.settlement_id is not None
        else None
    )
    return {
        "hand": (
            hand.number,
            hand.status,
            hand.street_reached,
            hand.pot_total,
            hand.rake,
            hand.rake_rate_basis_points,
            hand.rake_cap_applied,
            hand.version,
            hand.players_dealt_in,
            hand.cancellation_reason,
        ),
        "players": sorted(
            HandPlayer.objects.filter(hand=hand).values_list("seat_number", "start_stack", "end_stack", "rake_share")
        ),
        "settlement_legs": legs,
        "stacks": {number: policy_for(fresh).stack(seat) for number, seat in seats.items() if seat.user_id},
        "seats": {
            number: (
                seat.status,
                seat.version,
                seat.timebank_milliseconds,
                seat.hands_dealt_in,
                seat.sit_out_reason,
                seat.sit_out_after_hand,
                seat.disconnected_since,
                seat.chips,
                seat.user_id is not None,
            )
            for number, seat in seats.items()
        },
        "table": (
            fresh.hands_played,
            fresh.last_sequence,
            fresh.current_hand_id is None,
            fresh.next_hand_at,
            fresh.previous_button_seat,
            fresh.previous_small_blind_seat,
            fresh.previous_big_blind_seat,
            fresh.version,
            fresh.status,
        ),
    }
