"""A hand in play, changed in memory: :func:`hand_apply` (issue 27, step 2 of docs/runtime-design.md).

``hand_apply`` takes a message (a player's action, or the acting player's clock coming due) and a
:class:`HandInPlay` — the hand's row, its engine state, the table's seats, the clocks it runs under — and changes them
in memory: it returns the table events the message produced and records which fields of the hand and of which seats
changed. It reads and writes no database. What makes a hand durable is elsewhere (``games.runtime.hands``):

* ``hand_begin`` deals the hand in one transaction and returns its ``HandInPlay``;
* ``hand_end`` writes a completed hand in one transaction: its events, the changed fields, the settlement through the
  table's policy and the policy's work between hands;
* ``hand_act`` / ``hand_timeout`` (the per-action durable path) lock the rows, call ``hand_apply``, save what it
  changed and, when the hand is complete, end it in the same transaction.

The rules applied here are those ``hands.py`` applied before the split (TB-01..07, CASH-22, TRN-19, AMB-20): a player
who left mid-hand folds when their turn comes, a player the policy acts for (a tournament player sitting out) checks
or folds at once, the next player's decision time starts with a public ``turn`` event carrying their legal actions.
A completed hand stops here; settling it is ``hand_end``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext

from games.engine.actions import Fold, IllegalAction, Timeout, action_from_dict
from games.engine.events import Event
from games.engine.state import HandState
from games.models import ClockPhase, Hand, HandStatus, Seat, SitOutReason, Table, TableKind
from games.runtime.errors import ActionRefused, NotSeated, NotYourTurn
from games.runtime.events import NewEvent, engine_event
from games.runtime.refusals import engine_refusal, seat_name
from games.runtime.seat_state import seat_event

if TYPE_CHECKING:
    from games.runtime.policy import TablePolicy, TableRules

PLAYER_ACTION_TYPES = frozenset({"fold", "check", "call", "bet", "raise_to", "all_in"})
"""The actions a player may send; forced bets and timeouts are the server's."""


# ---------------------------------------------------------------------------------------------------------------------
# Messages


@dataclass(frozen=True)
class PlayerAction:
    """The player ``user_id`` acts: ``action_type`` is fold, check, call, bet, raise_to or all_in; ``amount`` is the
    "to" total for bet and raise_to (integer cents). ``hand_id``: the hand the player means (None: the one in play)."""

    user_id: int | None
    action_type: str
    amount: Any = None
    hand_id: int | None = None


@dataclass(frozen=True)
class ClockDue:
    """The acting player's clock in hand ``hand_id`` may have run out. ``sockets_live``: whether the acting player has
    a live socket on the table as the sender saw it (None: it could not tell; the seat's connection record stands)."""

    hand_id: int
    sockets_live: bool | None = None


Message = PlayerAction | ClockDue


# ---------------------------------------------------------------------------------------------------------------------
# The hand in play


