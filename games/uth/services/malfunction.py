"""Error handling by staff: pause a round while an issue is investigated, resume it, or cancel it and refund every
bet (UTH-36, UTH-37, AMB-37, GEN-04 "malfunction voids all pays and plays").

Every action needs a reason and is written to the wallet's audit trail with who did it (LOB-10).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F

from games.uth.errors import RoundNotChangeable, UthRefused
from games.uth.models import HandStatus, RecordKind, UthBetRecord, UthHand, UthRound, UthTable
from games.uth.readside import round_public
from games.uth.services.common import (
    EventLog,
    bets_in_play_account,
    next_record_numbers,
    notify_player,
    now_or,
    pay_out,
)
from games.uth.services.fairness import round_reveal
from poker_site.accounts.models import User
from wallet.services import audit_record, balance_of


def _reason(reason: object) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise UthRefused("Say why: a reason is required for the audit trail.", code="reason_required")
    return reason.strip()[:200]


def _locked_round(round_id: int) -> UthRound:
    round_ = UthRound.objects.select_for_update(of=("self",)).select_related("table").filter(pk=round_id).first()
    if round_ is None:
        raise RoundNotChangeable("There is no such round.")
    if round_.engine_phase.is_over:
        raise RoundNotChangeable(f"Game {round_.game_number} is already {round_.phase}; it cannot be changed.")
    return round_


@transaction.atomic(durable=True)
def uth_round_cancel(round_id: int, *, reason: str, by: User | None = None, now: datetime | None = None) -> int:
    """Cancel a round that is not finished and refund every stake placed in it — ANTE, BLIND, TRIPS and any PLAY
    (UTH-36, AMB-37). Returns the cents refunded."""
    moment = now_or(now)
    why = _reason(reason)
    round_ = _locked_round(round_id)
    hands = list(
        UthHand.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(round=round_, status__in=(HandStatus.BETTING, HandStatus.IN_PLAY))
        .order_by("pk")
    )
    staked = [hand for hand in hands if hand.stake > 0]
    paid = pay_out(
        round_=round_,
        payouts=[(hand, hand.stake) for hand in staked],
        kind="uth_refund",
        key=f"uth-refund:{round_.pk}",
        description=f"UTH game {round_.game_number} cancelled: {why}",
    )
    numbers = next_record_numbers(staked)
    UthBetRecord.objects.bulk_create(
        UthBetRecord(
            hand=hand,
            number=numbers[hand.pk],
            kind=RecordKind.REFUND,
            amount=hand.stake,
            transfer=transfer,
            created_at=moment,
        )
        for hand, transfer in paid
    )
    for hand, transfer in paid:
        audit_record(
            action="uth_round_refund",
            actor=by,
            player=hand.player,
            transfer=transfer,
            reason=why,
            details={"game_number": round_.game_number, "amount": hand.stake},
        )
        notify_player(round_.table_id, hand.player_id)
    refunded = sum(hand.stake for hand in staked)
    for hand in hands:
        stake = hand.stake
        hand.status = HandStatus.REFUNDED if stake else HandStatus.EMPTY
        hand.refunded = stake
        hand.awaiting_decision = False
        hand.version += 1
    UthHand.objects.bulk_update(hands, ["status", "refunded", "awaiting_decision", "version", "last_record_number"])
    if staked and balance_of(bets_in_play_account(round_)) != 0:
        raise RuntimeError(f"UTH round {round_.game_number} did not refund every cent of its bets in play")
    UthRound.objects.filter(pk=round_.pk).update(
        phase="cancelled",
        cancel_reason=why,
        cancelled_by=by,
        finished_at=moment,
        phase_deadline=None,
        paused_at=None,
        version=F("version") + 1,
    )
    audit_record(
        action="uth_round_cancel",
        actor=by,
        reason=why,
        details={"game_number": round_.game_number, "refunded": refunded, "hands": len(staked)},
    )
    round_.refresh_from_db()
    UthTable.objects.filter(pk=round_.table_id).update(
        next_round_at=moment + timedelta(seconds=round_.table.result_seconds)
    )
    events = EventLog(round_.table_id)
    events.add(
        "round_cancelled", {"round": round_public(round_), "refunded_players": len(staked)}, round_=round_, at=moment
    )
    round_reveal(events, round_, moment)
    return refunded


@transaction.atomic(durable=True)
def uth_round_pause(round_id: int, *, reason: str, by: User | None = None, now: datetime | None = None) -> None:
    """Pause the round while an error is investigated (UTH-36): no bets, decisions or timeouts until resumed."""
    moment = now_or(now)
    why = _reason(reason)
    round_ = _locked_round(round_id)
    if round_.paused_at is not None:
        raise RoundNotChangeable(f"Game {round_.game_number} is already paused.")
    UthRound.objects.filter(pk=round_.pk).update(paused_at=moment, pause_reason=why, version=F("version") + 1)
    audit_record(action="uth_round_pause", actor=by, reason=why, details={"game_number": round_.game_number})
    round_.refresh_from_db()
    EventLog(round_.table_id).add("round_paused", {"round": round_public(round_)}, round_=round_, at=moment)


@transaction.atomic(durable=True)
def uth_round_resume(round_id: int, *, by: User | None = None, now: datetime | None = None) -> None:
    """Resume a paused round; its deadline moves on by the time it was paused, so nobody loses decision time."""
    moment = now_or(now)
    round_ = _locked_round(round_id)
    if round_.paused_at is None:
        raise RoundNotChangeable(f"Game {round_.game_number} is not paused.")
    paused_for = moment - round_.paused_at
    deadline = round_.phase_deadline + paused_for if round_.phase_deadline is not None else None
    UthRound.objects.filter(pk=round_.pk).update(
        paused_at=None,
        pause_reason="",
        phase_deadline=deadline,
        phase_started_at=round_.phase_started_at + paused_for,
        version=F("version") + 1,
    )
    audit_record(
        action="uth_round_resume",
        actor=by,
        reason=f"resumed after {paused_for.total_seconds():.0f} s",
        details={"game_number": round_.game_number},
    )
    round_.refresh_from_db()
    EventLog(round_.table_id).add("round_resumed", {"round": round_public(round_)}, round_=round_, at=moment)
