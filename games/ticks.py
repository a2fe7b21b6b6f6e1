"""The ``cash_tables`` ticker handler: advances every persisted cash-table deadline (architecture rule 5).

Each tick, in order: (once per ticker process) cancel hands a crash left unfinished (CASH-23/24); run out the action
clocks whose deadline passed (TB-04, TB-07, CASH-22); remove players whose sit-out limit passed (CASH-17, CASH-20);
seat queued players (CASH-05); deal at tables whose pause between hands is over (CASH-06). Every step re-checks its
deadline under the table lock, so running a tick twice, or in two ticker processes, has the effect of running it once.
"""

from __future__ import annotations

import logging
import sys
from datetime import datetime

from games.models import CashTable, Hand, HandStatus, Seat, SeatStatus, TableStatus
from games.services.hands import hand_start, hand_timeout
from games.services.recovery import hands_recover_unfinished
from games.services.seating import stake_queues_drain
from games.services.sitting_out import seat_sit_out_expire
from poker_site.core.ticker import register

logger = logging.getLogger(__name__)

startup_recovery_pending = len(sys.argv) > 1 and sys.argv[1] == "run_ticker"
"""True in the ``manage.py run_ticker`` process until its first tick has recovered unfinished hands. The ticker starts
with the site (the launcher stops every process when one dies), so any hand running then was cut off by a crash.
Elsewhere (web workers, tests, shells) recovery is only run explicitly."""


def _each(label: str, ids: list[int], step: object, now: datetime) -> int:
    advanced = 0
    for item_id in ids:
        try:
            advanced += bool(step(item_id, now=now))  # type: ignore[operator]
        except Exception:
            logger.exception("cash_tables: %s %s failed", label, item_id)
    return advanced


def _table_start(table_id: int, *, now: datetime) -> bool:
    table = CashTable.objects.get(pk=table_id)
    return hand_start(table, now=now) is not None


@register("cash_tables")
def cash_tables_tick(now: datetime) -> int:
    """Advance every cash-table deadline that has passed at ``now``; return how many were advanced."""
    global startup_recovery_pending
    advanced = 0
    if startup_recovery_pending:
        cancelled = hands_recover_unfinished(now=now)
        if cancelled:
            logger.warning("cash_tables: cancelled %d hands left unfinished by a crash: %s", len(cancelled), cancelled)
        advanced += len(cancelled)
        startup_recovery_pending = False
    hands = list(
        Hand.objects.filter(status=HandStatus.RUNNING, action_deadline__lte=now)
        .order_by("action_deadline", "pk")
        .values_list("pk", flat=True)
    )
    advanced += _each("hand clock", hands, hand_timeout, now)
    seats = list(
        Seat.objects.filter(status=SeatStatus.SITTING_OUT, sit_out_deadline__lte=now)
        .order_by("table_id", "pk")
        .values_list("pk", flat=True)
    )
    advanced += _each("sit-out limit", seats, seat_sit_out_expire, now)
    try:
        advanced += stake_queues_drain(now=now)
    except Exception:
        logger.exception("cash_tables: seating queue failed")
    tables = list(
        CashTable.objects.filter(status=TableStatus.OPEN, current_hand__isnull=True, next_hand_at__lte=now)
        .order_by("next_hand_at", "pk")
        .values_list("pk", flat=True)
    )
    advanced += _each("hand start", tables, _table_start, now)
    return advanced
