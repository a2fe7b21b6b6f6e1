"""The incremental fraud detection on the site's stored data (FRD-19): one small batch at a time, never a rescan.

:func:`detection_advance` locks the one :class:`~compliance.models.DetectorState` row, continues the detector from its
stored accumulators with the thresholds staff set (:mod:`compliance.services.thresholds`), feeds it what came since
the cursors, stores the accumulators and cursors, and writes the flags it computes now
(:func:`compliance.services.flags.flags_store`), all in one transaction:

1. connection records (socket connects to tables) with an id past ``connections_cursor``;
2. counted ratholing returns and Banzai Resets from table sessions past ``sessions_cursor``;
3. hands past ``hands_cursor`` in id order, up to the first hand still running (it stops the cursor until it ends,
   so a long hand is never skipped): finished hands are fed (a tournament's with the tournament as their place, as
   its players' socket connects are), cancelled ones (they moved nothing) are passed over.

Connection and session rows are read once they are :data:`SETTLE_SECONDS` old, so a row whose transaction committed
after a later id's cannot be passed over. The Celery task (:mod:`compliance.tasks`) runs batches after hands settle
and on a beat; two runs at once queue on the row lock and the second finds nothing left to read.

Two costs of a batch grow with the history the accumulators hold, not with what the batch reads (second room of
``benchmarks/bench_detection.py``, 20,000 hands: 4 MB of accumulators, about 1 s to read and write them and 1 s to
compute every flag; at 200,000 hands ten times that and more). Paid for every :data:`HANDS_PER_BATCH` hands, they held
the service under the 200 hands a second it must keep up with once a site had a few days of history. So:

* a batch goes on reading, :data:`HANDS_PER_BATCH` hands at a time, while what it has fed took less than
  :data:`FEED_TO_LOAD_RATIO` times what reading the accumulators took (at most :data:`MOST_BATCH_SECONDS`), and writes
  them once at its end;
* the flags are computed when they are due (:func:`flags_due`): always while a computation is cheap (under
  :data:`FLAGS_ALWAYS_UNDER_SECONDS`), otherwise once :data:`FLAGS_EVERY_COST_MULTIPLE` times the last computation's
  duration has passed since it, so computing them takes about a tenth of the detection's time however long the
  history. A batch that fed something without computing them marks the row ``flags_behind``; a later batch (the
  beat's sweep when nothing new comes) computes them once due. A flag therefore reaches the desk within about ten
  times its computation's cost (seconds at a small site, a few minutes at hundreds of thousands of hands).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from compliance.detection.detector import Detector
from compliance.detection.flags import StateError
from compliance.detection.records import ConnectionRecord as ConnectionInput
from compliance.detection.records import RecordError
from compliance.hand_records import counter_records, hand_records_read, user_key
from compliance.models import ConnectionKind, ConnectionRecord, DetectorState
from compliance.services.flags import flags_store
from compliance.services.thresholds import detector_parameters

logger = logging.getLogger(__name__)

HANDS_PER_BATCH = 500
"""Hands read at a time. A batch reads more of them while it is cheap next to the accumulators' reading (see
:data:`FEED_TO_LOAD_RATIO`); at 100 hands a read, the fixed cost of a short history (about 0.1 s of CPU) held the
service under 200 hands/s on this machine, at 500 above it (docs/benchmarks.md, ``bench_detection_service.py``). The
flags are locked only while they are stored, at the end."""
FEED_TO_LOAD_RATIO = 10.0
"""A batch goes on reading while what it fed took less than this many times the accumulators' reading (their writing
costs about as much again): the fixed cost stays under about a fifth of a batch whatever the history (at 4 it was a
third, and the service stayed under 200 hands/s with 20,000 hands of history: ``bench_detection_service.py``)."""
MOST_BATCH_SECONDS = 30.0
"""A batch stops reading after this long whatever the ratio (its transaction and the detector row's lock stay short)."""
FLAGS_ALWAYS_UNDER_SECONDS = 0.25
"""Flags that took less than this to compute are computed at every batch that fed something (a small site, tests)."""
FLAGS_EVERY_COST_MULTIPLE = 10.0
"""Otherwise the flags are computed again once this many times the last computation's duration has passed."""
ROWS_PER_BATCH = 2_000
SETTLE_SECONDS = 10
"""Connection and session rows younger than this wait for the next batch (see the module docstring)."""


@dataclass(frozen=True)
class DetectionBatch:
    """What one batch fed, how many flags it raised, and whether more was waiting when it stopped."""

    hands: int
    connections: int
    counters: int
    flags_raised: int
    more: bool
    flags_computed: bool = False


def _detector(row: DetectorState, parameters: dict[str, dict[str, Any]]) -> Detector:
    if not row.state:
        return Detector(parameters)
    try:
        return Detector.from_state(row.state, parameters=parameters)
    except StateError:
        # A state of another format: start fresh accumulators from the cursors on (history is not read again).
        logger.exception("compliance detector state unreadable; starting new accumulators at hand %s", row.hands_cursor)
        return Detector(parameters)


def _connections(row: DetectorState, detector: Detector, settled: datetime) -> tuple[int, bool]:
    rows = list(
        ConnectionRecord.objects.filter(pk__gt=row.connections_cursor, at__lt=settled)
        .order_by("pk")
        .values("pk", "user_id", "kind", "place", "ip", "device", "at")[:ROWS_PER_BATCH]
    )
    fed = 0
    for record in rows:
        if record["kind"] == ConnectionKind.TABLE_SOCKET and record["place"] and (record["ip"] or record["device"]):
            detector.feed_connection(
                ConnectionInput(
                    player=user_key(record["user_id"]),
                    place=record["place"],
                    at=record["at"].timestamp(),
                    ip=record["ip"],
                    device=record["device"] or None,
                )
            )
            fed += 1
        row.connections_cursor = record["pk"]
    return fed, len(rows) == ROWS_PER_BATCH


def _counters(row: DetectorState, detector: Detector, settled: datetime) -> tuple[int, bool]:
    from games.models import TableSession

    sessions = list(
        TableSession.objects.filter(pk__gt=row.sessions_cursor, started_at__lt=settled).order_by("pk")[:ROWS_PER_BATCH]
    )
    records = counter_records(sessions)
    for record in records:
        detector.feed_counter(record)
    if sessions:
        row.sessions_cursor = sessions[-1].pk
    return len(records), len(sessions) == ROWS_PER_BATCH


def _hands(row: DetectorState, detector: Detector, limit: int) -> tuple[int, bool]:
    from games.models import Hand, HandStatus
    from tournaments.models import TournamentTable

    pending = Hand.objects.filter(pk__gt=row.hands_cursor)
    running = pending.filter(status=HandStatus.RUNNING).order_by("pk").values_list("pk", flat=True).first()
    if running is not None:
        pending = pending.filter(pk__lt=running)
    hands = list(pending.select_related("table", "game_rules").order_by("pk")[:limit])
    tournaments = dict(
        TournamentTable.objects.filter(table_id__in={hand.table_id for hand in hands}).values_list(
            "table_id", "tournament_id"
        )
    )
    records = hand_records_read([hand for hand in hands if hand.status == HandStatus.FINISHED])
    fed = 0
    for hand in hands:
        row.hands_cursor = hand.pk
        if hand.status != HandStatus.FINISHED:
            continue
        record = records[hand.pk]
        if isinstance(record, RecordError):
            logger.error(
                "compliance detection passed over hand %s: its record cannot be built", hand.pk, exc_info=record
            )
            continue
        if hand.table_id in tournaments:  # the tournament is the place, as for its players' sockets
            record = replace(record, tournament_id=f"tournament:{tournaments[hand.table_id]}")
        detector.feed_hand(record)
        fed += 1
    row.hands_fed += fed
    return fed, len(hands) == limit


def flags_due(row: DetectorState, moment: datetime) -> bool:
    """Whether a batch at ``moment`` computes the flags (when something was fed since they were last computed): see
    the module docstring."""
    if row.flags_computed_at is None or row.flags_seconds < FLAGS_ALWAYS_UNDER_SECONDS:
        return True
    return moment - row.flags_computed_at >= timedelta(seconds=FLAGS_EVERY_COST_MULTIPLE * row.flags_seconds)


def _flags_compute(row: DetectorState, detector: Detector) -> int:
    """Store every flag the accumulators give now (retracting open ones no longer found) and note when and how long."""
    began = time.perf_counter()
    raised = flags_store(detector.flags(), judged=judged_indicators(detector))
    row.flags_seconds = time.perf_counter() - began
    row.flags_computed_at = timezone.now()
    row.flags_behind = False
    return raised


def _anything_waiting(row: DetectorState, settled: datetime) -> bool:
    """Whether any row past the cursors is ready to be read (so an idle run need not read the accumulators)."""
    from games.models import Hand, TableSession

    return (
        ConnectionRecord.objects.filter(pk__gt=row.connections_cursor, at__lt=settled).exists()
        or TableSession.objects.filter(pk__gt=row.sessions_cursor, started_at__lt=settled).exists()
        or Hand.objects.filter(pk__gt=row.hands_cursor).exists()
    )


@transaction.atomic(durable=True)
def detection_advance(*, hands_per_batch: int = HANDS_PER_BATCH, now: datetime | None = None) -> DetectionBatch:
    """Feed one batch to the detector, store the accumulators and, when due, the flags (see the module docstring)."""
    settled = (now or timezone.now()) - timedelta(seconds=SETTLE_SECONDS)
    row, _ = DetectorState.objects.select_for_update().get_or_create(name="site")
    flags_wanted = row.flags_behind and flags_due(row, timezone.now())
    if not flags_wanted and not _anything_waiting(row, settled):
        row.updated_at = timezone.now()
        row.save(update_fields=["updated_at"])
        return DetectionBatch(0, 0, 0, 0, False)
    loading_began = time.perf_counter()
    detector = _detector(row, detector_parameters())
    loading = time.perf_counter() - loading_began
    connections = counters = hands = 0
    feeding_began = time.perf_counter()
    while True:
        fed_connections, more_connections = _connections(row, detector, settled)
        fed_counters, more_counters = _counters(row, detector, settled)
        fed_hands, more_hands = _hands(row, detector, hands_per_batch)
        connections, counters, hands = connections + fed_connections, counters + fed_counters, hands + fed_hands
        more = more_connections or more_counters or more_hands
        feeding = time.perf_counter() - feeding_began
        if not more or feeding >= min(MOST_BATCH_SECONDS, FEED_TO_LOAD_RATIO * loading):
            break
    fed = bool(connections or counters or hands)
    row.flags_behind = row.flags_behind or fed
    raised = 0
    flags_computed = row.flags_behind and flags_due(row, timezone.now())
    if flags_computed:
        raised = _flags_compute(row, detector)
    row.updated_at = timezone.now()
    if fed:
        row.state = detector.state()
        row.save()
    else:
        row.save(
            update_fields=[
                "connections_cursor",
                "sessions_cursor",
                "hands_cursor",
                "updated_at",
                "flags_behind",
                "flags_computed_at",
                "flags_seconds",
            ]
        )
    return DetectionBatch(hands, connections, counters, raised, more, flags_computed)


@transaction.atomic(durable=True)
def flags_recompute() -> int:
    """Write the flags the stored accumulators give under the thresholds in force now (after staff changed one),
    retracting the open ones no longer found; returns how many were new or reopened."""
    row = DetectorState.objects.select_for_update().filter(name="site").first()
    if row is None or not row.state:
        return 0
    detector = _detector(row, detector_parameters())
    raised = _flags_compute(row, detector)
    row.save(update_fields=["flags_behind", "flags_computed_at", "flags_seconds"])
    return raised


def judged_indicators(detector: Detector) -> list[str]:
    """The indicators whose findings are complete: every one that has been fed something it can judge (the detector's
    accumulators hold everything fed since the start, so its findings are all there are)."""
    without = set(detector.indicators_without_data())
    return [name for name in detector.indicators if name not in without]