class HandInPlay:
    """One table's hand in play, held in memory: the hand row, the seats (by number), the engine state, the table's
    clocks (``rules``) and policy, and what changed since the changes were last taken (:meth:`changes_take`).

    ``state`` and ``rules`` may be given as sources instead (the per-action durable path reads a hand's engine state
    only for a message that changes the hand, and the rules only when a clock starts, as it did before); a hand held
    in memory has both."""

    def __init__(
        self,
        table: Table,
        seats: dict[int, Seat],
        hand: Hand,
        policy: TablePolicy,
        *,
        state: HandState | None = None,
        rules: TableRules | None = None,
        state_source: Callable[[], HandState] | None = None,
        rules_source: Callable[[], TableRules] | None = None,
    ) -> None:
        self.table = table
        self.seats = seats
        self.hand = hand
        self.policy = policy
        self._state = state
        self._rules = rules
        self._state_source = state_source
        self._rules_source = rules_source
        self.events: list[NewEvent] = []
        """Events produced and not yet taken, in order."""
        self.next_deal_known = False
        """Set by ``hand_end``: the hand is over and ``table.next_hand_at`` is when the next one is dealt, which
        nothing after the hand end's commit moves (``HandContext.next_deal_settled``)."""
        self.hand_fields: set[str] = set()
        """Fields of ``hand`` changed and not yet taken (``version`` included when any is)."""
        self.seat_fields: dict[int, set[str]] = {}
        """Fields changed and not yet taken, by seat number."""
        self.seat_versions: dict[int, int] = {}
        """How many times each seat changed since the changes were last taken (its version moved as much)."""

    @property
    def state(self) -> HandState:
        if self._state is None:
            assert self._state_source is not None, "a hand in play needs its engine state"
            self._state = self._state_source()
        return self._state

    @property
    def state_read(self) -> bool:
        """Whether the engine state has been read (a source is read at most once)."""
        return self._state is not None

    @property
    def rules(self) -> TableRules:
        if self._rules is None:
            assert self._rules_source is not None, "a hand in play needs its rules"
            self._rules = self._rules_source()
        return self._rules

    def hand_changed(self, *fields: str) -> None:
        """``fields`` of the hand changed (its version moves, as a save of them would move it)."""
        self.hand.version += 1
        self.hand_fields.update(fields)
        self.hand_fields.add("version")

    def seat_changed(self, seat: Seat, *fields: str) -> None:
        """``fields`` of ``seat`` changed (its version moves, as a save of them would move it)."""
        seat.version += 1
        self.seat_fields.setdefault(seat.number, set()).update((*fields, "version"))
        self.seat_versions[seat.number] = self.seat_versions.get(seat.number, 0) + 1

    def engine_events(self, events: tuple[Event, ...] | list[Event]) -> None:
        self.events.extend(engine_event(self.hand, event) for event in events)

    def seat_changes_take(self) -> HandChanges:
        """The seats' changes since they were last taken (no events, no hand fields: those stay pending), and start
        the seats afresh; what a table owner writes before it runs a durable service during the hand."""
        changes = HandChanges(seat_fields=self.seat_fields, seat_versions=self.seat_versions)
        self.seat_fields, self.seat_versions = {}, {}
        return changes

    def changes_take(self) -> HandChanges:
        """What changed since the last call (events, hand fields, seat fields), and start afresh."""
        changes = HandChanges(self.events, self.hand_fields, self.seat_fields, self.seat_versions)
        self.events, self.hand_fields, self.seat_fields, self.seat_versions = [], set(), {}, {}
        return changes


@dataclass
class HandChanges:
    """What :func:`hand_apply` changed: the new events in order, the hand's changed fields, each seat's changed fields
    and how many times each seat changed."""

    events: list[NewEvent] = field(default_factory=list)
    hand_fields: set[str] = field(default_factory=set)
    seat_fields: dict[int, set[str]] = field(default_factory=dict)
    seat_versions: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Applied:
    """The outcome of :func:`hand_apply`: whether anything changed, the events it produced (also kept in the hand's
    pending ``events``), and whether the hand is now complete (``hand_end`` is due)."""

    changed: bool
    events: tuple[NewEvent, ...]
    complete: bool


# ---------------------------------------------------------------------------------------------------------------------
# Applying


def hand_apply(live: HandInPlay, message: Message, now: datetime) -> Applied:
    """Apply ``message`` to the hand in play at ``now``, in memory; return what happened.

    A player's action that may not be taken is refused with a :class:`~games.runtime.errors.TableError` and changes
    nothing. A clock that has not run out (or a hand no longer running) changes nothing and is not an error: the ticker
    and the owner's timers may both send it.
    """
    first = len(live.events)
    changed = _act(live, message, now) if isinstance(message, PlayerAction) else _clock_due(live, message, now)
    return Applied(changed, tuple(live.events[first:]), live.state_read and live.state.is_complete)


