"""One pass over a hand record that gives each decision its context, and the chips that moved between players.

The indicators share this pass (the :class:`~compliance.detection.detector.Detector` runs it once per hand):

* every action becomes a :class:`Decision` with what the player faced: the amount to call, the pot, what they had
  invested, who was still in, who made the last voluntary bet or raise on the street (the *aggressor*; blinds are not
  voluntary), and the one opponent the decision was aimed at, if any (see :func:`directed_opponent`);
* :attr:`AnalysedHand.transfers` splits each loser's loss between the winners in proportion to their gains (a hand
  with side pots is approximated the same way);
* :func:`decision_equity` is the actor's all-in equity at a decision against the hands still in (the cards are
  known to compliance) and :func:`holding_strength` the holding's equity against a random hand, both from
  :mod:`games.engine.equity`; :func:`street_equities` the equities street by street for the review replayer.

Standard library and the engine only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from compliance.detection.records import BOARD_SIZE_AT_STREET, STREETS, HandRecord
from games.engine.cards import Card
from games.engine.equity import EquityResult, all_in_equity, equity_against_random_hands

AGGRESSIVE_KINDS = frozenset({"bet", "raise"})
COMMITTING_KINDS = frozenset({"call", "bet", "raise"})


@dataclass(frozen=True, slots=True)
class Decision:
    """An action with the situation it was taken in. Amounts are chips; ``to_call`` is capped at the stack.

    ``live_before`` are the seats still holding cards before the action (the actor included); ``all_in_before`` those
    of them with no chips left. ``aggressor`` is the seat that made the last voluntary bet or raise on this street
    (``None``: nobody yet); ``opponent`` the one player the decision was aimed at (:func:`directed_opponent`).
    """

    index: int
    seat: int
    player: str
    street: str
    kind: str
    amount: int
    all_in: bool
    timeout: bool
    decision_ms: int | None
    to_call: int
    pot_before: int
    invested_before: int
    stack_before: int
    live_before: tuple[int, ...]
    all_in_before: tuple[int, ...]
    aggressor: int | None
    opponent: int | None

    @property
    def facing_bet(self) -> bool:
        return self.to_call > 0

    @property
    def aggressive(self) -> bool:
        return self.kind in AGGRESSIVE_KINDS

    @property
    def preflop(self) -> bool:
        return self.street == "preflop"


def directed_opponent(seat: int, aggressor: int | None, live: tuple[int, ...]) -> int | None:
    """The opponent a decision is aimed at: the player whose voluntary bet or raise the actor faces, or — when nobody
    has bet on the street — the only other player still in. ``None`` in a multiway pot nobody has bet into."""
    if aggressor is not None and aggressor != seat:
        return aggressor
    if len(live) == 2:
        return live[0] if live[1] == seat else live[1]
    return None


class AnalysedHand:
    """A :class:`HandRecord` with its decisions in context, contributions and transfers (see the module docstring)."""

    __slots__ = ("contributions", "decisions", "equities", "players", "record", "transfers")

    def __init__(self, record: HandRecord) -> None:
        self.record = record
        self.players: dict[int, str] = {seat.seat: seat.player for seat in record.seats}
        self.decisions, self.contributions = _walk(record, self.players)
        self.transfers = _transfers(record)
        # (decision index, opponents, samples, exact limit) -> equity: indicators judging the same decision against the
        # same hands (chip dumping and net flow) compute it once; the figure is seeded, so the cache changes nothing.
        self.equities: dict[tuple[int, tuple[int, ...], int, int], float] = {}

    def board_at(self, street: str) -> tuple[Card, ...]:
        return self.record.board[: BOARD_SIZE_AT_STREET[street]]

    def hole_cards(self, seat: int) -> tuple[Card, ...]:
        return self.record.seat_of(seat).hole_cards

    def in_big_blinds(self, chips: float) -> float:
        return chips / self.record.big_blind


def _walk(record: HandRecord, players: dict[int, str]) -> tuple[tuple[Decision, ...], dict[int, int]]:
    stacks = {seat.seat: seat.start_stack for seat in record.seats}
    contributions = dict.fromkeys(stacks, 0)
    round_bets = dict.fromkeys(stacks, 0)
    for forced in record.forced_bets:
        stacks[forced.seat] -= forced.amount
        contributions[forced.seat] += forced.amount
        if forced.kind != "ante":
            round_bets[forced.seat] += forced.amount
    live = [seat.seat for seat in record.seats]
    street = "preflop"
    aggressor: int | None = None
    decisions: list[Decision] = []
    for index, action in enumerate(record.actions):
        if action.street != street:
            street = action.street
            round_bets = dict.fromkeys(stacks, 0)
            aggressor = None
        seat = action.seat
        to_call = max(0, max(round_bets.values()) - round_bets[seat])
        live_before = tuple(live)
        decisions.append(
            Decision(
                index=index,
                seat=seat,
                player=players[seat],
                street=street,
                kind=action.kind,
                amount=action.amount,
                all_in=action.all_in,
                timeout=action.timeout,
                decision_ms=action.decision_ms,
                to_call=min(to_call, stacks[seat]),
                pot_before=sum(contributions.values()),
                invested_before=contributions[seat],
                stack_before=stacks[seat],
                live_before=live_before,
                all_in_before=tuple(other for other in live_before if stacks[other] == 0),
                aggressor=aggressor,
                opponent=directed_opponent(seat, aggressor, live_before),
            )
        )
        stacks[seat] -= action.amount
        contributions[seat] += action.amount
        round_bets[seat] = action.total_bet
        if action.kind in AGGRESSIVE_KINDS:
            aggressor = seat
        elif action.kind == "fold":
            live.remove(seat)
    return tuple(decisions), contributions


def _transfers(record: HandRecord) -> dict[tuple[str, str], float]:
    """(loser, winner) -> chips: each loss split between the winners in proportion to their gains."""
    gains = {seat.player: seat.net for seat in record.seats if seat.net > 0}
    total_gain = sum(gains.values())
    if not total_gain:
        return {}
    transfers: dict[tuple[str, str], float] = {}
    for seat in record.seats:
        if seat.net < 0:
            for winner, gain in gains.items():
                transfers[(seat.player, winner)] = -seat.net * gain / total_gain
    return transfers


def decision_equity(
    hand: AnalysedHand,
    decision: Decision,
    opponents: Sequence[int] | None = None,
    *,
    samples: int,
    exact_limit: int,
) -> float | None:
    """The actor's all-in equity at ``decision`` against the hands of ``opponents`` (default: every other player still
    in), on the board dealt by then.

    ``None`` when one of those hands is unknown to compliance. The Monte-Carlo draw is seeded with the hand id, the
    action's position and the opponents, so the same hand always gives the same figure.
    """
    others = [seat for seat in decision.live_before if seat != decision.seat] if opponents is None else list(opponents)
    if not others:
        return None
    holes = [hand.hole_cards(seat) for seat in (decision.seat, *others)]
    if any(not hole for hole in holes):
        return None
    key = (decision.index, tuple(others), samples, exact_limit)
    known = hand.equities.get(key)
    if known is not None:
        return known
    result = all_in_equity(
        hand.record.variant,
        holes,
        hand.board_at(decision.street),
        samples=samples,
        exact_limit=exact_limit,
        seed=f"{hand.record.hand_id}:{decision.index}:{','.join(map(str, others))}",
    )
    equity = hand.equities[key] = result.players[0].equity
    return equity


def holding_strength(hand: AnalysedHand, decision: Decision, *, samples: int) -> float | None:
    """The actor's holding at ``decision`` judged as its owner could: equity against one random hand on the board
    dealt by then (``None`` when compliance does not know the cards)."""
    hole = hand.hole_cards(decision.seat)
    if not hole:
        return None
    result = equity_against_random_hands(
        hand.record.variant,
        hole,
        hand.board_at(decision.street),
        samples=samples,
        seed=f"{hand.record.hand_id}:{decision.index}:holding",
    )
    return result.equity


@dataclass(frozen=True, slots=True)
class StreetEquity:
    """The equities at the start of ``street`` of the players still in then (``seats``, in seat order of the hand)."""

    street: str
    seats: tuple[int, ...]
    result: EquityResult


def street_equities(hand: AnalysedHand, *, samples: int = 2_000, exact_limit: int = 10_000) -> list[StreetEquity]:
    """All-in equity per street for every player still in at the start of each street reached (FRD-19, the review
    replayer). A street is left out when fewer than two players were in or a hand still in is unknown."""
    record = hand.record
    reached = {street for street, size in BOARD_SIZE_AT_STREET.items() if size <= len(record.board)}
    results = []
    for street in STREETS:
        if street not in reached:
            break
        seats = tuple(seat.seat for seat in record.seats if seat.seat not in folded_before_at(hand, street))
        holes = [hand.hole_cards(seat) for seat in seats]
        if len(seats) < 2 or any(not hole for hole in holes):
            continue
        result = all_in_equity(
            record.variant,
            holes,
            hand.board_at(street),
            samples=samples,
            exact_limit=exact_limit,
            seed=f"{record.hand_id}:{street}",
        )
        results.append(StreetEquity(street, seats, result))
    return results


def folded_before_at(hand: AnalysedHand, street: str) -> set[int]:
    """Seats that folded before ``street`` began."""
    order = STREETS.index(street)
    return {
        decision.seat
        for decision in hand.decisions
        if decision.kind == "fold" and STREETS.index(decision.street) < order
    }


__all__ = [
    "AGGRESSIVE_KINDS",
    "COMMITTING_KINDS",
    "AnalysedHand",
    "Decision",
    "StreetEquity",
    "decision_equity",
    "directed_opponent",
    "holding_strength",
    "street_equities",
]
