"""The ``uth`` ticker handler: opens betting times, closes them, ends decision phases (poker_site.core.ticker).

Each step is a separate durable transaction claimed by compare-and-swap, so running the handler twice, or in two ticker
processes at once, advances every round exactly once. Deadlines live in PostgreSQL; a restarted ticker loses none.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db.models import Exists, OuterRef, Q, QuerySet, Value

from games.engine.cards import Shuffler
from games.engine.uth.round import Phase
from games.uth.models import HandStatus, UthHand, UthRound, UthTable
from games.uth.services import REVEAL_PAUSE, uth_betting_close, uth_phase_end, uth_round_open
from poker_site.core.prepared_queries import PreparedQuery
from poker_site.core.ticker import register

logger = logging.getLogger(__name__)

DECISION_PHASES = (Phase.PREFLOP.value, Phase.FLOP.value, Phase.RIVER.value)


def _rounds_whose_betting_is_over(now: datetime) -> QuerySet[UthRound]:
    return UthRound.objects.filter(phase=Phase.BETTING.value, paused_at=None, phase_deadline__lte=now)


def _rounds_whose_decision_phase_is_over(now: datetime, revealed_by: datetime) -> QuerySet[UthRound]:
    """Past its deadline, or everyone decided and the cards have been on the table for ``REVEAL_PAUSE``."""
    awaiting = UthHand.objects.filter(round=OuterRef("pk"), status=HandStatus.IN_PLAY, awaiting_decision=True)
    return UthRound.objects.filter(phase__in=DECISION_PHASES, paused_at=None).filter(
        Q(phase_deadline__lte=now) | (Q(phase_started_at__lte=revealed_by) & ~Exists(awaiting))
    )


_OPEN, _CLOSE, _PHASE_END = 0, 1, 2
"""The steps, in the order a tick takes them: open tables' next rounds, close betting times, end decision phases."""


def _due_steps(now: datetime, revealed_by: datetime) -> QuerySet[UthTable, tuple[int, int]]:
    """(step, table or round id) of every due step, in step order: the three polls in one statement."""
    tables = (
        UthTable.objects.filter(is_open=True, next_round_at__lte=now)
        .annotate(step=Value(_OPEN))
        .values_list("step", "pk")
        .order_by()
    )
    betting_over = _rounds_whose_betting_is_over(now).annotate(step=Value(_CLOSE)).values_list("step", "pk").order_by()
    phases_over = (
        _rounds_whose_decision_phase_is_over(now, revealed_by)
        .annotate(step=Value(_PHASE_END))
        .values_list("step", "pk")
        .order_by()
    )
    return tables.union(betting_over, phases_over, all=True).order_by("step", "pk")


# The ticker asks this several times a second: compiled once (poker_site.core.prepared_queries), one round trip.
_DUE_STEPS = PreparedQuery(_due_steps, ["now", "revealed_by"])


@register("uth")
def advance_uth_tables(now: datetime, shuffler: Shuffler | None = None) -> int:
    """Advance every due UTH deadline once; returns how many were advanced. ``shuffler`` is injected by tests
    (production: None, the round's provably fair deck).

    The due steps are read once, at the start of the tick: a round opened by this tick is closed by a later one (its
    betting time is still running), as when each step was polled separately."""
    advanced = 0
    for step, identifier in _DUE_STEPS.rows(now=now, revealed_by=now - REVEAL_PAUSE):
        if step == _OPEN:
            advanced += _safely(
                lambda table_id=identifier: uth_round_open(table_id, now=now) is not None, "open", identifier
            )
        elif step == _CLOSE:
            advanced += _safely(
                lambda round_id=identifier: uth_betting_close(round_id, now=now, shuffler=shuffler), "close", identifier
            )
        else:
            advanced += _safely(lambda round_id=identifier: uth_phase_end(round_id, now=now), "phase end", identifier)
    return advanced


def _safely(step: object, what: str, identifier: int) -> int:
    """Run one step; a failure is logged and does not stop the other tables (it is retried on the next tick)."""
    assert callable(step)
    try:
        return 1 if step() else 0
    except Exception:
        logger.exception("UTH %s failed for %s", what, identifier)
        return 0