def player_action_checked(
    hand: Hand | None, seats: dict[int, Seat], message: PlayerAction, *, chips: bool | None = None
) -> tuple[Seat, Any]:
    """The acting seat and the engine action ``message`` asks for, or the refusal (:class:`NotSeated`,
    :class:`NotYourTurn`, :class:`ActionRefused`) that needs no engine state: no seat here, no hand, another hand, not
    dealt in, not their turn, an unknown action or a malformed amount. ``chips``: whether the table's amounts are
    tournament chips (read from the hand's table when not given), for the words of a refusal."""
    seat = next((seat for seat in seats.values() if seat.user_id == message.user_id), None)
    if seat is None:
        raise NotSeated("You do not have a seat at this table.")
    if hand is None or hand.status != HandStatus.RUNNING:
        raise NotYourTurn("No hand is in play at this table.")
    if message.hand_id is not None and message.hand_id != hand.pk:
        raise NotYourTurn("That hand is over.")
    participant = hand.participants.get(str(seat.number))
    if participant is None or participant["user"] != seat.user_id:
        raise NotYourTurn("You are not dealt into this hand.")
    if hand.acting_seat is None:
        raise NotYourTurn(gettext("It is not your turn."))
    if hand.acting_seat != seat.number:
        raise NotYourTurn(
            gettext("It is not your turn: %(name)s is to act.") % {"name": seat_name(seats, hand.acting_seat)}
        )
    action_type = message.action_type
    if not isinstance(action_type, str) or action_type not in PLAYER_ACTION_TYPES:
        raise ActionRefused(
            f"Unknown action {action_type!r}; expected one of {', '.join(sorted(PLAYER_ACTION_TYPES))}."
        )
    data: dict[str, Any] = {"type": action_type, "seat": seat.number}
    if message.amount is not None:
        data["amount"] = message.amount
    try:
        action = action_from_dict(data)
    except IllegalAction as error:
        in_chips = hand.table.kind != TableKind.CASH if chips is None else chips
        raise ActionRefused(engine_refusal(str(error), seats=seats, chips=in_chips)) from error
    return seat, action


def _act(live: HandInPlay, message: PlayerAction, now: datetime) -> bool:
    chips = live.table.kind != TableKind.CASH
    seat, action = player_action_checked(live.hand, live.seats, message, chips=chips)
    state = live.state
    if state.actor != seat.number:
        raise NotYourTurn("It is not your turn.")
    try:
        state.verify(action)
    except IllegalAction as error:  # the engine's reason, in the player's words (money or chips, names)
        raise ActionRefused(engine_refusal(str(error), seats=live.seats, chips=chips)) from error
    timebank_spent(live, now)
    live.engine_events(state.apply(action))
    hand_advance_in_memory(live, now)
    return True


def _clock_due(live: HandInPlay, message: ClockDue, now: datetime) -> bool:
    """The clock rules of ``hand_timeout`` (TB-04, TB-07, CASH-22): decision time over and disconnected — the
    reconnection grace; decision time over with timebank left — the timebank; otherwise ``Timeout`` (check if possible,
    else fold), and a player still disconnected then sits out at the end of the hand."""
    hand = live.hand
    if (
        hand.pk != message.hand_id
        or hand.status != HandStatus.RUNNING
        or hand.action_deadline is None
        or hand.action_deadline > now
        or hand.acting_seat is None
    ):
        return False
    seat = live.seats[hand.acting_seat]
    deadline = hand.action_deadline
    if hand.clock_phase in (ClockPhase.DECISION, ClockPhase.RECONNECT) and seat.user_id is not None:
        recorded_as_connected = seat.disconnected_since is None
        if message.sockets_live is not None and message.sockets_live != recorded_as_connected:
            seat_connection_changed(live, seat, None if message.sockets_live else deadline)
    if hand.clock_phase == ClockPhase.DECISION and seat.disconnected_since is not None:
        clock_switched(
            live,
            ClockPhase.RECONNECT,
            deadline,
            deadline + timedelta(seconds=live.rules.reconnect_grace_seconds),
        )
    elif hand.clock_phase == ClockPhase.DECISION and seat.timebank_milliseconds > 0:
        clock_switched(
            live, ClockPhase.TIMEBANK, deadline, deadline + timedelta(milliseconds=seat.timebank_milliseconds)
        )
    else:
        if hand.clock_phase == ClockPhase.TIMEBANK:
            timebank_spent(live, now)
        if seat.disconnected_since is not None:
            seat.sit_out_after_hand = True
            seat.sit_out_reason_after_hand = SitOutReason.DISCONNECTED
            live.seat_changed(seat, "sit_out_after_hand", "sit_out_reason_after_hand")
        live.engine_events(live.state.apply(Timeout(seat.number)))
        hand_advance_in_memory(live, now)
    return True


