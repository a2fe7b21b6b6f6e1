"""Read side for the table sockets and the API: a viewer's snapshot of a table and the events since a sequence.

Privacy contract (architecture rule 4): a player's hole cards appear only in what is returned to that player (their
``viewer.hole_cards`` and their own ``hole_cards_dealt`` events) until they are shown at showdown (``hand_shown``
events, public). The deck order (``deck_recorded``) is returned to nobody. Other viewers receive a redacted copy of each
private event (same ``sequence``, no cards) so gaps are detectable.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from redis import RedisError

from games.engine.config import HandConfig
from games.engine.evaluation import holdem_strength, omaha_strength, strength_name
from games.engine.fairness import ALGORITHM, deck_domain
from games.engine.state import HandState, replay
from games.models import ClockPhase, EventAudience, Hand, HandEvent, HandPlayer, HandStatus, Seat, SeatStatus, Table
from games.runtime.engine_state import ENGINE_EVENT_KINDS, hand_engine_events, hand_engine_state
from games.runtime.events import engine_event_from_stored
from games.runtime.hand_log import hand_log_rows_after
from games.runtime.policy import policy_for
from poker_site.core.compiled_sql import CompiledSelect

logger = logging.getLogger(__name__)

Viewer = AbstractBaseUser | AnonymousUser | None


def _viewer_id(viewer: Viewer) -> int | None:
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return None
    primary_key = viewer.pk
    return int(primary_key) if primary_key is not None else None


def hand_names(rows: Sequence[HandEvent]) -> dict[int, dict[str, str]]:
    """The screen names of the players dealt into each hand that ``rows`` start (their ``hand_started`` events): hand
    id → seat (as a string) → name. One query, none without such a row. Screen names are public at the table; a hand
    log or a "last hands" line read later names the hand's own players with them, never the seat's later occupant."""
    hand_ids = {row.hand_id for row in rows if row.kind == "hand_started" and row.hand_id is not None}
    if not hand_ids:
        return {}
    names: dict[int, dict[str, str]] = {hand_id: {} for hand_id in hand_ids}
    for player in HandPlayer.objects.filter(hand_id__in=hand_ids).select_related("user").order_by("seat_number"):
        names[player.hand_id][str(player.seat_number)] = getattr(player.user, "table_name", player.user.get_username())
    return names


def event_view(row: HandEvent, viewer_id: int | None, names: dict[int, dict[str, str]] | None = None) -> dict[str, Any]:
    """The dictionary ``viewer_id`` (None: a spectator) may receive for one stored event. ``names``
    (:func:`hand_names`): a ``hand_started`` event carries the names of its hand's players as ``names``."""
    base: dict[str, Any] = {
        "sequence": row.sequence,
        "type": row.kind,
        "hand_id": row.hand_id,
        "audience": row.audience,
        "at": row.created_at.isoformat(),
    }
    if row.kind == "hand_started" and names and row.hand_id in names:
        base["names"] = names[row.hand_id]
    if row.audience == EventAudience.PUBLIC:
        return {**row.payload, **base}
    if row.audience == EventAudience.SEAT and viewer_id is not None and row.private_to_user_id == viewer_id:
        return {**row.payload, **base}
    if row.audience == EventAudience.SEAT:
        base["seat"] = row.private_to_seat
        cards = row.payload.get("cards")
        if isinstance(cards, list):
            base["card_count"] = len(cards)
    return base


def table_events_since(
    table: Table, sequence: int, viewer: Viewer, *, limit: int | None = None
) -> list[dict[str, Any]]:
    """The table's events with a sequence greater than ``sequence``, oldest first, as ``viewer`` may see them.

    The durable rows and, while a table actor holds the table's hand in memory, that hand's events from its log in
    Redis (``games.runtime.hand_log``; a durable row wins where both hold a number), so any process answers a resync
    in the middle of such a hand. With ``limit``, at most that many (the oldest); the caller asks again from the last
    sequence it received.
    """
    logged = _logged_rows_after(table.pk, sequence)  # before the rows: an event leaves the log only once committed
    query = HandEvent.objects.filter(table_id=table.pk, sequence__gt=sequence).order_by("sequence")
    rows: list[HandEvent] = list(query if limit is None else query[:limit])
    if logged:
        durable = {row.sequence for row in rows}
        rows = sorted([*rows, *(row for row in logged if row.sequence not in durable)], key=lambda row: row.sequence)
        if limit is not None:
            rows = rows[:limit]
    viewer_id = _viewer_id(viewer)
    names = hand_names(rows)
    return [event_view(row, viewer_id, names) for row in rows]


