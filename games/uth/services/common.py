"""Helpers shared by the UTH services: time, locks, money movements, the bet record and the public event log.

Lock order (every service follows it, so none waits on another in a cycle): the round row, then hand rows in primary-
key order, then wallet accounts in primary-key order (a service that makes several transfers locks all their accounts
at once first, see :func:`lock_accounts`), then the table row last (only to number public events). Player requests
take the round row ``FOR SHARE`` — many players bet at once — while the ticker's compare-and-swap ``UPDATE`` of the
round waits for them and makes later requests see the new phase.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from games.engine.uth.betting import BetSlip, BetStep, StepKind
from games.engine.uth.money import format_cents
from games.engine.uth.round import Decision, DecisionRecord, Phase, PlayerHand
from games.uth import realtime
from games.uth.errors import InsufficientFunds, TableNotFound
from games.uth.models import FINISHED_PHASES, UthBetRecord, UthEvent, UthHand, UthRound, UthTable
from poker_site.accounts.models import User
from wallet import errors as wallet_errors
from wallet.models import Account, AccountKind, Transfer
from wallet.services import TransferLeg, player_cash_account, reference_account, system_account, transfer_create


def now_or(now: datetime | None) -> datetime:
    return now if now is not None else timezone.now()


def table_or_refuse(table_id: object) -> UthTable:
    if type(table_id) is not int:
        raise TableNotFound("There is no such Ultimate Texas Hold'em table.")
    table = UthTable.objects.filter(pk=table_id).first()
    if table is None:
        raise TableNotFound("There is no such Ultimate Texas Hold'em table.")
    return table


def active_round(table_id: int) -> UthRound | None:
    """The table's round that is not yet settled or cancelled (at most one, a database constraint ensures it)."""
    return UthRound.objects.filter(table_id=table_id).exclude(phase__in=FINISHED_PHASES).first()


def share_lock_round(round_id: int) -> UthRound:
    """Lock the round row FOR SHARE (players in parallel; the ticker's phase change waits) and read it afresh."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT id FROM uth_uthround WHERE id = %s FOR SHARE", [round_id])
    return UthRound.objects.get(pk=round_id)


# --- conversions between rows and engine values ----------------------------------------------------------------------


def slip_of(hand: UthHand) -> BetSlip:
    return BetSlip(tuple(BetStep(StepKind(kind), int(ante), int(trips)) for kind, ante, trips in hand.steps))


def steps_of(slip: BetSlip) -> list[list[Any]]:
    return [[step.kind.value, step.ante, step.trips] for step in slip.steps]


def engine_hand(hand: UthHand) -> PlayerHand:
    return PlayerHand(
        ante=int(hand.ante),
        trips=int(hand.trips),
        play=int(hand.play),
        folded=hand.folded,
        decisions=tuple(
            DecisionRecord(Phase(item["phase"]), Decision(item["decision"]), bool(item["automatic"]))
            for item in hand.decisions
        ),
    )


def decision_json(record: DecisionRecord, at: datetime) -> dict[str, Any]:
    return {
        "phase": record.phase.value,
        "decision": record.decision.value,
        "automatic": record.automatic,
        "label": record.label,
        "at": at.isoformat(),
    }


# --- money -----------------------------------------------------------------------------------------------------------


def bets_in_play_account(round_: UthRound) -> Account:
    return reference_account(AccountKind.UTH_BETS_IN_PLAY, round_.wallet_reference)


def lock_accounts(accounts: list[Account]) -> None:
    """Lock every account a service will move money on, in primary-key order, before its first transfer. Separate
    transfers would otherwise lock them in a different order each (deadlock with a parallel settlement)."""
    account_ids = sorted({account.pk for account in accounts})
    list(Account.objects.select_for_update().filter(pk__in=account_ids).order_by("pk").values_list("pk", flat=True))


def stake_money(
    *, round_: UthRound, player: User, amount: int, idempotency_key: str, kind: str, description: str
) -> Transfer:
    """Move ``amount`` cents from the player's cash to the round's bets in play (placing a bet or a PLAY)."""
    cash = player_cash_account(player)
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


def settle_money(*, round_: UthRound, hand: UthHand, returned: int) -> Transfer:
    """Settle a hand: its whole stake leaves the bets in play; ``returned`` goes to the player, the rest (negative
    when the player won more than they staked) to the house's UTH result."""
    stake = hand.stake
    house = stake - returned
    legs = [TransferLeg(bets_in_play_account(round_), -stake)]
    if returned:
        legs.append(TransferLeg(player_cash_account(hand.player), returned))
    if house:
        legs.append(TransferLeg(system_account(AccountKind.HOUSE_UTH_RESULT), house))
    return transfer_create(
        kind="uth_settlement",
        legs=legs,
        idempotency_key=f"uth-settle:{hand.pk}",
        reference=round_.wallet_reference,
        description=f"UTH game {round_.game_number}: settlement of {hand.player}",
    )


# --- the bet record ---------------------------------------------------------------------------------------------------


def next_record_number(hand: UthHand) -> int:
    """The number the hand's next record gets; the caller holds the hand row's lock, so numbers are gap-free."""
    if hand.pk is None:
        return 1
    return (hand.records.order_by("-number").values_list("number", flat=True).first() or 0) + 1


def record_key(hand: UthHand, number: int) -> str:
    """The idempotency key of the money movement of the hand's record ``number``."""
    return f"uth-hand:{hand.pk}:record:{number}"


def add_record(hand: UthHand, kind: str, *, number: int, at: datetime, **fields: Any) -> UthBetRecord:
    return UthBetRecord.objects.create(hand=hand, number=number, kind=kind, created_at=at, **fields)


# --- the public event log -------------------------------------------------------------------------------------------


@dataclass
class EventLog:
    """Appends public events of one table in the current transaction and publishes them after it commits."""

    table_id: int
    first: int | None = None
    last: int | None = None
    pending: list[UthEvent] = field(default_factory=list)

    def add(self, kind: str, payload: dict[str, Any], *, round_: UthRound | None, at: datetime) -> int:
        UthTable.objects.filter(pk=self.table_id).update(last_sequence=F("last_sequence") + 1)
        sequence = UthTable.objects.values_list("last_sequence", flat=True).get(pk=self.table_id)
        UthEvent.objects.create(
            table_id=self.table_id, sequence=sequence, round=round_, kind=kind, payload=payload, created_at=at
        )
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