# ---------------------------------------------------------------------------------------------------------------------
# The pieces, in memory (the durable wrappers in games.runtime.hands save what they change)


def hand_advance_in_memory(live: HandInPlay, now: datetime) -> None:
    """After a change: fold players who left mid-hand when their turn comes, act at once for players the policy acts
    for (a tournament player sitting out: check if possible, else fold, TRN-19 / AMB-20), or start the next clock. A
    complete hand is left for ``hand_end``."""
    state, hand = live.state, live.hand
    while not state.is_complete:
        actor = state.actor
        assert actor is not None
        seat = live.seats[actor]
        if seat.leave_after_hand or seat.user_id != hand.participants[str(actor)]["user"]:
            live.engine_events(state.apply(Fold(actor)))
            continue
        if live.policy.acts_for(seat):
            live.engine_events(state.apply(Timeout(actor)))
            continue
        clock_started(live, now)
        return


def departures_fold(live: HandInPlay, now: datetime) -> bool:
    """A player to act who has left mid-hand (``leave_after_hand``, set by a durable service since the last message)
    folds now, as ``games.cash.seating.seat_leave`` folds them on the per-action path (CASH-08): the timebank they used
    is gone, then the fold and what follows it. Return whether anything changed."""
    hand = live.hand
    if hand.status != HandStatus.RUNNING or hand.acting_seat is None:
        return False
    seat = live.seats.get(hand.acting_seat)
    if seat is None or not seat.leave_after_hand or live.state.actor != seat.number:
        return False
    timebank_spent(live, now)
    live.engine_events(live.state.apply(Fold(seat.number)))
    hand_advance_in_memory(live, now)
    return True


def connection_clock_switch(live: HandInPlay, user_id: int, connected: bool, now: datetime) -> bool:
    """The clock of a player to act whose connection changed (recorded in memory by :func:`connection_report_apply`,
    or durably by ``games.runtime.clocks``, whose clock rules these are: CASH-22, TB-07): lost during their timebank,
    what they used is gone and the reconnection grace starts now; back during the grace with timebank left, the
    timebank runs from now. Return whether the clock changed."""
    hand = live.hand
    if hand.status != HandStatus.RUNNING or hand.acting_seat is None:
        return False
    seat = live.seats.get(hand.acting_seat)
    if seat is None or seat.user_id != user_id:
        return False
    if not connected and hand.clock_phase == ClockPhase.TIMEBANK:
        timebank_spent(live, now)
        clock_switched(live, ClockPhase.RECONNECT, now, now + timedelta(seconds=live.rules.reconnect_grace_seconds))
        return True
    if connected and hand.clock_phase == ClockPhase.RECONNECT and seat.timebank_milliseconds > 0:
        clock_switched(live, ClockPhase.TIMEBANK, now, now + timedelta(milliseconds=seat.timebank_milliseconds))
        return True
    return False


