"""A table actor: one table's hand held in memory, its messages applied in arrival order (issue 27, steps 3 and 4 of
docs/runtime-design.md — the actor itself, driven in-process).

With ``TABLE_ACTORS`` on, the owner loop (``games.runtime.owner``) feeds each owned table's actor; off, the per-action
durable path of ``games.runtime.hands`` plays the tables. What an actor does:

* :class:`TableActor` holds the table's hand in play (``games.runtime.play.HandInPlay``) and an inbox; messages
  (:class:`DealNext`, a player's ``PlayerAction``, a ``ClockDue``) are posted and applied one at a time in the order
  they arrived (:meth:`TableActor.drain`), each answered with an :class:`Outcome` (the events, or the refusal exactly
  as the per-action path refuses it: a :class:`~games.runtime.errors.TableError`).
* The hand is durable at its boundaries only: ``hand_begin`` (one transaction) when it is dealt, ``hand_end`` (one
  transaction: events, settlement through the table's policy, ``after_hand``) when ``hand_apply`` completes it.
  Between them no database access: a process that dies mid-hand leaves the table with its hand in play and the
  start-of-hand stacks, which ``games.runtime.recovery`` rolls back (CASH-23, TRN-33).
* The events of each applied message are numbered and kept in the table's hand log in Redis
  (``games.runtime.hand_log``), then published on the table's broadcast channel exactly as a commit's are
  (``games.runtime.realtime.table_events_committed``), so sockets see the hand as it is played and any web process
  answers a resync or a snapshot from the durable rows plus the log. ``hand_end`` writes them at the numbers they were
  published with; the hand's start and end events are published after their commits, as on the per-action path.
* The acting player's clock is the actor's: :meth:`TableActor.deadline` says when it runs out and
  :meth:`TableActor.clock` posts the ``ClockDue`` (with the sockets' presence) once it has.
* The table's other commands (:class:`TableCommand`: sitting out and in, leaving, a top-up, a client seed) run their
  existing durable service between two messages of the hand; what they change is then read back into the hand in
  memory and applied there (a player to act who left folds, a clock switches). A socket's connection report during a
  hand is applied in memory (``games.runtime.play.connection_report_apply``) and written with the hand's end, like the
  hand's own seat changes: sockets open and close all the time, and a durable service with the seats written before
  and read after it was a quarter of the owner's work on a busy site. Between hands it runs its durable service too.
"""

from __future__ import annotations

import functools
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from redis import RedisError

from games.engine.cards import Shuffler
from games.models import Hand, Table
from games.runtime import presence, realtime
from games.runtime.commands import CommandRefused
from games.runtime.engine_state import hand_states_held
from games.runtime.errors import NotYourTurn, TableError
from games.runtime.events import NewEvent
from games.runtime.hand_log import LoggedEvent, Sent, hand_log_append
from games.runtime.hands import hand_begin, hand_end, hand_seats_reload, hand_seats_save
from games.runtime.inbox import Answer
from games.runtime.play import (
    ClockDue,
    HandInPlay,
    Message,
    PlayerAction,
    connection_clock_switch,
    connection_report_apply,
    departures_fold,
    hand_apply,
)

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class DealNext:
    """Deal the next hand if the table can deal now (a hand in play already: nothing happens)."""


CONNECTION_LOST = "connection_lost"
CONNECTION_RESTORED = "connection_restored"
"""The :class:`TableCommand` types of a player's last socket on the table closing and one opening again (CASH-22)."""
CONNECTION_REPORTS = frozenset({CONNECTION_LOST, CONNECTION_RESTORED})


@dataclass(frozen=True)
class TableCommand:
    """A table command other than an action, from ``user_id``: ``service`` runs its existing durable service (sitting
    out or in, leaving, a top-up, a client seed, a connection change) and returns what it returns, or raises the
    refusal as the durable path raises it (a ``CommandRefused``). The actor runs it between two messages of its hand,
    so it is ordered with the hand, and then applies to the hand it holds what the service changed (see
    :meth:`TableActor.handle`)."""

    user_id: int | None
    message_type: str
    service: Callable[[], Any] = field(compare=False)


ActorMessage = DealNext | PlayerAction | ClockDue | TableCommand

LogAppend = Callable[..., Awaitable[Sent]]
"""Logs one message's events on an event loop and sends its broadcast and answer with them: ``(table_id, floor,
events, now, expected_first=..., broadcast=..., answer=..., owner_epoch=...)``, as
``games.runtime.hand_log.hand_log_append_and_send_async`` bound to a client does."""


