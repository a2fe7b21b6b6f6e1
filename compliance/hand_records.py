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

Keys: players ``"user:<id>"``, places ``"table:<id>"``, hands ``"hand:<id>"`` (see :func:`user_key` and friends).
:func:`counter_records` reads counted ratholing returns and Banzai Resets from :class:`~games.models.TableSession`
rows (``buy_in_kind``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta

from compliance.detection.records import CounterRecord, HandRecord, RecordError, record_from_state
from games.models import BuyInKind, Hand, HandEvent, HandPlayer, HandStatus, TableSession
from games.runtime.engine_state import hand_engine_state
from games.runtime.policy import policy_for


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


def hand_records(hands: Iterable[Hand]) -> Iterator[HandRecord]:
    """Records of the finished hands among ``hands`` (running and cancelled ones are skipped), in the given order."""
    for hand in hands:
        if hand.status == HandStatus.FINISHED:
            yield hand_record(hand)


def decision_times(rows: list[HandEvent], decision: timedelta, ended_at: datetime) -> list[int | None]:
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
    "counter_records",
    "decision_times",
    "hand_key",
    "hand_record",
    "hand_records",
    "key_id",
    "table_key",
    "user_key",
]
