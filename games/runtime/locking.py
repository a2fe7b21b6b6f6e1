"""Row locks in the one order every table service takes them (so no two services wait on each other in a cycle):

1. the stake's seating queue (:func:`stake_queue_lock`) — only the queue takes it, first;
2. the player's seating lock (:func:`player_seating_lock`) — services that seat a player;
3. the table row (:func:`table_lock`), then its seats in primary-key order (:func:`seats_lock`); the hand row after
   its table;
4. wallet accounts, in primary-key order, by ``transfer_create`` / ``player_cash_accounts_lock``.

A transaction takes each level at most once and never goes back up: the seating queue seats each request in its own
transaction (``games.cash.seating``), so it never holds one table's accounts while it waits for another table.

Foreign keys: PostgreSQL checks the foreign keys of a row updated twice in one transaction again, with a ``FOR KEY
SHARE`` lock on each referenced row — ``hand_start`` writes its table twice, so it key-share-locks the table's stake.
A ``FOR UPDATE`` on the stake would block that check while its holder waits for the table (the "deadlock detected in
``hand_start``" of issue 27); the stake queue therefore takes ``FOR NO KEY UPDATE``, which serialises the queue of a
stake without blocking foreign-key checks. Rows referenced by tables, seats and hands are never locked ``FOR UPDATE``.
"""

from __future__ import annotations

import zlib
from datetime import datetime
from typing import Any

from django.db import connection

from games.models import GameRules, PlayerTableSettings, Seat, Stake, StakeTerms, Table
from games.models.catalog import rules_in_force, terms_in_force
from games.runtime.errors import NotFound
from poker_site.core.compiled_sql import CompiledSelect

# The lock queries run for every action and hand: compiled once per process (poker_site.core.compiled_sql).
# order_by(): a primary-key lookup needs no ordering, and the models' default one would join and sort.
_TABLE = CompiledSelect(
    lambda table_id: (
        Table.objects.select_for_update(of=("self",)).select_related("stake__game_type").order_by().filter(pk=table_id)
    )
)
_TABLE_WITH_HAND = CompiledSelect(
    lambda table_id: (
        Table.objects.select_for_update(of=("self",))
        .select_related("stake__game_type", "current_hand__game_rules", "current_hand__stake_terms__stake__game_type")
        .order_by()
        .filter(pk=table_id)
    )
)
_SEATS = CompiledSelect(
    lambda table_id: (
        Seat.objects.select_for_update(of=("self",))
        .filter(table_id=table_id)
        .select_related("user", "session__account")
        .order_by("pk")
    )
)


def stake_queue_lock(stake_id: int) -> Stake:
    """Lock the seating queue of stake ``stake_id`` (its row, ``FOR NO KEY UPDATE``) and return the stake with its game
    type; the first lock of a seating transaction. ``NO KEY``: a table's foreign-key check on its stake must not wait
    for the queue (see the module docstring)."""
    return Stake.objects.select_for_update(no_key=True, of=("self",)).select_related("game_type").get(pk=stake_id)


_SEATING_LOCK_CLASS = zlib.crc32(b"games-player-seating") & 0x7FFFFFFF


def player_seating_lock(user_id: int) -> None:
    """Serialise the seating of one player until the transaction ends; taken before the table's lock.

    The limits that count a player's seats or buy-ins across tables are read and then written: the Banzai limit of
    four tables per stake (CASH-28) and the daily counters of ratholing returns and Banzai Resets (CASH-12, CASH-31).
    Two seatings of the same player at two tables each hold a different table's lock, so only a lock on the player
    keeps them from both passing the check. It is an advisory lock: no row stands for "this player's seats".
    """
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_SEATING_LOCK_CLASS, int(user_id)])


def table_lock(table_id: int) -> Table:
    """Lock and return the table (with its stake and game type); :class:`NotFound` if there is no such table."""
    table = _TABLE.first(int(table_id))
    if table is None:
        raise NotFound(f"There is no table {table_id}.")
    return table


def table_lock_with_hand(table_id: int) -> Table:
    """Like :func:`table_lock`, also loading the hand in play with its rules and terms (one query). The hand row itself
    needs no lock of its own: every service that changes a hand holds its table's lock."""
    table = _TABLE_WITH_HAND.first(int(table_id))
    if table is None:
        raise NotFound(f"There is no table {table_id}.")
    forget_reverse_one_to_one(table, "current_hand")
    return table


def seats_lock(table: Table) -> dict[int, Seat]:
    """Lock the table's seats in primary-key order; return them by seat number (occupant and account loaded)."""
    locked = {seat.number: seat for seat in _SEATS.all(table.pk)}
    for seat in locked.values():
        if seat.session is not None:
            forget_reverse_one_to_one(seat, "session")
            forget_reverse_one_to_one(seat.session, "account")
    return locked


def forget_reverse_one_to_one(instance: Any, field_name: str) -> None:
    """Drop the back-reference ``select_related`` caches on the far side of a one-to-one (``seat.session.seat``).

    Django caches both directions, which makes every loaded pair a reference cycle that only the garbage collector
    can free; on the action path that was hundreds of objects per action and frequent collections (pauses for every
    table). The forward reference stays; code that follows the reverse one reads it from the database."""
    related = getattr(instance, field_name)
    if related is not None:
        instance._meta.get_field(field_name).remote_field.delete_cached_value(related)


def table_terms(table: Table, now: datetime) -> tuple[StakeTerms, GameRules]:
    """The stake terms and game rules in force at ``now``, as of the stake and game type loaded with ``table`` (a
    locked table's are current): kept in memory per stake and game type while their rows are unchanged, so a hand
    start reads no catalog rows (``games.models.catalog.terms_in_force``; a row scheduled for later still takes effect
    at its time, and any change to the rows reads them afresh)."""
    stake = table.cash_stake
    return terms_in_force(stake, now), rules_in_force(stake.game_type, now)


def player_settings(user_id: int) -> PlayerTableSettings:
    """The player's table settings row (created with the defaults on first use)."""
    settings_row, _created = PlayerTableSettings.objects.get_or_create(user_id=user_id)
    return settings_row


def player_settings_lock(user_id: int) -> PlayerTableSettings:
    """Lock the player's settings row (cross-table state: global sit out); created first if missing."""
    PlayerTableSettings.objects.get_or_create(user_id=user_id)
    return PlayerTableSettings.objects.select_for_update().get(user_id=user_id)
