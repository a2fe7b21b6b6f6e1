"""Start-up recovery (CASH-23, CASH-24, GEN-04): hands left unfinished by a crash are cancelled.

A hand moves money only in its settlement transfer at the end, so an unfinished hand has moved none: cancelling it
restores every player's stack to its start-of-hand amount by construction. The cancellation is recorded with the hand
(status, reason, a ``hand_cancelled`` event listing the restored stacks); players who asked to leave during the hand are
cashed out and pending sit-outs take effect, as after any hand.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.db.models import Min
from django.utils import timezone
from redis import RedisError

from games.models import Hand, HandEvent, HandPlayer, HandStatus, Table
from games.runtime import inbox
from games.runtime.errors import OwnershipLost
from games.runtime.events import NewEvent
from games.runtime.fairness import reveal_events
from games.runtime.hand_log import hand_log_rows_after
from games.runtime.hands import HandContext, between_hands, hand_close
from games.runtime.locking import seats_lock, table_lock

logger = logging.getLogger(__name__)

# CASH-24 (server restart) and CASH-23 (server error): the words players see; the IDs stay in the code.
CRASH_REASON = "Server restart: the hand was cancelled and every stack restored to its start-of-hand amount."
SERVER_ERROR_REASON = (
    "A server error stopped this hand: it was cancelled and every stack restored to its start-of-hand amount."
)


@transaction.atomic(durable=True)
def hand_cancel(hand_id: int, *, reason: str = CRASH_REASON, now: datetime | None = None) -> bool:
    """Cancel the running hand ``hand_id`` (CASH-23): no money moves; return whether it was running."""
    moment = now or timezone.now()
    table_id = Hand.objects.filter(pk=hand_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return False
    table = table_lock(table_id)
    hand = Hand.objects.select_for_update().filter(pk=hand_id, status=HandStatus.RUNNING).first()
    if hand is None:
        return False
    context = HandContext(table, seats_lock(table), moment)
    _cancel_with_the_logged_events(context, hand, reason)
    return True


def _cancel_with_the_logged_events(context: HandContext, hand: Hand, reason: str) -> None:
    """Cancel ``hand`` at the locked table of ``context`` and append the events: first, for a hand a table actor held
    in memory, the events its hand log numbered (:func:`held_hand_logged_events`) at those numbers, then the
    cancellation above every number handed out."""
    logged, numbers = held_hand_logged_events(context.table, hand)
    context.events.extend(logged)
    hand_cancel_locked(context, hand, reason)
    context.commit_events(published=numbers)


def held_hand_logged_events(table: Table, hand: Hand) -> tuple[list[NewEvent], list[int]]:
    """The events of ``hand``, held in memory by a table actor that is gone, that its hand log numbered — published,
    or appended just before the owner died and never published — with their numbers, to be written at those numbers
    before the cancellation: a client that missed one then resyncs from the durable rows without a gap and receives
    the ``hand_cancelled`` event, and the cancelled hand keeps the record of its actions as on the per-action path.
    Empty when the hand was not held in memory, or when Redis cannot say (the cancellation then leaves a gap, and a
    client resyncing across it is sent a snapshot)."""
    if not table.hand_held_in_memory:
        return [], []
    # The hand's start is durable (``hand_begin``): what the log holds from before it is an earlier hand's. Read under
    # the table lock, the log cannot lose this hand's events meanwhile (only the hand's end or cancellation clears it).
    started = HandEvent.objects.filter(hand=hand).aggregate(first=Min("sequence"))["first"]
    if started is None:
        return [], []
    try:
        rows = hand_log_rows_after(table.pk, started)
    except RedisError:
        logger.warning("the hand log of table %s could not be read; its cancellation leaves a gap", table.pk)
        return [], []
    candidates = [row for row in rows if row.hand_id in (None, hand.pk)]
    # Never expected (the log's numbers are handed out apart from durable ones), but one already written would make
    # the insert fail and the takeover with it, for good.
    durable = set(
        HandEvent.objects.filter(table_id=table.pk, sequence__in=[row.sequence for row in candidates]).values_list(
            "sequence", flat=True
        )
    )
    kept = [row for row in candidates if row.sequence not in durable]
    events = [
        NewEvent(
            row.kind,
            row.payload,
            hand if row.hand_id == hand.pk else None,
            row.audience,
            row.private_to_seat,
            row.private_to_user_id,
        )
        for row in kept
    ]
    return events, [row.sequence for row in kept]


def hand_cancel_locked(context: HandContext, hand: Hand, reason: str) -> None:
    """Cancel ``hand``, running at the locked table of ``context``: every stack back to its start-of-hand amount (no
    money or chips moved yet), the cancellation recorded with the hand and told to the table, the table between hands.
    The caller appends the context's events."""
    hand.cancellation_reason = reason[:300]
    hand_close(hand, HandStatus.CANCELLED, context.now, "cancellation_reason")
    for player in HandPlayer.objects.filter(hand=hand):
        HandPlayer.objects.filter(pk=player.pk).update(end_stack=player.start_stack)
    stacks = {seat: data["stack"] for seat, data in sorted(hand.participants.items(), key=lambda item: int(item[0]))}
    context.events.append(
        NewEvent(
            "hand_cancelled", {"hand_number": hand.number, "reason": hand.cancellation_reason, "stacks": stacks}, hand
        )
    )
    context.events.extend(reveal_events(hand))
    if context.table.current_hand_id == hand.pk:
        between_hands(context, hand, counted=False)


