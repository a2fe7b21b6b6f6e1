"""Conversions between the UTH rows and the pure engine's values (bet slips, hands, decision records)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games.engine.uth.betting import BetSlip, BetStep, StepKind
from games.engine.uth.round import Decision, DecisionRecord, Phase, PlayerHand
from games.uth.models import UthHand

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


__all__ = ["decision_json", "engine_hand", "slip_of", "steps_of"]
