"""Helpers shared by the UTH services: time, locks, money movements, the bet record and the public event log.

Lock order (every service follows it, so none waits on another in a cycle): the round row, then hand rows in primary-
key order, then wallet accounts in primary-key order (a service that makes several transfers locks all their accounts
at once first, see :func:`lock_accounts`), then the table row last (only to number public events). Player requests
take the round row ``FOR SHARE`` — many players bet at once — while the ticker's compare-and-swap ``UPDATE`` of the
round waits for them and makes later requests see the new phase.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import QuerySet
from django.utils import timezone

from games.engine.uth.money import format_cents
from games.uth import realtime
from games.uth.errors import InsufficientFunds, TableNotFound
from games.uth.models import FINISHED_PHASES, UthBetRecord, UthEvent, UthHand, UthRound, UthTable
from poker_site.accounts.models import User
from poker_site.core.compiled_sql import CompiledSelect, rows_insert
from wallet import errors as wallet_errors
from wallet.models import Account, AccountKind, Transfer
from wallet.services import TransferLeg, player_cash_account, reference_account, system_account, transfer_create


def now_or(now: datetime | None) -> datetime:
    return now if now is not None else timezone.now()


_TABLE = CompiledSelect(lambda table_id: UthTable.objects.filter(pk=table_id))


def table_by_id(table_id: int) -> UthTable | None:
    """The table, or None (a statement compiled once: every round opened and every seat taken reads it)."""
    return _TABLE.first(table_id)


def table_or_refuse(table_id: object) -> UthTable:
    if type(table_id) is not int:
        raise TableNotFound("There is no such Ultimate Texas Hold'em table.")
    table = table_by_id(table_id)
    if table is None:
        raise TableNotFound("There is no such Ultimate Texas Hold'em table.")
    return table


def _active_rounds(table_id: int) -> QuerySet[UthRound]:
    return UthRound.objects.filter(table_id=table_id).exclude(phase__in=FINISHED_PHASES).order_by("pk")


# The table's active round, read by every request and tick: compiled once, plain and locked FOR SHARE.
_ACTIVE_ROUND = CompiledSelect(_active_rounds)
_ACTIVE_ROUND_SHARE_LOCKED = CompiledSelect(_active_rounds, shared_lock=True)


def active_round(table_id: int) -> UthRound | None:
    """The table's round that is not yet settled or cancelled (at most one, a database constraint ensures it)."""
    return _ACTIVE_ROUND.first(table_id)


def share_locked_active_round(table_id: int) -> UthRound | None:
    """The table's active round, read and locked FOR SHARE in one query: players' requests run in parallel, while the
    ticker's compare-and-swap phase change waits for them (and later requests then see the new phase)."""
    return _ACTIVE_ROUND_SHARE_LOCKED.first(table_id)


def refuse_unknown_table(table_id: object) -> None:
    """Raise :class:`TableNotFound` unless ``table_id`` names a table (used to word a refusal precisely)."""
    if type(table_id) is not int or not UthTable.objects.filter(pk=table_id).exists():
        raise TableNotFound("There is no such Ultimate Texas Hold'em table.")


# --- money -----------------------------------------------------------------------------------------------------------


def bets_in_play_account(round_: UthRound) -> Account:
    return reference_account(AccountKind.UTH_BETS_IN_PLAY, round_.wallet_reference)


def lock_accounts(accounts: list[Account]) -> None:
    """Lock every account a service will move money on, in primary-key order, before its first transfer. Separate
    transfers would otherwise lock them in a different order each (deadlock with a parallel settlement)."""
    account_ids = sorted({account.pk for account in accounts})
    list(Account.objects.select_for_update().filter(pk__in=account_ids).order_by("pk").values_list("pk", flat=True))


def stake_money(
    *,
    round_: UthRound,
    player: User,
    amount: int,
    idempotency_key: str,
    kind: str,
    description: str,
    cash: Account | None = None,
) -> Transfer:
    """Move ``amount`` cents from the player's cash to the round's bets in play (placing a bet or a PLAY)."""
    cash = cash if cash is not None else player_cash_account(player)
    try:
        return transfer_create(
            kind=kind,
            legs=[TransferLeg(cash, -amount), TransferLeg(bets_in_play_account(round_), amount)],
            idempotency_key=idempotency_key,
            reference=round_.wallet_reference,
            description=description,
            created_by=player,
        )
    except wallet_errors.InsufficientFunds as error:
        raise InsufficientFunds(
            f"Your balance of {format_cents(cash.balance)} does not cover this bet of {format_cents(amount)}."
        ) from error


def return_money(
    *, round_: UthRound, player: User, amount: int, idempotency_key: str, kind: str, description: str
) -> Transfer:
    """Move ``amount`` cents back from the round's bets in play to the player's cash (undo, void, refund)."""
    return transfer_create(
        kind=kind,
        legs=[TransferLeg(bets_in_play_account(round_), -amount), TransferLeg(player_cash_account(player), amount)],
        idempotency_key=idempotency_key,
        reference=round_.wallet_reference,
        description=description,
    )


SETTLEMENT_CHUNK = 900
"""Hands per settlement transfer (the wallet takes up to 1,000 legs: one per player plus bets in play and house)."""