@dataclass(frozen=True)
class Outcome:
    """What applying one message did: whether anything changed, the events it produced in memory (in order; a hand's
    start and end write theirs durably), the refusal if it was refused (nothing changed), the hand dealt or ended,
    and the sequence numbers ``events`` were logged and published with (empty when they could not be logged)."""

    message: ActorMessage
    changed: bool = False
    events: tuple[NewEvent, ...] = ()
    refused: TableError | None = None
    hand_started: Hand | None = None
    hand_ended: Hand | None = None
    sequences: tuple[int, ...] = ()
    result: Any = None
    """What a :class:`TableCommand`'s service returned."""
    command_refused: Exception | None = None
    """The refusal a :class:`TableCommand`'s service raised (nothing changed), as the durable path raises it."""
    hand_ending: bool = False
    """The message completed the hand, and its durable end was left for :meth:`TableActor.end_pending`
    (``TableActor.end_actions_later``)."""
    answered: bool = False
    """The answer given to :meth:`TableActor.act_in_memory` went out with the action's events."""


@dataclass
class TableActor:
    """One table's runtime state, in memory; see the module docstring. ``shuffler`` (tests: a seeded factory) gives
    each deal's shuffler; None deals the provably fair deck as production does."""

    table_id: int
    shuffler: Callable[[], Shuffler | None] = field(default=lambda: None)
    live: HandInPlay | None = None
    inbox: deque[tuple[ActorMessage, datetime]] = field(default_factory=deque)
    published: list[int] = field(default_factory=list)
    """The sequence numbers of the hand in play's events logged and published so far, in order (``hand_end`` writes
    the events at exactly these numbers)."""
    logging_failed: bool = False
    """Redis refused an append during the hand in play: its later events are no longer logged or published one by
    one (the numbers logged stay a prefix of the hand's events); ``hand_end`` numbers and announces them."""
    next_deal: tuple[bool, datetime | None] = (False, None)
    """After a hand this actor ended: whether it knows when the next one is dealt, and when (the table's
    ``next_hand_at`` as the hand end left it; None: when the table says so). Taken by :meth:`next_deal_take`."""
    end_actions_later: bool = False
    """Leave the durable end of a hand a player's action completes for :meth:`end_pending` (the owner loop's way:
    it answers the player first); off, :meth:`handle` ends the hand at once."""
    ending: tuple[HandInPlay, list[int], datetime] | None = None
    """A hand completed by a player's action (with :attr:`end_actions_later`) whose durable end waits for
    :meth:`end_pending`: the hand, the numbers its events were published with, and when it was completed."""
    owner_epoch: int | None = None
    """The owner's fencing token (``games.runtime.leases``), carried by the hand's start and end: when another owner
    has taken the table since, they raise ``OwnershipLost`` and write nothing. None: unfenced (in-process tests)."""

    def post(self, message: ActorMessage, now: datetime) -> None:
        """Queue ``message``, received at ``now``; it is applied by :meth:`drain` after every message before it."""
        self.inbox.append((message, now))

    def drain(self) -> list[Outcome]:
        """Apply every queued message in arrival order; return their outcomes in the same order."""
        outcomes = []
        while self.inbox:
            message, now = self.inbox.popleft()
            outcomes.append(self.handle(message, now))
        return outcomes

    def handle(self, message: ActorMessage, now: datetime) -> Outcome:
        """Apply one message now (the inbox's order is the caller's).

        With :attr:`end_actions_later` a player's action that completes the hand returns once it is applied, logged
        and published (``Outcome.hand_ending``), and the hand's durable end waits for :meth:`end_pending`, so the owner
        can answer the player first (the answer says the action was applied, as for every action of a hand held in
        memory: a crash before the end rolls the hand back, CASH-23). Any message handled meanwhile ends it first."""
        if self.ending is not None:
            self.end_pending()
        if isinstance(message, DealNext):
            return self._deal(message, now)
        if isinstance(message, TableCommand):
            return self._command(message, now)
        if self.live is None:
            if isinstance(message, PlayerAction):
                return Outcome(message, refused=NotYourTurn("No hand is in play at this table."))
            return Outcome(message)
        end_later = self.end_actions_later and isinstance(message, PlayerAction)
        return self._apply(self.live, message, now, end_later=end_later)

    def end_pending(self) -> Hand | None:
        """The durable end of the hand an action completed with :attr:`end_actions_later` (``hand_end``, fenced by the
        owner's epoch); returns the hand ended, or None when none was pending or the hand was cancelled meanwhile."""
        if self.ending is None:
            return None
        live, published, now = self.ending
        self.ending = None
        return self._end(live, published, now)

    def _end(self, live: HandInPlay, published: list[int], now: datetime) -> Hand | None:
        ended = hand_end(live, now=now, published=published, owner_epoch=self.owner_epoch)
        known = ended is not None and live.next_deal_known
        self.next_deal = (known, live.table.next_hand_at if known else None)
        return ended

    def next_deal_take(self) -> tuple[bool, datetime | None]:
        """Whether the hand this actor ended last knew when the next hand is dealt, and when; asked once per hand end
        (the answer is then forgotten). Not known: the owner reads the table's ``next_hand_at``."""
        taken, self.next_deal = self.next_deal, (False, None)
        return taken

    def deadline(self) -> datetime | None:
        """When the acting player's clock runs out (None: no hand in play, or nobody to act)."""
        if self.live is None or self.live.hand.acting_seat is None:
            return None
        return self.live.hand.action_deadline

    def clock(self, now: datetime) -> Outcome | None:
        """If the acting player's clock has run out by ``now``, apply the ``ClockDue`` (the sockets' presence read as
        ``hand_timeout`` reads it); None when it has not."""
        due = self.deadline()
        if self.live is None or due is None or due > now:
            return None
        hand = self.live.hand
        assert hand.acting_seat is not None
        seat = self.live.seats[hand.acting_seat]
        sockets_live = presence.has_live_socket(int(seat.user_id), self.table_id) if seat.user_id else None
        return self.handle(ClockDue(hand.pk, sockets_live), now)

    def _deal(self, message: DealNext, now: datetime) -> Outcome:
        if self.live is not None:
            return Outcome(message)
        live = hand_begin(Table(pk=self.table_id), now=now, shuffler=self.shuffler(), owner_epoch=self.owner_epoch)
        if live is None:
            return Outcome(message)
        started = live.hand
        if live.state.is_complete:  # ended in its start's transaction (everyone all in on the blinds, or acted for)
            return Outcome(message, changed=True, hand_started=started, hand_ended=started)
        self.live = live
        self.published, self.logging_failed = [], False
        return Outcome(message, changed=True, hand_started=started)

    def _apply(self, live: HandInPlay, message: Message, now: datetime, *, end_later: bool = False) -> Outcome:
        try:
            applied = hand_apply(live, message, now)
        except TableError as refusal:
            return Outcome(message, refused=refusal)
        return self._applied(live, message, applied.changed, applied.events, applied.complete, now, end_later=end_later)

    def _applied(
        self,
        live: HandInPlay,
        message: ActorMessage,
        changed: bool,
        events: tuple[NewEvent, ...],
        complete: bool,
        now: datetime,
        result: Any = None,
        *,
        end_later: bool = False,
        sequences: tuple[int, ...] | None = None,
    ) -> Outcome:
        """Log and publish ``events`` (what ``message`` did to the hand in memory) unless the caller did
        (``sequences``: the numbers they were logged with); end the hand if it is complete (``end_later``: leave its
        end for :meth:`end_pending`)."""
        if sequences is None:
            sequences = self._log_and_publish(live, events, now)
        if not complete:
            return Outcome(message, changed=changed, events=events, sequences=sequences, result=result)
        self.live = None
        published, self.published = self.published, []
        if end_later:
            self.ending = (live, published, now)
            return Outcome(message, changed=True, events=events, sequences=sequences, result=result, hand_ending=True)
        ended = self._end(live, published, now)
        return Outcome(message, changed=True, events=events, hand_ended=ended, sequences=sequences, result=result)

    # --- A player's action on an event loop ------------------------------------------------------------------------

    def acts_in_memory(self, message: ActorMessage) -> bool:
        """Whether :meth:`act_in_memory` may apply ``message``: a player's action while a hand is held in memory, no
        hand's durable end is pending, the log takes the hand's events, and a hand the action completes is left for
        :meth:`end_pending` (:attr:`end_actions_later`). Then applying it touches no database, only Redis; anything
        else goes through :meth:`handle`."""
        return (
            isinstance(message, PlayerAction)
            and self.live is not None
            and self.ending is None
            and self.end_actions_later
            and not self.logging_failed
        )

    async def act_in_memory(
        self, message: PlayerAction, now: datetime, append: LogAppend, answer: Answer | None = None
    ) -> Outcome:
        """Apply a player's action to the hand held in memory on the caller's event loop, as :meth:`handle` applies it
        (same refusals, same events, numbers and broadcast; a completed hand is left for :meth:`end_pending`), with
        ``append`` logging the events (``hand_log_append_and_send_async`` with the owner's asynchronous client) and,
        in the same round trip, publishing their broadcast (when nothing this process published at the table is still
        queued, so it cannot overtake one) and sending ``answer``, the reply to an action applied
        (``Outcome.answered``; a refusal, or an action that logs no event, is the caller's to answer). Only when
        :meth:`acts_in_memory` says so: a table owner keeps its database threads for the hand boundaries, and an
        action waits for none of them (issue 27: in-hand actions queued behind other tables' boundaries)."""
        assert self.acts_in_memory(message), "act_in_memory needs a player's action and a hand held in memory"
        live = self.live
        assert live is not None
        try:
            applied = hand_apply(live, message, now)
        except TableError as refusal:
            return Outcome(message, refused=refusal)
        sequences: tuple[int, ...] = ()
        answered = False
        if applied.events:
            in_order = realtime.table_broadcasts_in_order(self.table_id)
            try:
                sent = await append(
                    self.table_id,
                    live.table.last_sequence,
                    applied.events,
                    now,
                    expected_first=(self.published[-1] if self.published else live.table.last_sequence) + 1,
                    broadcast=functools.partial(realtime.table_events_broadcast, self.table_id) if in_order else None,
                    answer=answer,
                    owner_epoch=self.owner_epoch,
                )
            except RedisError:
                self._logging_failed()
            else:
                sequences = self._published(sent.rows, publish=not sent.broadcast_sent)
                answered = sent.answered
        outcome = self._applied(
            live, message, applied.changed, applied.events, applied.complete, now, end_later=True, sequences=sequences
        )
        return replace(outcome, answered=True) if answered else outcome

    def _command(self, message: TableCommand, now: datetime) -> Outcome:
        """Run a table command's durable service, ordered with the hand. Between hands that is all. During a hand the
        hand's own seat changes are written first (the service reads the seats as the hand left them, as on the
        per-action path: a player back after the clock sat them out cancels that sit-out, CASH-16), the service runs
        with the held engine state as the hand's state (a top-up is checked against the stack behind now, CASH-15),
        then the seats are read again into the hand, and what the change means for the hand is applied in memory: a
        player to act who left folds now (CASH-08; one who left before their turn folds when it comes,
        ``hand_advance_in_memory``), a player to act whose connection changed has their clock switched (CASH-22).
        A connection report during the hand is applied in memory alone when it can be (``connection_report_apply``:
        its result is the service's, whether anything changed)."""
        live = self.live
        if live is not None and message.message_type in CONNECTION_REPORTS and message.user_id is not None:
            first = len(live.events)
            changed = connection_report_apply(live, message.user_id, message.message_type == CONNECTION_RESTORED, now)
            if changed is not None:
                return self._applied(live, message, changed, tuple(live.events[first:]), False, now, changed)
        if live is not None and not hand_seats_save(live, owner_epoch=self.owner_epoch):
            # No longer the table's hand in play: it was cancelled meanwhile (CASH-23; a takeover would have raised
            # OwnershipLost here instead). The actor lets it go and the command runs as between hands.
            self.live, self.published, live = None, [], None
        try:
            with hand_states_held({live.hand.pk: live.state} if live is not None else {}):
                result = message.service()
        except CommandRefused as refused:
            return Outcome(message, command_refused=refused)
        if live is None or not hand_seats_reload(live):
            return Outcome(message, changed=True, result=result)
        first = len(live.events)
        if message.message_type in CONNECTION_REPORTS and result and message.user_id is not None:
            connection_clock_switch(live, message.user_id, message.message_type == CONNECTION_RESTORED, now)
        departures_fold(live, now)
        events = tuple(live.events[first:])
        return self._applied(live, message, True, events, live.state.is_complete, now, result)

    def _log_and_publish(self, live: HandInPlay, events: tuple[NewEvent, ...], now: datetime) -> tuple[int, ...]:
        """Number ``events`` in the table's hand log (above the durable ``last_sequence`` the hand began at and every
        number handed out since), then publish them on the table's broadcast channel as a commit's are published:
        every socket gets its viewer's view, hole cards only their owner's. ``OwnershipLost`` when a later owner has
        acquired the table (the log's fence): nothing is logged or published, and the owner drops the table."""
        if not events or self.logging_failed:
            return ()
        try:
            rows = hand_log_append(self.table_id, live.table.last_sequence, events, now, owner_epoch=self.owner_epoch)
        except RedisError:
            self._logging_failed()
            return ()
        return self._published(rows)

    def _logging_failed(self) -> None:
        """Redis refused an append (called in its ``except``): the hand's later events go out at its end."""
        logger.exception("table %s: could not log the hand's events; the rest go out at its end", self.table_id)
        self.logging_failed = True

    def _published(self, rows: list[LoggedEvent], *, publish: bool = True) -> tuple[int, ...]:
        """Publish the logged ``rows`` of the hand in play on the table's broadcast channel (in order with everything
        else this process publishes), unless ``publish`` is False (they went out with their append); return their
        numbers, kept for the hand's end."""
        sequences = tuple(row.sequence for row in rows)
        self.published.extend(sequences)
        if publish:
            realtime.table_events_committed(self.table_id, sequences[0], sequences[-1], rows)
        return sequences
