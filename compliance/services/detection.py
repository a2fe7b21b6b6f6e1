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
"""

from __future__ import annotations

import logging
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
"""A batch's fixed cost (the accumulators read and written, every flag computed and stored, the cursors' queries) is
about 0.1 s of CPU: at 100 hands a batch it held the service under 200 hands/s on this machine, at 500 above it
(docs/benchmarks.md, ``bench_detection_service.py``). The flags are locked only while they are stored, at the end."""
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


@transaction.atomic(durable=True)
def detection_advance(*, hands_per_batch: int = HANDS_PER_BATCH, now: datetime | None = None) -> DetectionBatch:
    """Feed one batch to the detector and store the flags (see the module docstring)."""
    settled = (now or timezone.now()) - timedelta(seconds=SETTLE_SECONDS)
    row, _ = DetectorState.objects.select_for_update().get_or_create(name="site")
    detector = _detector(row, detector_parameters())
    connections, more_connections = _connections(row, detector, settled)
    counters, more_counters = _counters(row, detector, settled)
    hands, more_hands = _hands(row, detector, hands_per_batch)
    more = more_connections or more_counters or more_hands
    if not (connections or counters or hands):
        row.updated_at = timezone.now()
        row.save(update_fields=["connections_cursor", "sessions_cursor", "hands_cursor", "updated_at"])
        return DetectionBatch(0, 0, 0, 0, more)
    raised = flags_store(detector.flags(), judged=judged_indicators(detector))
    row.state = detector.state()
    row.updated_at = timezone.now()
    row.save()
    return DetectionBatch(hands, connections, counters, raised, more)


@transaction.atomic(durable=True)
def flags_recompute() -> int:
    """Write the flags the stored accumulators give under the thresholds in force now (after staff changed one),
    retracting the open ones no longer found; returns how many were new or reopened."""
    row = DetectorState.objects.select_for_update().filter(name="site").first()
    if row is None or not row.state:
        return 0
    detector = _detector(row, detector_parameters())
    return flags_store(detector.flags(), judged=judged_indicators(detector))


def judged_indicators(detector: Detector) -> list[str]:
    """The indicators whose findings are complete: every one that has been fed something it can judge (the detector's
    accumulators hold everything fed since the start, so its findings are all there are)."""
    without = set(detector.indicators_without_data())
    return [name for name in detector.indicators if name not in without]