def _logged_rows_after(table_id: int, sequence: int) -> list[HandEvent]:
    """The hand log's events after ``sequence`` (none when Redis cannot say: the durable rows are still right, and a
    client missing the rest sees a gap at the next broadcast)."""
    try:
        return hand_log_rows_after(table_id, sequence)
    except RedisError:
        logger.warning("the hand log of table %s could not be read", table_id, exc_info=True)
        return []


def _held_hand_tail(table: Table, hand: Hand | None, logged: list[HandEvent]) -> list[HandEvent]:
    """The logged events that continue the durable log of ``table`` (read in the same snapshot as ``hand``) without a
    gap: the events so far of its hand in play held in memory by a table actor, less those a durable row holds.

    A durable write during the held hand (a chat line, a top-up request, a seat change) is numbered above the log, so
    the durable log can run past logged events that are still only in Redis: those belong to the tail all the same
    (left out, the hand replayed without an action and the snapshot failed until the hand ended). Empty when there are
    none, or when the log read before the snapshot belongs to another moment (the hand ended meanwhile, or a later
    hand began: a gap, or a logged event of another hand that no durable row holds); the client then catches up from
    the broadcasts."""
    if hand is None or not logged:
        return []
    first = logged[0].sequence
    if first > table.last_sequence + 1:
        return []
    durable: set[int] = set()
    if first <= table.last_sequence:
        durable = set(
            HandEvent.objects.filter(
                table_id=table.pk, sequence__gte=first, sequence__lte=table.last_sequence
            ).values_list("sequence", flat=True)
        )
    top = max(table.last_sequence, logged[-1].sequence)
    if not (durable | {row.sequence for row in logged}).issuperset(range(first, top + 1)):
        return []  # a number neither written nor logged: another moment
    tail = [row for row in logged if row.sequence not in durable]
    if any(row.hand_id not in (None, hand.pk) for row in tail):
        return []
    return tail


def _hand_so_far(hand: Hand, tail: list[HandEvent], durable_through: int) -> HandState:
    """The engine state of ``hand`` after its durable engine events and then those of ``tail``; ``hand``'s clock
    fields (who acts, until when, in which phase) are set as the tail's last ``turn`` event says.
    ``durable_through``: the table's ``last_sequence`` as read with ``hand`` (the tail continues the rows up to it).
    Only those rows are read: the hand may end between the two reads, and its end writes the tail's events as rows
    too (replayed twice, they would be actions after the hand was over)."""
    engine_tail = [row for row in tail if row.hand_id == hand.pk and row.kind in ENGINE_EVENT_KINDS]
    if not engine_tail:
        state = hand_engine_state(hand)
    else:
        logged = [engine_event_from_stored(row.kind, row.payload) for row in engine_tail]
        durable = hand_engine_events(hand.pk, through_sequence=durable_through)
        state = replay(HandConfig.from_dict(hand.config), [*durable, *logged])
    for row in tail:
        if row.kind == "turn" and row.hand_id == hand.pk:
            hand.acting_seat = row.payload.get("seat")
            hand.clock_phase = row.payload.get("clock") or ClockPhase.NONE
            deadline = row.payload.get("deadline")
            hand.action_deadline = parse_datetime(deadline) if isinstance(deadline, str) else None
    if state.is_complete or (hand.acting_seat is not None and state.actor != hand.acting_seat):
        hand.acting_seat, hand.clock_phase, hand.action_deadline = None, ClockPhase.NONE, None
    return state


def _seat_view(
    seat: Seat, state: HandState | None, participants: dict[str, Any], viewer_id: int | None, now: Any
) -> dict[str, Any]:
    occupied = seat.user_id is not None
    view: dict[str, Any] = {"number": seat.number, "occupied": occupied}
    if not occupied:
        return view
    assert seat.user is not None
    in_hand = state is not None and str(seat.number) in participants and seat.number in state.seats
    if in_hand and state is not None:
        stack = state.stacks[seat.number]
    else:
        stack = seat.session.account.balance if seat.session is not None else seat.chips
    view.update(
        {
            "user_id": seat.user_id,
            "name": getattr(seat.user, "table_name", seat.user.get_username()),
            "stack": stack,
            "status": seat.status,
            "sitting_out": seat.status == SeatStatus.SITTING_OUT,
            "sit_out_deadline": seat.sit_out_deadline.isoformat() if seat.sit_out_deadline else None,
            "disconnected": seat.disconnected_since is not None,
            "leaving_after_hand": seat.leave_after_hand,
            "timebank_seconds": seat.timebank_milliseconds / 1000,
            "in_hand": in_hand,
            "is_viewer": seat.user_id == viewer_id,
        }
    )
    if seat.user_id == viewer_id:
        # CASH-15: a top-up the viewer asked for during the hand, added when it ends (their own business only).
        view["top_up_after_hand"] = seat.top_up_after_hand
    if in_hand and state is not None:
        view.update(
            {
                "bet": state.bets[seat.number],
                "contributed": state.contributions[seat.number],
                "folded": seat.number in state.folded_seats,
                "all_in": state.stacks[seat.number] == 0 and seat.number not in state.folded_seats,
                "has_cards": seat.number not in state.folded_seats,
            }
        )
    return view


