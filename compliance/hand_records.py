"""Hand records for the fraud indicators from the site's stored cash hands, and counter records from table sessions.

:func:`hand_record` turns a finished :class:`~games.models.Hand` into a
:class:`~compliance.detection.records.HandRecord`: the engine state is rebuilt from the hand's stored events
(:func:`games.runtime.engine_state.hand_engine_state`, which checks the log), the players are the hand's
:class:`~games.models.HandPlayer` rows (net result after rake: end stack minus start stack), and every player action
gets its decision time:

* a turn starts with the ``turn`` event of the normal decision clock (``clock == "decision"``), at its ``deadline``
  minus the decision time of the rules the hand was dealt under — the moment the service started the clock;
* it ends at the start of the next clock (the service starts it in the same transaction as the action) or, for the
  hand's last action, at the hand's ``ended_at``;
* timebank and reconnection clock switches do not restart a turn (their time counts); a timeout has no decision time.

These moments are the services' own ``now``, so the times are exact whatever delay the database adds.

:func:`hand_records_read` builds the same records for a batch of hands (the detection service's): their events in
one query, their players in one, each table read once, instead of four queries a hand.

Keys: players ``"user:<id>"``, places ``"table:<id>"``, hands ``"hand:<id>"`` (see :func:`user_key` and friends).
:func:`counter_records` reads counted ratholing returns and Banzai Resets from :class:`~games.models.TableSession`
rows (``buy_in_kind``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any, NamedTuple, Protocol

from django.db import connections, router
from django.db.models import Field

from compliance.detection.records import CounterRecord, HandRecord, RecordError, record_from_state
from games.engine.config import HandConfig
from games.engine.state import replay
from games.models import BuyInKind, Hand, HandEvent, HandPlayer, HandStatus, TableSession
from games.runtime.engine_state import ENGINE_EVENT_KINDS, hand_engine_state
from games.runtime.events import engine_event_from_stored
from games.runtime.policy import policy_for

RECORD_EVENT_KINDS = ENGINE_EVENT_KINDS | {"turn"}
"""The stored events a record is built from: the engine's (the replay) and the clock's ``turn`` (decision times)."""


class EventRow(Protocol):
    """A stored event as :func:`decision_times` reads it: a :class:`~games.models.HandEvent` or a
    :class:`StoredEvent`."""

    @property
    def kind(self) -> str: ...

    @property
    def payload(self) -> Any: ...


class StoredEvent(NamedTuple):
    """The two columns of a stored event a record needs."""

    kind: str
    payload: dict[str, Any]


def user_key(user_id: int) -> str:
    return f"user:{user_id}"


def table_key(table_id: int) -> str:
    return f"table:{table_id}"


def hand_key(hand_id: int) -> str:
    return f"hand:{hand_id}"


def key_id(key: str) -> int:
    """The database id in a ``"user:<id>"``, ``"table:<id>"`` or ``"hand:<id>"`` key."""
    return int(key.partition(":")[2])


def hand_record(hand: Hand) -> HandRecord:
    """The record of a finished cash hand; raises :class:`~compliance.detection.records.RecordError` for a hand that is
    running or was cancelled (it moved no chips)."""
    if hand.status != HandStatus.FINISHED or hand.ended_at is None:
        raise RecordError(f"hand {hand.pk} is {hand.status}, not finished")
    state = hand_engine_state(hand)
    players = {row.seat_number: row for row in HandPlayer.objects.filter(hand=hand)}
    rows = list(HandEvent.objects.filter(hand=hand).order_by("sequence").only("kind", "payload"))
    decision = timedelta(seconds=policy_for(hand.table).hand_rules(hand, hand.table).decision_seconds)
    return record_from_state(
        state,
        hand_id=hand_key(hand.pk),
        players={seat: user_key(row.user_id) for seat, row in players.items()},
        decision_ms=decision_times(rows, decision, hand.ended_at),
        net={
            seat: (row.end_stack if row.end_stack is not None else row.start_stack) - row.start_stack
            for seat, row in players.items()
        },
        table_id=table_key(hand.table_id),
        started_at=hand.started_at.timestamp(),
        rake=hand.rake or 0,
    )


def _record(hand: Hand, rows: Sequence[StoredEvent], players: Sequence[tuple[int, int, int, int | None]]) -> HandRecord:
    """The record of finished ``hand`` from its stored events of :data:`RECORD_EVENT_KINDS` in order and its players'
    ``(seat, user id, start stack, end stack)``: what :func:`hand_record` builds from its own queries."""
    if hand.status != HandStatus.FINISHED or hand.ended_at is None:
        raise RecordError(f"hand {hand.pk} is {hand.status}, not finished")
    state = replay(
        HandConfig.from_dict(hand.config),
        [engine_event_from_stored(row.kind, row.payload) for row in rows if row.kind in ENGINE_EVENT_KINDS],
    )
    decision = timedelta(seconds=policy_for(hand.table).hand_rules(hand, hand.table).decision_seconds)
    return record_from_state(
        state,
        hand_id=hand_key(hand.pk),
        players={seat: user_key(user_id) for seat, user_id, _start, _end in players},
        decision_ms=decision_times(rows, decision, hand.ended_at),
        net={seat: (end if end is not None else start) - start for seat, _user, start, end in players},
        table_id=table_key(hand.table_id),
        started_at=hand.started_at.timestamp(),
        rake=hand.rake or 0,
    )


_record_events_statements: dict[str, str] = {}


def _record_events(hand_ids: list[int]) -> dict[int, list[StoredEvent]]:
    """The stored events of :data:`RECORD_EVENT_KINDS` of every hand in ``hand_ids``, each hand's in sequence order,
    in one query (read as the three columns needed: building a model instance per event was most of the cost)."""
    alias = router.db_for_read(HandEvent)
    connection = connections[alias]
    sql = _record_events_statements.get(alias)
    if sql is None:
        quote = connection.ops.quote_name
        column: dict[str, str] = {}
        for name in ("hand", "kind", "payload", "sequence"):
            field = HandEvent._meta.get_field(name)
            assert isinstance(field, Field)
            assert field.column is not None
            column[name] = quote(field.column)
        sql = _record_events_statements[alias] = (
            f"SELECT {column['hand']}, {column['kind']}, {column['payload']} FROM {quote(HandEvent._meta.db_table)}"
            f" WHERE {column['hand']} = ANY(%s) AND {column['kind']} = ANY(%s)"
            f" ORDER BY {column['hand']}, {column['sequence']}"
        )
    events: dict[int, list[StoredEvent]] = {hand_id: [] for hand_id in hand_ids}
    with connection.cursor() as cursor:
        cursor.execute(sql, [hand_ids, sorted(RECORD_EVENT_KINDS)])
        for hand_id, kind, payload in cursor.fetchall():
            # Django reads jsonb as text (its JSONField decodes it); a connection configured otherwise hands the value.
            events[hand_id].append(StoredEvent(kind, json.loads(payload) if isinstance(payload, str) else payload))
    return events


def hand_records_read(hands: Sequence[Hand]) -> dict[int, HandRecord | RecordError]:
    """The record of each hand in ``hands`` (by hand id), or the :class:`RecordError` that refuses it (a running or
    cancelled hand, a log that does not make a record), as :func:`hand_record` gives them one by one: the events of
    all the hands are read in one query, their players in one, and hands of one table share one table instance (a
    tournament table's link is read once). Pass the hands with ``table`` and ``game_rules`` selected (the clocks the
    hand was dealt under); other errors (a tampered log: ``ReplayMismatch``) are raised."""
    finished = [hand for hand in hands if hand.status == HandStatus.FINISHED and hand.ended_at is not None]
    records: dict[int, HandRecord | RecordError] = {
        hand.pk: RecordError(f"hand {hand.pk} is {hand.status}, not finished")
        for hand in hands
        if hand.status != HandStatus.FINISHED or hand.ended_at is None
    }
    if not finished:
        return records
    hand_ids = [hand.pk for hand in finished]
    events = _record_events(hand_ids)
    players: dict[int, list[tuple[int, int, int, int | None]]] = {hand_id: [] for hand_id in hand_ids}
    for hand_id, seat, user_id, start, end in (
        HandPlayer.objects.filter(hand_id__in=hand_ids)
        .order_by()
        .values_list("hand_id", "seat_number", "user_id", "start_stack", "end_stack")
    ):
        players[hand_id].append((seat, user_id, start, end))
    tables: dict[int, Any] = {}
    for hand in finished:
        if hand.table_id in tables:
            hand.table = tables[hand.table_id]
        else:
            tables[hand.table_id] = hand.table
        try:
            records[hand.pk] = _record(hand, events[hand.pk], sorted(players[hand.pk]))
        except RecordError as error:
            records[hand.pk] = error
    return records


def hand_records(hands: Iterable[Hand]) -> Iterator[HandRecord]:
    """Records of the finished hands among ``hands`` (running and cancelled ones are skipped), in the given order."""
    for hand in hands:
        if hand.status == HandStatus.FINISHED:
            yield hand_record(hand)


def decision_times(rows: Sequence[EventRow], decision: timedelta, ended_at: datetime) -> list[int | None]:
    """One decision time (ms) per ``action_taken`` row of a hand, from its ``turn`` rows (see the module docstring)."""
    clock_starts: list[tuple[int, datetime, int | None]] = []  # (row position, moment, seat)
    actions: list[tuple[int, int, bool]] = []  # (row position, seat, timeout)
    for position, row in enumerate(rows):
        if row.kind == "turn" and row.payload.get("clock") == "decision" and row.payload.get("deadline"):
            started = datetime.fromisoformat(row.payload["deadline"]) - decision
            clock_starts.append((position, started, row.payload.get("seat")))
        elif row.kind == "action_taken":
            action = row.payload.get("action") or {}
            actions.append((position, row.payload["seat"], action.get("type") == "timeout"))
    times: list[int | None] = []
    for position, seat, timeout in actions:
        began = next(
            (moment for at, moment, turn_seat in reversed(clock_starts) if at < position and turn_seat == seat), None
        )
        ended = next((moment for at, moment, _ in clock_starts if at > position), ended_at)
        if timeout or began is None:
            times.append(None)
        else:
            times.append(max(0, round((ended - began).total_seconds() * 1000)))
    return times


def counter_records(sessions: Iterable[TableSession]) -> list[CounterRecord]:
    """Counter uses from table sessions: a counted ratholing return (CASH-12) or a Banzai Reset (CASH-31), at the
    moment the player sat down."""
    kinds = {BuyInKind.RATHOLE_RETURN: "ratholing", BuyInKind.BANZAI_RESET: "banzai_reset"}
    records = []
    for session in sessions:
        kind = kinds.get(session.buy_in_kind)  # type: ignore[call-overload]
        if kind is not None:
            records.append(
                CounterRecord(
                    player=user_key(session.user_id),
                    kind=kind,
                    at=session.started_at.timestamp(),
                    place=table_key(session.table_id),
                    amount=session.initial_buy_in,
                )
            )
    return records


__all__ = [
    "RECORD_EVENT_KINDS",
    "EventRow",
    "StoredEvent",
    "counter_records",
    "decision_times",
    "hand_key",
    "hand_record",
    "hand_records",
    "hand_records_read",
    "key_id",
    "table_key",
    "user_key",
]
