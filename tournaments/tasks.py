"""Celery tasks of the tournaments (the product card: Celery handles blind-level clocks, breaks and payouts).

* ``tournaments_advance`` — the beat task: every live tournament moved on (``tournament_advance``), and any prize
  not yet credited handed to ``entry_prize_credit`` again (a worker that died between the place and the payment).
* ``tournament_coordinate`` — one tournament at once, asked for when one of its tables finishes a hand.
* ``entry_prize_credit`` — one prize, with retries; the ledger's idempotency key makes a repeat a no-op.

Every task is idempotent: run twice, or killed and run again, it leaves the same state.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import OperationalError

from poker_site.core.redis_clients import blocking_client

logger = logging.getLogger(__name__)


@shared_task(name="tournaments.tasks.tournaments_advance", ignore_result=True)
def tournaments_advance() -> dict[str, Any]:
    from tournaments.services import tournaments_advance_all

    return tournaments_advance_all()


COORDINATION_PENDING_SECONDS = 30
"""How long a queued coordination keeps others from being queued if its task is lost (the beat covers meanwhile)."""


def coordination_pending_key(tournament_id: int) -> str:
    return f"{settings.REDIS_KEY_PREFIX}:tournament:{int(tournament_id)}:coordination-pending"


@shared_task(
    name="tournaments.tasks.tournament_coordinate",
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def tournament_coordinate(tournament_id: int) -> bool:
    from tournaments.services import tournament_advance

    # From now on a hand that ends queues the next coordination: this one may already have read the tables.
    try:
        blocking_client().delete(coordination_pending_key(tournament_id))
    except Exception:  # the flag expires by itself
        logger.warning("could not clear the pending coordination of tournament %s", tournament_id, exc_info=True)
    return tournament_advance(tournament_id).changed


@shared_task(
    name="tournaments.tasks.entry_prize_credit",
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=10,
)
def entry_prize_credit(entry_id: int) -> bool:
    from tournaments.services import entry_prize_pay

    return entry_prize_pay(entry_id)


def tournament_coordinate_later(tournament_id: int, delay_seconds: float = 0.0) -> None:
    """Queue a coordination to run in ``delay_seconds`` unless one is queued already: at a thousand tables some twenty
    hands end each second, and one coordination deals with every table that finished since it last ran, so one
    queued at a time is enough (a Redis ``SET NX`` flag the task clears when it starts); the delay (the hand end's
    coordination window, ``tournaments.table_policy.coordination_window_seconds``) lets the hands ending meanwhile
    share it. When Redis or the broker cannot take it, the beat task does the same within seconds."""
    try:
        if not blocking_client().set(
            coordination_pending_key(tournament_id), "1", nx=True, ex=COORDINATION_PENDING_SECONDS
        ):
            return
        tournament_coordinate.apply_async((tournament_id,), countdown=delay_seconds if delay_seconds > 0 else None)
    except Exception:  # the beat task covers it
        logger.warning("could not queue the coordination of tournament %s", tournament_id, exc_info=True)


def entry_prize_credit_later(entry_id: int) -> None:
    try:
        entry_prize_credit.delay(entry_id)
    except Exception:  # the beat task's sweep credits it
        logger.warning("could not queue the prize of tournament entry %s", entry_id, exc_info=True)