def round_accounts(round_: UthRound, hands: list[UthHand]) -> tuple[Account, Account, dict[int, Account]]:
    """(bets in play, house UTH result, each hand's player cash by player id), all locked in primary-key order."""
    bets = bets_in_play_account(round_)
    house = system_account(AccountKind.HOUSE_UTH_RESULT)
    cash = {hand.player_id: player_cash_account(hand.player) for hand in hands}
    lock_accounts([bets, house, *cash.values()])
    return bets, house, cash


def pay_out(
    *, round_: UthRound, payouts: list[tuple[UthHand, int]], kind: str, key: str, description: str
) -> list[tuple[UthHand, Transfer]]:
    """Empty the hands' stakes out of the round's bets in play: each player gets their amount (settlement returns or a
    refund), the house's UTH result takes the difference (negative when players won more than they staked). One
    transfer per :data:`SETTLEMENT_CHUNK` hands; a player has one hand per round, so one leg each. Locks every
    account involved first (:func:`round_accounts`)."""
    bets, house, cash = round_accounts(round_, [hand for hand, _ in payouts])
    done: list[tuple[UthHand, Transfer]] = []
    for start in range(0, len(payouts), SETTLEMENT_CHUNK):
        chunk = payouts[start : start + SETTLEMENT_CHUNK]
        staked = sum(hand.stake for hand, _ in chunk)
        paid = sum(amount for _, amount in chunk)
        if not staked:
            continue
        legs = [TransferLeg(bets, -staked)]
        legs += [TransferLeg(cash[hand.player_id], amount) for hand, amount in chunk if amount]
        if staked != paid:
            legs.append(TransferLeg(house, staked - paid))
        transfer = transfer_create(
            kind=kind,
            legs=legs,
            idempotency_key=f"{key}:{start // SETTLEMENT_CHUNK}",
            reference=round_.wallet_reference,
            description=description,
        )
        done.extend((hand, transfer) for hand, _ in chunk)
    return done


# --- the bet record ---------------------------------------------------------------------------------------------------


def next_record_number(hand: UthHand) -> int:
    """The number the hand's next record gets; the caller holds the hand row's lock, so numbers are gap-free."""
    return int(hand.last_record_number) + 1


def next_record_numbers(hands: list[UthHand]) -> dict[int, int]:
    """:func:`next_record_number` for many locked hands; the caller keeps ``last_record_number`` up to date."""
    numbers = {hand.pk: int(hand.last_record_number) + 1 for hand in hands}
    for hand in hands:
        hand.last_record_number = numbers[hand.pk]
    return numbers


def record_key(hand: UthHand, number: int) -> str:
    """The idempotency key of the money movement of the hand's record ``number``."""
    return f"uth-hand:{hand.pk}:record:{number}"


def add_record(
    hand: UthHand, kind: str, *, number: int, at: datetime, hand_fields: Sequence[str] = (), **fields: Any
) -> UthBetRecord:
    """Append record ``number`` to the hand. With ``hand_fields`` the same statement writes those fields of the hand
    (set by the caller before; ``last_record_number`` is added), otherwise the caller saves the hand with
    ``last_record_number``. One round trip for the step a player takes, instead of an insert and an update."""
    hand.last_record_number = number
    record = UthBetRecord(hand=hand, number=number, kind=kind, created_at=at, **fields)
    rows_insert([record], also_update=(hand, [*hand_fields, "last_record_number"]) if hand_fields else None)
    return record


# --- the public event log -------------------------------------------------------------------------------------------


_EVENT_PAYLOAD = UthEvent._meta.get_field("payload")
_EVENT_CREATED_AT = UthEvent._meta.get_field("created_at")
_ADD_EVENT = (
    "WITH numbered AS (UPDATE uth_uthtable SET last_sequence = last_sequence + 1 WHERE id = %s RETURNING last_sequence)"
    " INSERT INTO uth_uthevent (table_id, sequence, round_id, kind, payload, created_at)"
    " SELECT %s, numbered.last_sequence, %s, %s, %s, %s FROM numbered RETURNING sequence"
)


@dataclass
class EventLog:
    """Appends public events of one table in the current transaction and publishes them after it commits."""

    table_id: int
    first: int | None = None
    last: int | None = None

    def add(self, kind: str, payload: dict[str, Any], *, round_: UthRound | None, at: datetime) -> int:
        """Number the event after the table's last one and append it, in one statement (the table's counter is
        taken and moved by its ``UPDATE``: parallel writers of the table wait there, so numbers stay gap-free)."""
        values = [
            model_field.get_db_prep_save(value, connection)
            for model_field, value in ((_EVENT_PAYLOAD, payload), (_EVENT_CREATED_AT, at))
        ]
        with connection.cursor() as cursor:
            cursor.execute(
                _ADD_EVENT, [self.table_id, self.table_id, round_.pk if round_ is not None else None, kind, *values]
            )
            row = cursor.fetchone()
        if row is None:
            raise TableNotFound("There is no such Ultimate Texas Hold'em table.")
        (sequence,) = row
        if self.first is None:
            self.first = sequence
            table_id = self.table_id
            transaction.on_commit(lambda: realtime.events_committed(table_id, self.first or 0, self.last or 0))
        self.last = sequence
        return sequence


def notify_player(table_id: int, user_id: int) -> None:
    """After commit, tell the player's sockets on the table to refresh their own view."""
    transaction.on_commit(lambda: realtime.player_changed(table_id, user_id))


def notify_decision_stats(table_id: int, round_id: int) -> None:
    transaction.on_commit(lambda: realtime.decision_stats_changed(table_id, round_id))