@transaction.atomic(durable=True)
def table_take_over(table_id: int, epoch: int, *, now: datetime | None = None) -> int | None:
    """A runtime process has acquired the lease of ``table_id`` with fencing token ``epoch`` (issue 27, step 5): in
    one transaction, under the table lock, the table's ``owner_epoch`` becomes ``epoch`` — from then on the previous
    owner's hand start or end is refused (``hands.owner_epoch_check``) — and the hand it left in progress, if any, is
    cancelled with every stack back to its start-of-hand amount (CASH-23, TRN-33: no money moved yet). Returns the
    cancelled hand's id, or None.

    Refused with :class:`~games.runtime.errors.OwnershipLost` (nothing written) when the table already carries
    ``epoch`` or a later one: the lease is stale (the Redis epochs were reset below the database's)."""
    moment = now or timezone.now()
    table = table_lock(table_id)
    if table.owner_epoch >= epoch:
        raise OwnershipLost(table.pk, epoch, table.owner_epoch)
    Table.objects.filter(pk=table.pk).update(owner_epoch=epoch)
    table.owner_epoch = epoch
    if table.current_hand_id is None:
        return None
    hand = Hand.objects.select_for_update().filter(pk=table.current_hand_id, status=HandStatus.RUNNING).first()
    if hand is None:
        return None
    context = HandContext(table, seats_lock(table), moment)
    _cancel_with_the_logged_events(context, hand, CRASH_REASON)
    return hand.pk


def hands_recover_unfinished(*, now: datetime | None = None, reason: str = CRASH_REASON) -> list[int]:
    """Cancel every hand still running (call once at start-up, before any hand can be in play); return their ids.

    With table actors (``settings.TABLE_ACTORS``) the hands at tables that have a live owner are the owners' and are
    left alone: a web process or the ticker dying interrupts none of them (an owner's death is a takeover's work)."""
    running = list(
        Hand.objects.filter(status=HandStatus.RUNNING).order_by("table_id", "pk").values_list("pk", "table_id")
    )
    owned: set[int] = set()
    if running and inbox.actors_play_the_tables():
        owned = inbox.tables_owned({table_id for _hand_id, table_id in running})
    cancelled = []
    for hand_id, table_id in running:
        if table_id in owned:
            continue
        if hand_cancel(hand_id, reason=reason, now=now):
            cancelled.append(hand_id)
    return cancelled