def hand_in_play_now(table_id: int) -> tuple[Hand, HandState] | None:
    """The table's running hand and its engine state as they stand now (a hand held in memory by a table actor: as
    its events so far in the hand log make it, its clock fields set from them), or None between hands. Two queries."""
    logged = _logged_rows_after(table_id, 0)
    table = Table.objects.select_related("current_hand").filter(pk=table_id).first()
    hand = table.current_hand if table is not None else None
    if table is None or hand is None or hand.status != HandStatus.RUNNING:
        return None
    return hand, _hand_so_far(hand, _held_hand_tail(table, hand, logged), table.last_sequence)


def _shown_cards(hand: Hand, tail: list[HandEvent]) -> dict[int, dict[str, Any]]:
    shown: dict[int, dict[str, Any]] = {}
    durable = _SHOWN_CARDS.all(hand.pk)
    for row in [*durable, *(row for row in tail if row.hand_id == hand.pk and row.kind == "hand_shown")]:
        shown[row.payload["seat"]] = {"cards": row.payload["cards"], "hand_name": row.payload.get("hand_name")}
    return shown


def made_hand_name(state: HandState, seat_number: int) -> str | None:
    """The name of the best hand ``seat_number`` holds with the board so far ("Pair of Aces", "Flush, King High"), or
    None before the flop. Omaha (pot-limit) hands use exactly two hole cards and three board cards (CARD-09)."""
    board = state.board
    if len(board) < 3:
        return None
    hole = state.hole_cards(seat_number)
    if state.config.variant.pot_limit:
        return strength_name(omaha_strength(hole, board))
    return strength_name(holdem_strength((*hole, *board)))


# Every socket opened and every resynchronisation reads a snapshot: its model queries compiled once per process
# (poker_site.core.compiled_sql); compiling them cost more than running them.
_SNAPSHOT_TABLE = CompiledSelect(
    lambda table_id: Table.objects.select_related("stake__game_type", "current_hand").order_by().filter(pk=table_id)
)
_SHOWN_CARDS = CompiledSelect(
    lambda hand_id: HandEvent.objects.filter(hand_id=hand_id, kind="hand_shown").order_by("sequence")
)
_SNAPSHOT_SEATS = CompiledSelect(
    lambda table_id: (
        Seat.objects.filter(table_id=table_id).select_related("user", "session__account").order_by("number")
    )
)


def _commitment_view(hand: Hand) -> dict[str, Any] | None:
    """What the hand's public ``deck_committed`` event published (docs/fairness.md): algorithm, domain, commitment
    and the client seeds, so a page opened or reloaded during the hand can show and keep the commitment before the
    hand ends. Never the server seed. None for a hand dealt without a commitment (an injected test shuffler)."""
    if not hand.deck_commitment:
        return None
    return {
        "algorithm": ALGORITHM,
        "domain": deck_domain(hand.table_id, hand.number),
        "commitment": hand.deck_commitment,
        "client_seeds": dict(hand.client_seeds),
    }


def table_snapshot(table: Table, viewer: Viewer) -> dict[str, Any]:
    """See :func:`_table_snapshot`; read in one REPEATABLE READ transaction so every part matches ``last_sequence``,
    after the table's hand log (a hand held in memory by a table actor: its events so far continue the durable
    state, see :func:`_held_hand_tail`)."""
    logged = _logged_rows_after(table.pk, 0)
    if connection.in_atomic_block:
        return _table_snapshot(table, viewer, logged)
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        return _table_snapshot(table, viewer, logged)