def connection_report_apply(live: HandInPlay, user_id: int, connected: bool, now: datetime) -> bool | None:
    """A socket's connection report (CASH-22, TB-07) applied to the hand held in memory, as
    ``games.runtime.clocks`` applies it durably: the seat's connection record with its public event, then the clock of
    a player to act (:func:`connection_clock_switch`). Nothing is written: the seat's change goes to the database with
    the hand's end, or before a durable service runs during the hand (``hand_seats_save``), so a crash forgets it with
    the hand (CASH-23; the clock asks the sockets' presence when it runs out). Returns whether anything changed, or
    None when the report needs the durable service: the user holds no seat the hand knows of (seated during the
    hand), or coming back returns a tournament player to play (TRN-04 / AMB-57: the seat's status changes)."""
    seat = next((seat for seat in live.seats.values() if seat.user_id == user_id), None)
    if seat is None or live.hand.status != HandStatus.RUNNING:
        return None
    if connected:
        if seat.disconnected_since is None:
            return False
        if live.policy.returns_on_reconnect(seat):
            return None
        seat_connection_changed(live, seat, None)
    else:
        if seat.disconnected_since is not None:
            return False
        seat_connection_changed(live, seat, now)
    connection_clock_switch(live, user_id, connected, now)
    return True


def clock_started(live: HandInPlay, now: datetime) -> None:
    """The player to act is to act: their normal decision time starts now (TB-05). The ``turn`` event carries their
    legal actions (public: they follow from the stacks and bets everyone sees)."""
    hand, state = live.hand, live.state
    hand.acting_seat = state.actor
    hand.clock_phase = ClockPhase.DECISION
    hand.clock_started_at = now
    hand.action_deadline = now + timedelta(seconds=live.rules.decision_seconds)
    live.hand_changed("acting_seat", "clock_phase", "clock_started_at", "action_deadline")
    legal = state.legal_actions()
    live.events.append(turn_event(hand, live.seats, legal.to_dict() if legal is not None else None))


def clock_switched(live: HandInPlay, phase: str, started: datetime, deadline: datetime) -> None:
    """The acting player's clock goes on in ``phase`` (timebank or reconnection grace) from ``started`` to
    ``deadline``; the public ``turn`` event says so."""
    hand = live.hand
    hand.clock_phase = phase
    hand.clock_started_at = started
    hand.action_deadline = deadline
    live.hand_changed("clock_phase", "clock_started_at", "action_deadline")
    live.events.append(turn_event(hand, live.seats))


def timebank_spent(live: HandInPlay, now: datetime) -> None:
    """Deduct the timebank seconds the player to act used (TB-01: what is used is gone)."""
    hand = live.hand
    if hand.clock_phase != ClockPhase.TIMEBANK or hand.acting_seat is None or hand.clock_started_at is None:
        return
    seat = live.seats[hand.acting_seat]
    used = max(0, int((now - hand.clock_started_at).total_seconds() * 1000))
    seat.timebank_milliseconds = max(0, seat.timebank_milliseconds - used)
    live.seat_changed(seat, "timebank_milliseconds")


def seat_connection_changed(live: HandInPlay, seat: Seat, disconnected_since: datetime | None) -> None:
    """The seat's player lost their connection at ``disconnected_since`` (None: is connected again), with the table
    event that says so (CASH-22, TB-07)."""
    seat.disconnected_since = disconnected_since
    live.seat_changed(seat, "disconnected_since")
    kind = "seat_disconnected" if disconnected_since is not None else "seat_reconnected"
    live.events.append(seat_event(seat, kind, with_stack=False))


def turn_event(hand: Hand, seats: dict[int, Seat], legal_actions: dict[str, Any] | None = None) -> NewEvent:
    """The public ``turn`` event; ``legal_actions`` when a turn starts (a clock switch leaves them out: they have not
    changed)."""
    seat = seats[hand.acting_seat] if hand.acting_seat is not None else None
    payload: dict[str, Any] = {
        "seat": hand.acting_seat,
        "clock": hand.clock_phase,
        "deadline": hand.action_deadline.isoformat() if hand.action_deadline else None,
        "timebank_seconds": seat.timebank_milliseconds / 1000 if seat is not None else None,
    }
    if legal_actions is not None:
        payload["legal_actions"] = legal_actions
    return NewEvent("turn", payload, hand)
