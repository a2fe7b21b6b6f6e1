"""Playing hands durably: ``hand_begin`` / ``hand_start``, ``hand_act``, ``hand_timeout``, and ``hand_end`` with the
settlement at the end of a hand.

A hand has three parts (issue 27, step 2 of docs/runtime-design.md):

* :func:`hand_begin` — the durable start (one transaction): positions, stacks, the ``Hand`` and ``HandPlayer`` rows,
  the first events; it returns the hand in play (``games.runtime.play.HandInPlay``: the engine state and the seats);
* ``games.runtime.play.hand_apply`` — a message (an action, a clock come due) applied in memory, no database;
* :func:`hand_end` — the durable end (one transaction): the events, the changed hand and seat fields, the settlement
  by the table's policy, the timebanks and the policy's ``after_hand``.

:func:`hand_act` and :func:`hand_timeout` are today's per-action durable path: each locks the table, applies the
message with ``hand_apply``, saves what changed and, when the hand is complete, ends it in the same transaction.

Money (RAKE-01..08, CASH-23/24): during a hand the players' table accounts keep their start-of-hand balances; when the
hand ends, its result and rake move in ONE balanced wallet transfer (idempotency key ``cash-hand:<id>:settlement``),
so a hand that never finishes moves no money.

Clocks (TB-01..07, CASH-22): the player to act has the normal decision time; when it runs out the timebank runs (if
any is left); a player who is disconnected when the decision time runs out gets the reconnection grace instead, and
the timebank is not used. When the last allowance runs out the engine's ``Timeout`` checks if possible, otherwise
folds; a player who timed out while disconnected sits out when the hand ends.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Collection, Sequence
from datetime import datetime
from functools import partial
from random import Random
from typing import Any

from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from redis import RedisError

from games.engine.cards import Shuffler
from games.engine.config import HandConfig
from games.engine.config import Variant as EngineVariant
from games.engine.events import Event
from games.engine.positions import HandPositions, PositionError, PreviousHand, next_hand_positions
from games.engine.state import HandState
from games.models import (
    ClockPhase,
    Hand,
    HandPlayer,
    HandStatus,
    Seat,
    SeatStatus,
    Table,
    TableStatus,
)
from games.runtime import presence
from games.runtime.engine_state import hand_engine_state_remember, hand_engine_state_to_change
from games.runtime.errors import NotYourTurn, OwnershipLost
from games.runtime.events import NewEvent, engine_event, events_append
from games.runtime.fairness import commitment_event, hand_fairness_new, reveal_events
from games.runtime.hand_log import hand_log_clear
from games.runtime.locking import seats_lock, table_lock, table_lock_with_hand
from games.runtime.play import (
    ClockDue,
    HandChanges,
    HandInPlay,
    PlayerAction,
    clock_switched,
    hand_advance_in_memory,
    hand_apply,
    player_action_checked,
    timebank_spent,
)
from games.runtime.policy import TableRules, policy_for
from games.runtime.seat_state import seat_save, table_touch
from games.runtime.signals import hand_settled
from poker_site.core.compiled_sql import fields_update, rows_insert, rows_update
from poker_site.core.rules import RULES_VERSION

logger = logging.getLogger(__name__)

_ENTERING_STATUSES = frozenset({SeatStatus.WAITING_FOR_BIG_BLIND, SeatStatus.POSTING_OUT_OF_POSITION})


class HandContext:
    """What a hand service works on inside its transaction: the locked table and seats, the hand and its engine
    state, the rules in force, the time, and the events to append."""

    def __init__(self, table: Table, seats: dict[int, Seat], now: datetime) -> None:
        self.table = table
        self.seats = seats
        self.now = now
        self.events: list[NewEvent] = []
        self.hand: Hand | None = None
        self.engine_state: HandState | None = None
        self.retry_at: datetime | None = None
        """Set by a policy that declines to deal now but wants to be asked again then (the table's ``next_hand_at``)."""
        self.held_from_now = False
        """Set by a table actor's ``hand_begin`` when the hand it dealt is held in memory from this commit on."""
        self.next_deal_settled = False
        """Set by a policy's ``after_hand`` when the ``next_hand_at`` it wrote is when the next hand is dealt and
        nothing run after the commit moves it (a cash table's pause between hands; a tournament's coordination may):
        a table owner then deals at it without reading the table again."""

    def hand_state_to_change(self, hand: Hand) -> HandState:
        """The engine state of ``hand`` (kept from the last commit when it still matches the locked rows, else
        replayed from the log); :meth:`commit_events` keeps it again for the hand's next change."""
        self.hand, self.engine_state = hand, hand_engine_state_to_change(hand, self.table)
        return self.engine_state

    def engine_events(self, hand: Hand, events: Sequence[Event]) -> None:
        self.events.extend(engine_event(hand, event) for event in events)

    def commit_events(self, published: Sequence[int] = ()) -> None:
        """Append the collected events (``published``: the numbers the first of them already have, see
        ``events_append``); then, once the transaction commits, keep the engine state of the hand this context changed
        (``table.last_sequence`` now names the last of these events).

        When the table's hand was held in memory by a table actor and no hand is in play any more (it ended or was
        cancelled in this transaction), the table says so and the hand's log in Redis is cleared after the commit
        (``games.runtime.hand_log``). With :attr:`held_from_now` the hand just dealt is held in memory from here on
        (a table actor's ``hand_begin``): the table says so (these events are numbered as durable ones, before it
        does). Either flag is written by the statement that appends the events."""
        closing = self.table.hand_held_in_memory and self.table.current_hand_id is None
        held_after = True if self.held_from_now else (False if closing else None)
        events_append(self.table, self.events, published=published, hand_held_in_memory=held_after)
        self.events = []
        if closing:
            hand_log_close(self.table)
        if self.hand is not None and self.engine_state is not None:
            hand_engine_state_remember(self.hand, self.table, self.engine_state)


def hand_log_close(table: Table) -> None:
    """The locked ``table``'s hand held in memory is over (its events are written, and the table says so): after the
    commit its hand log is cleared up to the last event written."""
    table_id, through = table.pk, table.last_sequence
    transaction.on_commit(partial(_hand_log_clear_quietly, table_id, through))


def _hand_log_clear_quietly(table_id: int, through: int) -> None:
    try:
        hand_log_clear(table_id, through)
    except (
        RedisError
    ):  # committed; what is left is at or below the durable sequence: readers skip it, the next append drops it
        logger.warning("the hand log of table %s could not be cleared through %s", table_id, through, exc_info=True)


# ---------------------------------------------------------------------------------------------------------------------
# Starting a hand


def previous_hand(table: Table) -> PreviousHand | None:
    """The positions of the table's last hand (button, blinds, who was dealt in), or None before its first hand."""
    if table.previous_big_blind_seat is None or table.previous_button_seat is None:
        return None
    dealt_in = frozenset(int(seat) for seat, _user in table.previous_dealt_in_seats or [])
    return PreviousHand(
        table.previous_button_seat, table.previous_small_blind_seat, table.previous_big_blind_seat, dealt_in
    )


def hand_positions(
    seats: list[Seat], previous: PreviousHand | None, table_size: int, rng: Random | secrets.SystemRandom
) -> tuple[HandPositions, bool]:
    """Button, blinds and who is dealt in (games.engine.positions, ENG-04..06, CASH-07, CASH-21, AMB-46), and whether
    the table starts afresh. Players dealt into the last hand (or present at the first) are ``ready``; new and
    returning players wait for the big blind or post out of position. When fewer than two players could be dealt in
    that way — everyone from the last hand has gone — the table starts afresh like a new table (ENG-06)."""
    ready = [seat.number for seat in seats if seat.status == SeatStatus.PLAYING]
    waiting = [seat.number for seat in seats if seat.status == SeatStatus.WAITING_FOR_BIG_BLIND]
    posting = [seat.number for seat in seats if seat.status == SeatStatus.POSTING_OUT_OF_POSITION]
    if previous is not None:
        try:
            positions = next_hand_positions(
                table_size=table_size,
                previous=previous,
                ready=ready,
                waiting_for_big_blind=waiting,
                posting_out_of_position=posting,
                chooser=rng,
            )
            return positions, False
        except PositionError:
            pass
    everyone = [seat.number for seat in seats]
    return next_hand_positions(table_size=table_size, previous=None, ready=everyone, chooser=rng), True


def strictly_between(start: int, end: int, table_size: int) -> set[int]:
    """Seats met going clockwise from ``start`` to ``end``, both excluded."""
    between: set[int] = set()
    seat = start % table_size + 1
    while seat != end and seat != start:
        between.add(seat)
        seat = seat % table_size + 1
    return between


@transaction.atomic(durable=True)
def hand_start(table: Table, *, now: datetime | None = None, shuffler: Shuffler | None = None) -> Hand | None:
    """Deal the next hand at ``table`` if it can start (CASH-06); return it, or None when it cannot start now.

    ``shuffler`` (tests: a seeded ``random.Random``) shuffles the deck and places the first button; production uses
    ``secrets.SystemRandom`` (GEN-08). The per-action durable path: the engine state is kept in the process's cache
    for the hand's next action (``games.runtime.engine_state``).
    """
    live = _hand_begin_durably(table, now, shuffler, remember=True)
    return live.hand if live is not None else None


@transaction.atomic(durable=True)
def hand_begin(
    table: Table, *, now: datetime | None = None, shuffler: Shuffler | None = None, owner_epoch: int | None = None
) -> HandInPlay | None:
    """The durable start of a hand held in memory: deal the next hand at ``table`` as :func:`hand_start` does (one
    transaction: positions, stacks, the ``Hand`` and ``HandPlayer`` rows, the first events, ``Table.current_hand``)
    and return it in play — the engine state, the seats and the clocks for ``games.runtime.play.hand_apply`` — or None
    when no hand can start now.

    The caller owns the returned state: it is not put in the process's engine-state cache, which the per-action path
    reads. A hand that is complete as soon as it is dealt (everyone all-in on the blinds, or acted for) has been
    ended in the same transaction: ``live.state.is_complete`` and the table has no hand in play.

    ``owner_epoch`` (a table owner's fencing token, ``games.runtime.leases``): refused with
    :class:`~games.runtime.errors.OwnershipLost`, nothing written, when the table's ``owner_epoch`` is another.
    """
    return _hand_begin_durably(table, now, shuffler, remember=False, owner_epoch=owner_epoch)


def owner_epoch_check(table: Table, owner_epoch: int | None) -> None:
    """Refuse a durable write of an owner that no longer owns the locked ``table`` (its epoch is not the table's)."""
    if owner_epoch is not None and table.owner_epoch != owner_epoch:
        raise OwnershipLost(table.pk, owner_epoch, table.owner_epoch)


def _hand_begin_durably(
    table: Table, now: datetime | None, shuffler: Shuffler | None, *, remember: bool, owner_epoch: int | None = None
) -> HandInPlay | None:
    moment = now or timezone.now()
    locked = table_lock(table.pk)
    owner_epoch_check(locked, owner_epoch)
    if locked.status != TableStatus.OPEN or locked.close_after_hand or locked.current_hand_id is not None:
        return None
    context = HandContext(locked, seats_lock(locked), moment)
    live = _hand_start_locked(context, shuffler)
    if live is None:
        table_touch(locked, next_hand_at=context.retry_at)
    if not remember:
        context.hand, context.engine_state = None, None
    # From here the hand's events are numbered and kept by its hand log until the hand ends.
    context.held_from_now = live is not None and not remember and not live.state.is_complete
    context.commit_events()
    return live


def _hand_start_locked(context: HandContext, shuffler: Shuffler | None) -> HandInPlay | None:
    table, seats, now = context.table, context.seats, context.now
    policy = policy_for(table)
    if len(policy.available(seats)) < 2:
        return None  # no rule lets a hand start: skip reading the terms in force
    terms = policy.next_hand_terms(context)
    if terms is None:
        return None
    rng = shuffler if shuffler is not None else secrets.SystemRandom()
    chosen = policy.positions(context, terms, rng)  # type: ignore[arg-type]
    if chosen is None:
        return None
    positions, _fresh_start = chosen
    stacks = {number: policy.stack(seats[number]) for number in positions.dealt_in}
    config = HandConfig.create(
        variant=EngineVariant(terms.variant),
        stacks=stacks,
        button=positions.button,
        big_blind_seat=positions.big_blind,
        small_blind_seat=positions.small_blind,
        small_blind=terms.small_blind,
        big_blind=terms.big_blind,
        ante=terms.ante,
        table_size=table.seat_count,
        out_of_position_seats=positions.out_of_position,
    )
    # Production deals the provably fair deck (issue 29: committed seeds, games.runtime.fairness); a test's injected
    # shuffler deals its own deck, and such a hand has no commitment.
    fairness = (
        hand_fairness_new(table.pk, table.hands_played + 1, {number: seats[number] for number in positions.dealt_in})
        if shuffler is None
        else None
    )
    state = HandState.create(config, shuffler=fairness.shuffler if fairness is not None else rng)
    participants = {str(number): policy.participant(seats[number], stacks[number]) for number in positions.dealt_in}
    # The hand row is written once, with the first player's clock already started on it (below).
    hand = Hand(
        table=table,
        number=table.hands_played + 1,
        stake_terms=terms.stake_terms,
        game_rules=terms.game_rules,
        level_number=terms.level_number,
        started_at=now,
        config=config.to_dict(),
        deck=[str(card) for card in state.deck],
        participants=participants,
        players_dealt_in=len(positions.dealt_in),
        rules_version=RULES_VERSION,
        **(fairness.hand_fields() if fairness is not None else {}),
    )
    for number in positions.dealt_in:
        seat = seats[number]
        # New and returning players are in play once dealt in (CASH-07, CASH-21). A tournament player sitting out is
        # dealt in and stays sitting out (TRN-19).
        if seat.status in _ENTERING_STATUSES or seat.missed_big_blind:
            seat.status = SeatStatus.PLAYING
            seat.missed_big_blind = False
            seat_save(seat, "status", "missed_big_blind")
    if fairness is not None:
        context.events.append(commitment_event(hand))  # before hand_started: before any card
    context.engine_events(hand, state.events)
    live = HandInPlay(table, seats, hand, policy, state=state, rules=terms.rules)
    hand_advance_in_memory(live, now)
    changes = live.changes_take()
    rows_insert([hand])  # with the fields the advance changed (the clock): they need no UPDATE of their own
    rows_insert(
        [
            HandPlayer(
                hand=hand,
                user_id=int(seats[number].user_id or 0),
                session_id=seats[number].session_id,
                seat_number=number,
                start_stack=stacks[number],
            )
            for number in positions.dealt_in
        ]
    )
    table_touch(
        table,
        current_hand=hand,
        hands_played=table.hands_played + 1,
        previous_button_seat=positions.button,
        previous_small_blind_seat=positions.small_blind,
        previous_big_blind_seat=positions.big_blind,
        previous_dealt_in_seats=[[number, seats[number].user_id] for number in positions.dealt_in],
        next_hand_at=None,
    )
    for number, fields in sorted(changes.seat_fields.items()):
        fields_update(seats[number], sorted(fields))
    context.events.extend(changes.events)
    if state.is_complete:
        hand_end_locked(context, hand, state)
    context.hand, context.engine_state = hand, state
    return live


# ---------------------------------------------------------------------------------------------------------------------
# Acting: the per-action durable path (lock, apply in memory, save, end a completed hand)


def hand_changes_save(context: HandContext, live: HandInPlay) -> HandChanges:
    """Save what ``hand_apply`` changed on the locked rows ``live`` holds (the hand's and each seat's changed fields,
    versions included) and add its events to ``context``'s; return the changes taken."""
    changes = live.changes_take()
    for number, fields in sorted(changes.seat_fields.items()):
        fields_update(live.seats[number], sorted(fields))
    if changes.hand_fields:
        fields_update(live.hand, sorted(changes.hand_fields))
    context.events.extend(changes.events)
    return changes


def _live_in_context(context: HandContext, hand: Hand, **sources: Any) -> HandInPlay:
    return HandInPlay(context.table, context.seats, hand, policy_for(context.table), **sources)


def timebank_spend(context: HandContext, hand: Hand) -> None:
    """Deduct the timebank seconds the player to act used (TB-01: what is used is gone) and save it."""
    live = _live_in_context(context, hand)
    timebank_spent(live, context.now)
    hand_changes_save(context, live)


def hand_advance(context: HandContext, hand: Hand, state: HandState, rules: TableRules) -> None:
    """After a change: fold players who left mid-hand when their turn comes, act at once for players the policy
    acts for (a tournament player sitting out: check if possible, else fold, TRN-19 / AMB-20), start the next clock,
    or finish (``games.runtime.play.hand_advance_in_memory``, saved; a completed hand ends in this transaction)."""
    live = _live_in_context(context, hand, state=state, rules=rules)
    hand_advance_in_memory(live, context.now)
    hand_changes_save(context, live)
    if state.is_complete:
        hand_end_locked(context, hand, state)


def clock_switch(context: HandContext, hand: Hand, phase: str, started: datetime, deadline: datetime) -> None:
    """The acting player's clock goes on in ``phase`` (timebank or reconnection grace) from ``started`` to
    ``deadline``; the public ``turn`` event says so. Saved."""
    live = _live_in_context(context, hand)
    clock_switched(live, phase, started, deadline)
    hand_changes_save(context, live)


def _hand_apply_durably(context: HandContext, hand: Hand, message: PlayerAction | ClockDue) -> bool:
    """Apply ``message`` to the locked table's hand with ``hand_apply``; save what changed, and end the hand in this
    transaction when it is complete. The engine state is read only if the message needs it (from the process's cache
    when it still matches the locked rows, else replayed from the log); the rules only when a clock needs them."""
    table = context.table
    live = _live_in_context(
        context,
        hand,
        state_source=lambda: context.hand_state_to_change(hand),
        rules_source=lambda: policy_for(table).hand_rules(hand, table),
    )
    applied = hand_apply(live, message, context.now)
    hand_changes_save(context, live)
    if applied.complete:
        hand_end_locked(context, hand, live.state)
    return applied.changed


@transaction.atomic(durable=True)
def hand_act(
    table: Table,
    user: Any,
    action_type: str,
    amount: Any = None,
    *,
    hand_id: int | None = None,
    now: datetime | None = None,
) -> Hand:
    """The player ``user`` acts at ``table``: ``action_type`` is fold, check, call, bet, raise_to or all_in; ``amount``
    is the "to" total for bet and raise_to (integer cents), omitted otherwise.

    Refused with a :class:`~games.runtime.errors.TableError` — and nothing changes — when the user has no seat here,
    is not in the hand, it is not their turn (or ``hand_id`` names another hand), or the engine finds the action or
    amount illegal (:class:`ActionRefused` carries the engine's reason).
    """
    moment = now or timezone.now()
    locked = table_lock_with_hand(table.pk)
    seats = seats_lock(locked)
    message = PlayerAction(getattr(user, "pk", None), action_type, amount, hand_id)
    if locked.hand_held_in_memory:  # its state is the owner's; the rows hold the hand as it was dealt
        raise NotYourTurn("This hand is played by its table's owner: send the action to it.")
    hand = locked.current_hand
    player_action_checked(hand, seats, message)  # the refusals that need no engine state, before reading it
    assert hand is not None
    context = HandContext(locked, seats, moment)
    _hand_apply_durably(context, hand, message)
    context.commit_events()
    return hand


@transaction.atomic(durable=True)
def hand_timeout(hand_id: int, *, now: datetime | None = None) -> bool:
    """Advance the clock of hand ``hand_id`` if its deadline has passed; return whether anything changed.

    Idempotent (the ticker may call it twice, or from two processes): under the table lock it re-reads the hand and
    does nothing unless the hand is running and ``action_deadline <= now``.

    * Normal time over, player disconnected: the reconnection grace starts (CASH-22, TB-07; timebank untouched).
    * Normal time over, timebank left: the timebank runs from the end of the normal time (TB-04).
    * Otherwise (or at the end of the timebank or grace): ``Timeout`` — check if possible, else fold; a player still
      disconnected then sits out at the end of the hand (CASH-22).

    Whether the player is connected is taken from the sockets' presence when Redis can tell
    (``games.runtime.play.ClockDue.sockets_live``).
    """
    moment = now or timezone.now()
    table_id = Hand.objects.filter(pk=hand_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return False
    locked = table_lock(table_id)
    hand = (
        Hand.objects.select_for_update(of=("self",))
        .select_related("game_rules", "stake_terms__stake__game_type")
        .filter(pk=hand_id)
        .first()
    )
    if (
        hand is None
        or locked.hand_held_in_memory  # the clock of a hand held in memory is its owner's (TableActor.clock)
        or hand.status != HandStatus.RUNNING
        or locked.current_hand_id != hand.pk
        or hand.action_deadline is None
        or hand.action_deadline > moment
        or hand.acting_seat is None
    ):
        return False
    context = HandContext(locked, seats_lock(locked), moment)
    seat = context.seats[hand.acting_seat]
    sockets_live = None
    if hand.clock_phase in (ClockPhase.DECISION, ClockPhase.RECONNECT) and seat.user_id is not None:
        sockets_live = presence.has_live_socket(int(seat.user_id), locked.pk)
    changed = _hand_apply_durably(context, hand, ClockDue(hand.pk, sockets_live))
    context.commit_events()
    return changed


# ---------------------------------------------------------------------------------------------------------------------
# Finishing: settlement by the table's policy, then what happens to the seats between hands


def _hand_save(hand: Hand, *fields: str) -> None:
    hand.version += 1
    fields_update(hand, list(dict.fromkeys([*fields, "version"])))  # each named once, as save(update_fields) takes it


@transaction.atomic(durable=True)
def hand_end(
    live: HandInPlay,
    *,
    now: datetime | None = None,
    published: Sequence[int] = (),
    owner_epoch: int | None = None,
) -> Hand | None:
    """The durable end of a hand held in memory (one transaction), once ``hand_apply`` has completed it: lock the table
    and its seats (the lock order of ``games.runtime.locking``), write the seats' and the hand's fields the hand
    changed, append the hand's events not yet written, settle it by the table's policy (the ledger transfer with rake,
    or the chip counts), count it for the timebanks and run the policy's ``after_hand`` — what the last action of the
    per-action path does.

    ``published``: the sequence numbers the hand's first events not yet written were published with from the hand
    log (a table actor's, ``games.runtime.hand_log``); they are written at exactly those numbers, and the events after
    them (the rest, the settlement's) are numbered above, announced after the commit, and the hand log cleared.

    Returns the hand, or None (writing nothing) when it is no longer the table's hand in play: it was cancelled and
    rolled back meanwhile (``games.runtime.recovery``). The seats' fields the hand did not change are those of the
    locked rows; a seat whose occupant changed meanwhile keeps its row as it is.

    ``owner_epoch`` (a table owner's fencing token): refused with :class:`~games.runtime.errors.OwnershipLost`,
    nothing written, when another owner has taken the table since (checked under the table lock, in this transaction).
    """
    if not live.state.is_complete:
        raise ValueError(f"hand {live.hand.pk} is not complete: it ends when hand_apply completes it")
    moment = now or timezone.now()
    locked = table_lock(live.table.pk)
    owner_epoch_check(locked, owner_epoch)
    hand = live.hand
    if locked.current_hand_id != hand.pk:
        return None
    seats = seats_lock(locked)
    context = HandContext(locked, seats, moment)
    changes = live.changes_take()
    _held_seat_changes_write(live, seats, changes)
    context.events.extend(changes.events)
    hand_end_locked(context, hand, live.state, unsaved=changes.hand_fields)
    context.commit_events(published)
    live.seats = seats
    live.table = locked
    live.next_deal_known = context.next_deal_settled and locked.current_hand_id is None
    return hand


def _held_seat_changes_write(live: HandInPlay, seats: dict[int, Seat], changes: HandChanges) -> None:
    """Write the held seats' changed fields onto the locked rows ``seats`` (a seat whose occupant changed meanwhile
    keeps its row as it is); each row's version moves as many times as the held seat's did."""
    for number, fields in sorted(changes.seat_fields.items()):
        held, row = live.seats[number], seats.get(number)
        if row is None or row.user_id != held.user_id:
            continue
        for name in fields - {"version"}:
            setattr(row, name, getattr(held, name))
        row.version += changes.seat_versions.get(number, 0)
        fields_update(row, sorted(fields))


@transaction.atomic(durable=True)
def hand_seats_save(live: HandInPlay, *, owner_epoch: int | None = None) -> bool:
    """Write what the hand held in memory has changed on its seats so far (timebanks used, connection records, a
    sit-out after the hand) and take those changes from ``live`` (its events and the hand's fields stay pending for
    ``hand_end``): a table owner does this before it runs a durable service during the hand (a player sitting out,
    leaving, coming back), so the service reads the seats as the hand has left them, as it would on the per-action
    path. Returns False, writing nothing, when the hand is no longer the table's hand in play; ``owner_epoch`` as for
    :func:`hand_end`."""
    locked = table_lock(live.table.pk)
    owner_epoch_check(locked, owner_epoch)
    if locked.current_hand_id != live.hand.pk:
        return False
    if not live.seat_fields:
        return True
    _held_seat_changes_write(live, seats_lock(locked), live.seat_changes_take())
    return True


@transaction.atomic(durable=True)
def hand_seats_reload(live: HandInPlay) -> bool:
    """Read the table's seats afresh into the hand held in memory, after a durable service changed them during the
    hand (``hand_seats_save`` wrote the hand's own changes first, so the rows hold everything). Returns False,
    changing nothing, when the hand is no longer the table's hand in play."""
    locked = table_lock(live.table.pk)
    if locked.current_hand_id != live.hand.pk:
        return False
    assert not live.seat_fields, "the hand's seat changes are written before its seats are read again"
    live.seats = seats_lock(locked)
    return True


def hand_players_settle(hand: Hand, final_stacks: dict[int, int], rake_by_seat: dict[int, int] | None) -> None:
    """Write each dealt-in player's end stack (and, with ``rake_by_seat``, their part of the rake; a seat without one
    paid none) in one statement keyed by the hand and seat: the rows need not be read first. ``final_stacks`` has a
    stack for every player dealt in (the engine's result), and each must have its row: :class:`DatabaseError` if
    not."""
    seats = sorted(final_stacks)
    values = ", ".join(["(%s::smallint, %s::bigint, %s::bigint)"] + ["(%s, %s, %s)"] * (len(seats) - 1))
    parameters: list[Any] = []
    for seat in seats:
        parameters.extend([seat, final_stacks[seat], (rake_by_seat or {}).get(seat, 0)])
    rake = ', "rake_share" = changed."rake_share"' if rake_by_seat is not None else ""
    sql = (
        f'UPDATE "games_handplayer" SET "end_stack" = changed."end_stack"{rake} FROM (VALUES {values}) AS changed '
        '("seat_number", "end_stack", "rake_share") WHERE "games_handplayer"."hand_id" = %s '
        'AND "games_handplayer"."seat_number" = changed."seat_number"'
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*parameters, hand.pk])
        updated = cursor.rowcount
    if updated != len(seats):
        raise DatabaseError(f"hand {hand.pk}: {updated} of its players' end stacks written, {len(seats)} expected")


def hand_close(hand: Hand, status: str, now: datetime, *fields: str) -> None:
    """End a hand (finished or cancelled) at ``now``: nobody is to act any more and its clock stops; ``fields`` are the
    other fields the caller set on it, saved with these."""
    hand.status = status
    hand.ended_at = now
    hand.acting_seat = None
    hand.clock_phase = ClockPhase.NONE
    hand.clock_started_at = None
    hand.action_deadline = None
    _hand_save(hand, "status", "ended_at", "acting_seat", "clock_phase", "clock_started_at", "action_deadline", *fields)


def hand_end_locked(context: HandContext, hand: Hand, state: HandState, *, unsaved: Collection[str] = ()) -> None:
    """Settle a completed hand where its stacks live (the table's policy), record it, and prepare the table for the
    next hand; the caller holds the table and seat locks and appends ``context``'s events. ``unsaved``: fields of
    ``hand`` changed in memory and not yet written (a hand held in memory), written with the hand's closing."""
    result = state.result
    settled = policy_for(context.table).settle(context, hand, state)
    hand.street_reached = result.street_reached.label
    hand.pot_total = settled.pot_total
    hand.rake = settled.rake_total
    closing = {"street_reached", "pot_total", "rake", "rake_rate_basis_points", "rake_cap_applied", "settlement"}
    hand_close(hand, HandStatus.FINISHED, context.now, *sorted(closing | (set(unsaved) - {"version"})))
    hand_players_settle(hand, settled.final_stacks, settled.rake_by_seat)
    context.events.append(
        NewEvent(
            "hand_settled",
            {
                "hand_number": hand.number,
                "pot_total": settled.pot_total,
                "rake": settled.rake_total,
                "rake_per_pot": list(settled.rake_per_pot),
                "stacks": {str(seat): stack for seat, stack in sorted(settled.final_stacks.items())},
                "net": {str(seat): amount for seat, amount in sorted(settled.net.items())},
            },
            hand,
        )
    )
    context.events.extend(reveal_events(hand))
    transaction.on_commit(partial(hand_settled.send_robust, sender=Hand, hand_id=hand.pk, table_id=hand.table_id))
    between_hands(context, hand, counted=True)


def between_hands(context: HandContext, hand: Hand, *, counted: bool) -> None:
    """After a hand (finished, or cancelled when ``counted`` is False): the timebank replenishment of everyone dealt in
    (TB-03), then the policy's own work between hands (departures, top-ups, sit-outs, eliminations), which leaves the
    table waiting for its next deal."""
    policy = policy_for(context.table)
    rules = policy.hand_rules(hand, context.table)
    policy.refresh_stacks(context.seats)
    counted_seats = []
    for seat_key, data in sorted(hand.participants.items(), key=lambda item: int(item[0])):
        seat = context.seats.get(int(seat_key))
        if seat is None or seat.user_id != data["user"] or not counted:
            continue
        seat.hands_dealt_in += 1
        if seat.hands_dealt_in % rules.timebank_replenish_every_hands == 0:
            seat.timebank_milliseconds = min(
                rules.timebank_cap_seconds * 1000,
                seat.timebank_milliseconds + rules.timebank_replenish_seconds * 1000,
            )
        seat.version += 1
        counted_seats.append(seat)
    rows_update(counted_seats, ["hands_dealt_in", "timebank_milliseconds", "version"])
    policy.after_hand(context, hand, counted, context.now)
