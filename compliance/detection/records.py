"""The neutral records the indicators read: hands, connections, counter uses (FRD-03, FRD-19).

A :class:`HandRecord` is one finished hand as compliance sees it: every player's identity, start stack, hole cards
(known to compliance whether or not they were shown), the ordered actions with their street and decision time, the
board, the pots' winners and each player's net result. The site builds them from its stored hands
(``compliance.hand_records``), ``compliance_scan`` from PHH files (:mod:`compliance.detection.phh_records`), the
benchmark from hands the engine plays (:func:`record_from_state`).

Players are identified by a ``player`` key string (the site uses ``"user:<id>"``, PHH files the player's name); places
(tables and tournaments) by a ``place`` key string (``"table:<id>"``, ``"tournament:<id>"``). Times are seconds since
the epoch (UTC) as floats; amounts are integers (cents at cash tables, chips in tournaments).

Standard library and the engine only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from games.engine.cards import Card
from games.engine.config import Variant
from games.engine.events import ActionTaken, ForcedBetPosted, HandEnded, PotAwarded, StreetDealt
from games.engine.state import HandState

STREETS: tuple[str, ...] = ("preflop", "flop", "turn", "river")
BOARD_SIZE_AT_STREET: dict[str, int] = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}
ACTION_KINDS: frozenset[str] = frozenset({"fold", "check", "call", "bet", "raise"})
FORCED_BET_KINDS: frozenset[str] = frozenset({"ante", "small_blind", "big_blind", "out_of_position_big_blind"})


class RecordError(ValueError):
    """A record that cannot describe a hand (unknown seat, street or action kind, inconsistent lengths)."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A player dealt into the hand. ``hole_cards`` is empty when compliance does not know them (a PHH file with
    ``??``); ``net`` is the chips won (positive) or lost (negative) in the hand, after rake when the source knows it."""

    seat: int
    player: str
    start_stack: int
    hole_cards: tuple[Card, ...]
    net: int


@dataclass(frozen=True, slots=True)
class ForcedBetRecord:
    """A forced bet posted before the first action: ``kind`` is one of :data:`FORCED_BET_KINDS`."""

    seat: int
    kind: str
    amount: int


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """A player's action: ``kind`` is fold, check, call, bet or raise (what it amounted to); ``amount`` the chips it
    added, ``total_bet`` the seat's bet in the betting round afterwards, ``all_in`` whether the stack is now empty.
    ``timeout``: the server acted when the player's time ran out (not a decision). ``decision_ms``: how long the
    player took, when the source knows it."""

    seat: int
    street: str
    kind: str
    amount: int
    total_bet: int
    all_in: bool
    timeout: bool = False
    decision_ms: int | None = None


@dataclass(frozen=True, slots=True)
class PotRecord:
    """A pot: its amount and the seats it was awarded to (several when it was split)."""

    amount: int
    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One finished hand (see the module docstring). ``seats`` are clockwise from the first seat after the button;
    ``board`` is the whole board dealt; ``started_at`` seconds since the epoch, when known."""

    hand_id: str
    variant: Variant
    small_blind: int
    big_blind: int
    button: int
    seats: tuple[SeatRecord, ...]
    forced_bets: tuple[ForcedBetRecord, ...]
    actions: tuple[ActionRecord, ...]
    board: tuple[Card, ...]
    pots: tuple[PotRecord, ...]
    showdown: bool
    table_id: str | None = None
    tournament_id: str | None = None
    started_at: float | None = None
    rake: int = 0

    def __post_init__(self) -> None:
        seats = {seat.seat for seat in self.seats}
        if len(seats) != len(self.seats) or len(seats) < 2:
            raise RecordError(f"hand {self.hand_id}: a hand has two or more players in distinct seats")
        players = {seat.player for seat in self.seats}
        if len(players) != len(self.seats):
            raise RecordError(f"hand {self.hand_id}: a player is dealt in twice")
        if self.big_blind <= 0:
            raise RecordError(f"hand {self.hand_id}: the big blind must be positive")
        for bet in self.forced_bets:
            if bet.seat not in seats or bet.kind not in FORCED_BET_KINDS:
                raise RecordError(f"hand {self.hand_id}: bad forced bet {bet}")
        for action in self.actions:
            if action.seat not in seats or action.street not in BOARD_SIZE_AT_STREET or action.kind not in ACTION_KINDS:
                raise RecordError(f"hand {self.hand_id}: bad action {action}")
        if len(self.board) > 5:
            raise RecordError(f"hand {self.hand_id}: more than five board cards")

    @property
    def place(self) -> str | None:
        """The table or tournament the hand was played at."""
        return self.tournament_id if self.tournament_id is not None else self.table_id

    def seat_of(self, seat: int) -> SeatRecord:
        for record in self.seats:
            if record.seat == seat:
                return record
        raise KeyError(seat)


