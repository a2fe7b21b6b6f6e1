"""A player's PLAY / CHECK / FOLD decision in the current decision phase (UTH-09..UTH-12, AMB-39)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from games.engine.uth.round import Decision, IllegalDecision
from games.uth.conversions import decision_json, engine_hand
from games.uth.errors import DecisionRefused, NoBetsInRound
from games.uth.models import HandStatus, RecordKind, UthHand
from games.uth.services.common import (
    add_record,
    next_record_number,
    notify_decision_stats,
    notify_player,
    now_or,
    record_key,
    refuse_unknown_table,
    share_locked_active_round,
    stake_money,
)
from poker_site.accounts.models import User
from poker_site.core.compiled_sql import CompiledSelect
from wallet.services import player_cash_account


def parse_decision(value: object) -> Decision:
    try:
        return Decision(str(value)) if isinstance(value, str) else Decision("")
    except ValueError:
        choices = ", ".join(decision.value for decision in Decision)
        raise DecisionRefused(f"Unknown decision; choose one of {choices}.") from None


_HAND_LOCKED = CompiledSelect(
    lambda round_id, player_id: (
        UthHand.objects.select_for_update().filter(round_id=round_id, player_id=player_id).order_by("pk")
    ),
    2,
)
"""The player's hand in the round, locked (a player has one hand a round): compiled once, read on every decision."""


@transaction.atomic(durable=True)
def uth_decide(user: User, table_id: int, decision: object, *, now: datetime | None = None) -> UthHand:
    """Take ``decision`` for the player's own hand in the current phase. A PLAY bet moves ``multiple × Ante`` to the
    round's bets in play; options the balance cannot cover are refused (AMB-39)."""
    moment = now_or(now)
    chosen = parse_decision(decision)
    round_ = share_locked_active_round(table_id) if type(table_id) is int else None
    if round_ is None:
        refuse_unknown_table(table_id)
        raise NoBetsInRound("No round is in play at this table right now.")
    hand = _HAND_LOCKED.first(round_.pk, user.pk)
    if hand is None or hand.status not in (HandStatus.IN_PLAY, HandStatus.BETTING):
        raise NoBetsInRound("You have no bets in this round, so there is nothing to decide.")
    phase = round_.engine_phase
    if phase.is_decision:
        if round_.paused_at is not None:
            raise DecisionRefused("The round is paused while an issue is investigated; decide when it resumes.")
        if round_.phase_deadline is not None and moment >= round_.phase_deadline:
            raise DecisionRefused("The decision time for this phase has run out.")
    cash = player_cash_account(user)
    available = int(cash.balance)
    try:
        decided = engine_hand(hand).decide(phase, chosen, available)
    except IllegalDecision as error:
        raise DecisionRefused(str(error)) from None
    record = decided.decisions[-1]
    number = next_record_number(hand)
    cost = decided.play - int(hand.play)
    transfer = None
    if cost:
        transfer = stake_money(
            round_=round_,
            player=user,
            amount=cost,
            idempotency_key=record_key(hand, number),
            kind="uth_bet",
            description=f"UTH game {round_.game_number}: {chosen.label}",
            cash=cash,
        )
    hand.play = decided.play
    hand.folded = decided.folded
    hand.decisions = [*hand.decisions, decision_json(record, moment)]
    hand.awaiting_decision = False
    hand.version += 1
    add_record(
        hand,
        RecordKind.DECISION,
        number=number,
        at=moment,
        hand_fields=("play", "folded", "decisions", "awaiting_decision", "version"),
        play_delta=cost,
        amount=-cost,
        decision=chosen.value,
        phase=phase.value,
        transfer=transfer,
    )
    notify_player(round_.table_id, user.pk)
    notify_decision_stats(round_.table_id, round_.pk)
    return hand
