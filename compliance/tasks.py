"""Celery tasks of the compliance desk: the incremental fraud detection (FRD-19).

* ``compliance_detect`` — batches of :func:`compliance.services.detection_advance` until nothing is left to read (at
  most :data:`MOST_BATCHES` per run). Queued after hands settle (:func:`detection_soon`, at most once per
  :data:`QUEUE_WINDOW_MILLISECONDS`, so a busy site feeds hands in batches rather than one task per hand: a
  batch's fixed cost — reading and writing the accumulators, computing every flag — grows with the state) and
  run by the beat every ``COMPLIANCE_SWEEP_SECONDS`` in case a queued run was lost, and to compute flags a busy run
  left for later (their cadence: :func:`compliance.services.detection.flags_due`). Idempotent: a run reads only past
  the stored cursors.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import OperationalError

logger = logging.getLogger(__name__)

MOST_BATCHES = 50
QUEUE_WINDOW_MILLISECONDS = 15_000


@shared_task(
    name="compliance.tasks.compliance_detect",
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def compliance_detect() -> dict[str, Any]:
    from compliance.services import detection_advance

    totals = {"batches": 0, "hands": 0, "connections": 0, "counters": 0, "flags_raised": 0}
    for _ in range(MOST_BATCHES):
        batch = detection_advance()
        totals["batches"] += 1
        totals["hands"] += batch.hands
        totals["connections"] += batch.connections
        totals["counters"] += batch.counters
        totals["flags_raised"] += batch.flags_raised
        if not batch.more:
            break
    return totals


def detection_soon(**_kwargs: Any) -> None:
    """Queue ``compliance_detect`` (the receiver of ``games.runtime.signals.hand_settled``); when Redis or the broker
    cannot take it, the beat's sweep reads the hand within ``COMPLIANCE_SWEEP_SECONDS``."""
    from poker_site.core.publish import first_in_window

    try:
        if first_in_window(f"{settings.REDIS_KEY_PREFIX}:compliance-detect-queued", QUEUE_WINDOW_MILLISECONDS):
            compliance_detect.apply_async(countdown=QUEUE_WINDOW_MILLISECONDS / 1000)
    except Exception:  # the beat covers it
        logger.warning("could not queue the compliance detection", exc_info=True)