@dataclass(frozen=True, slots=True)
class ConnectionRecord:
    """A player connected to a place (log-in at a table, socket connect to a table or tournament) from ``ip`` and/or
    the device ``device`` (a stable client identifier) at ``at`` (seconds since the epoch)."""

    player: str
    place: str
    at: float
    ip: str | None = None
    device: str | None = None


COUNTER_KINDS: frozenset[str] = frozenset({"ratholing", "banzai_reset"})


@dataclass(frozen=True, slots=True)
class CounterRecord:
    """One use of a daily counter: ``"ratholing"`` (a counted return to the same table with 100 BB or more, CASH-12)
    or ``"banzai_reset"`` (a Banzai Reset, CASH-31), at ``at`` (seconds since the epoch), at ``place``; ``amount`` the
    stack the player left with, when known."""

    player: str
    kind: str
    at: float
    place: str | None = None
    amount: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in COUNTER_KINDS:
            raise RecordError(f"unknown counter {self.kind!r} (known: {', '.join(sorted(COUNTER_KINDS))})")


def record_from_state(
    state: HandState,
    *,
    hand_id: str,
    players: Mapping[int, str],
    known_hole_cards: Mapping[int, bool] | None = None,
    decision_ms: Sequence[int | None] | None = None,
    net: Mapping[int, int] | None = None,
    table_id: str | None = None,
    tournament_id: str | None = None,
    started_at: float | None = None,
    rake: int = 0,
) -> HandRecord:
    """The record of a complete engine hand.

    ``players`` names the player in each seat. ``known_hole_cards`` says per seat whether compliance knows the cards
    (default: all known). ``decision_ms`` gives one entry per player action in order (``None`` where unknown).
    ``net`` overrides the engine's result per seat (the site's stacks after rake). Raises :class:`RecordError` for an
    incomplete hand or inconsistent inputs.
    """
    if not state.is_complete:
        raise RecordError(f"hand {hand_id} is not over")
    result = state.result
    config = state.config
    seats_in_order = state.seats
    missing = [seat for seat in seats_in_order if seat not in players]
    if missing:
        raise RecordError(f"hand {hand_id}: no player named for seat(s) {missing}")
    nets = dict(result.net) if net is None else dict(net)
    starting = state.starting_stacks
    forced: list[ForcedBetRecord] = []
    actions: list[ActionRecord] = []
    pots: list[PotRecord] = []
    street = "preflop"
    showdown = False
    for event in state.events:
        if isinstance(event, ForcedBetPosted):
            forced.append(ForcedBetRecord(event.seat, event.blind, event.amount))
        elif isinstance(event, StreetDealt):
            street = event.street
        elif isinstance(event, ActionTaken):
            actions.append(
                ActionRecord(
                    seat=event.seat,
                    street=street,
                    kind=event.resolved,
                    amount=event.amount,
                    total_bet=event.total_bet,
                    all_in=event.all_in,
                    timeout=event.action.kind == "timeout",
                )
            )
        elif isinstance(event, PotAwarded):
            pots.append(PotRecord(event.pot.amount, event.pot.winners))
        elif isinstance(event, HandEnded):
            showdown = event.showdown
    if decision_ms is not None:
        if len(decision_ms) != len(actions):
            raise RecordError(f"hand {hand_id}: {len(decision_ms)} decision times for {len(actions)} actions")
        actions = [_with_time(action, milliseconds) for action, milliseconds in zip(actions, decision_ms, strict=True)]
    known = known_hole_cards or {}
    seats = tuple(
        SeatRecord(
            seat=seat,
            player=players[seat],
            start_stack=starting[seat],
            hole_cards=state.hole_cards(seat) if known.get(seat, True) else (),
            net=nets.get(seat, 0),
        )
        for seat in seats_in_order
    )
    return HandRecord(
        hand_id=hand_id,
        variant=config.variant,
        small_blind=config.small_blind,
        big_blind=config.big_blind,
        button=config.button,
        seats=seats,
        forced_bets=tuple(forced),
        actions=tuple(actions),
        board=state.board,
        pots=tuple(pots),
        showdown=showdown,
        table_id=table_id,
        tournament_id=tournament_id,
        started_at=started_at,
        rake=rake,
    )


def _with_time(action: ActionRecord, milliseconds: int | None) -> ActionRecord:
    if milliseconds is None or action.timeout:
        return action
    if type(milliseconds) is not int or milliseconds < 0:
        raise RecordError(f"a decision time must be a non-negative whole number of milliseconds, not {milliseconds!r}")
    return replace(action, decision_ms=milliseconds)


__all__ = [
    "ACTION_KINDS",
    "BOARD_SIZE_AT_STREET",
    "COUNTER_KINDS",
    "FORCED_BET_KINDS",
    "STREETS",
    "ActionRecord",
    "ConnectionRecord",
    "CounterRecord",
    "ForcedBetRecord",
    "HandRecord",
    "PotRecord",
    "RecordError",
    "SeatRecord",
    "record_from_state",
]