def _table_snapshot(table: Table, viewer: Viewer, logged: list[HandEvent]) -> dict[str, Any]:
    """Everything a client needs to draw the table for ``viewer`` (None or anonymous: a spectator).

    Keys: ``table`` (id, name, kind, status, ``closing`` when support closed it during a hand, seats, and the
    policy's part: game, blinds and ante, ``currency`` — EUR for cash tables, with the stake and buy-in range; CHIPS
    for tournament tables, with the tournament and its level), ``last_sequence`` (events after it are not included),
    ``seats`` (occupant, name, stack, status, in-hand flags), ``button``, ``hand`` (None between hands; otherwise
    number, blinds seats, street, board, pots, acting seat, deadline, clock, shown cards), ``waiting`` (between hands:
    why no hand is dealt, the policy's ``waiting_reason``) and ``viewer`` (their seat, their own hole cards,
    ``made_hand`` — the name of their best hand with the board from the flop on —, their legal actions with min/max
    when it is their turn, settings).

    A hand held in memory by a table actor is shown as its events so far make it (the durable rows, then the hand
    log's ``logged`` events that continue them), and ``last_sequence`` is the last of those.
    """
    found = _SNAPSHOT_TABLE.first(table.pk)
    if found is None:
        raise Table.DoesNotExist(f"table {table.pk} does not exist")
    table = found
    now = timezone.now()
    viewer_id = _viewer_id(viewer)
    hand = table.current_hand
    if hand is not None and hand.status != HandStatus.RUNNING:
        hand = None
    tail = _held_hand_tail(table, hand, logged)
    state = _hand_so_far(hand, tail, table.last_sequence) if hand is not None else None
    participants: dict[str, Any] = hand.participants if hand is not None else {}
    seats = _SNAPSHOT_SEATS.all(table.pk)
    for row in tail:  # a connection lost or restored during the hand (CASH-22) is in the tail only
        if row.kind in ("seat_disconnected", "seat_reconnected"):
            for seat in seats:
                if seat.number == row.payload.get("seat"):
                    seat.disconnected_since = row.created_at if row.kind == "seat_disconnected" else None
    seat_views = [_seat_view(seat, state, participants, viewer_id, now) for seat in seats]
    viewer_seat = next((seat for seat in seats if viewer_id is not None and seat.user_id == viewer_id), None)

    hand_view: dict[str, Any] | None = None
    viewer_view: dict[str, Any] = {
        "user_id": viewer_id,
        "seat": viewer_seat.number if viewer_seat else None,
        "hole_cards": [],
        "legal_actions": None,
        "sit_out_next_big_blind": viewer_seat.sit_out_next_big_blind if viewer_seat else False,
    }
    if hand is not None and state is not None:
        config = hand.config
        hand_view = {
            "id": hand.pk,
            "number": hand.number,
            "button": config["button"],
            "small_blind_seat": config["small_blind_seat"],
            "big_blind_seat": config["big_blind_seat"],
            "street": state.street.label,
            "board": [str(card) for card in state.board],
            "pots": [pot.to_dict() for pot in state.pots],
            "pot_total": state.pot_total,
            "current_bet": state.current_bet,
            "acting_seat": hand.acting_seat,
            "action_deadline": hand.action_deadline.isoformat() if hand.action_deadline else None,
            "clock": hand.clock_phase,
            "shown": {str(seat): cards for seat, cards in _shown_cards(hand, tail).items()},
            "fairness": _commitment_view(hand),
        }
        own = participants.get(str(viewer_seat.number)) if viewer_seat is not None else None
        if viewer_seat is not None and own is not None and own["user"] == viewer_id:
            viewer_view["hole_cards"] = [str(card) for card in state.hole_cards(viewer_seat.number)]
            if viewer_seat.number not in state.folded_seats:
                viewer_view["made_hand"] = made_hand_name(state, viewer_seat.number)
            if state.actor == viewer_seat.number and hand.acting_seat == viewer_seat.number:
                legal = state.legal_actions()
                viewer_view["legal_actions"] = legal.to_dict() if legal is not None else None
    policy_part = policy_for(table).snapshot_table(table, now)
    # The policy adds to the table's facts and never replaces them (a tournament's status once hid a closed table's).
    assert not policy_part.keys() & {"id", "name", "kind", "status", "closing", "seat_count"}, sorted(policy_part)
    return {
        "table": {
            "id": table.pk,
            "name": table.name,
            "kind": table.kind,
            "status": table.status,
            "closing": table.close_after_hand,
            "seat_count": table.seat_count,
            **policy_part,
        },
        "last_sequence": max(tail[-1].sequence, table.last_sequence) if tail else table.last_sequence,
        "button": hand.config["button"] if hand is not None else table.previous_button_seat,
        "seats": seat_views,
        "hand": hand_view,
        "waiting": policy_for(table).waiting_reason(table, seats, now) if hand is None else None,
        "viewer": viewer_view,
        "server_time": now.isoformat(),
    }
