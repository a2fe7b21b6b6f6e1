"""Net flow between two accounts with luck removed: large one-way transfer of chips by decisions (FRD-14, FRD-02;
indicator of FRD-19).

**Equity-adjusted losses (the test).** Compliance knows every player's cards, so what a decision gave away can be
measured against the cards actually held. When only two players hold cards (L and W) and L faces W's bet (cards of
both known), L's decision is judged with L's equity ``e`` against W's hand on the board dealt by then, the chips ``c``
it cost to call and the pot ``P`` before the decision (W's bet included):

* L **calls** (or calls all-in): the loss is ``c - e (P + c)``, what the call cost beyond L's share of the pot it
  made (negative for a call with the odds);
* L **folds**: the loss is ``e (P + c) - c``, the share of the pot given up beyond the price (negative for a fold of a
  hand that was behind the price); folding the best hand on the river to the partner's bet loses the whole pot;
* L **bets or raises all-in** and W calls: the loss is the call part as above plus ``(1 - 2 e) m`` for the ``m``
  chips W matched (shoving junk into the partner's calling hand).

Decisions costing less than ``minimum_call_big_blinds`` are left out; multi-way pots do not enter (a loss there is
not to one player). A hand gives one figure per ordered pair: the loss ``l`` of L's decisions facing W in it (big
blinds) and its pot ``s`` (the largest pot they were about, with the call and what was matched) — the decisions of
one hand are not independent trials, the hands are.

Everybody gives some away — a loose player to everyone, everyone to a nit whose bets are strong — so the loss
expected of L against W is ``mu = m_L + m_W - m`` (additive): ``m_L`` L's mean against everybody but W, ``m_W`` the
mean of everybody but L facing W's bets, ``m`` the room's, each shrunk towards the room's by ``loss_prior_weight``
hands. Two tests, named in advance, judge the pair's ``n`` hands: **per hand** (each hand weighs 1: ``z = (sum l - n
mu) / sqrt(n v)``) and **per pot** (each hand's loss taken per big blind of its pot, a weighted test whose variance
uses the pots' sizes: ``z = (sum l - mu sum s) / sqrt(v sum s^2)``, ``mu`` and ``v`` per big blind of pot), so many
moderate losses and a few stack-deep ones are both evidence when they are large against what the same players lose
elsewhere. The variance ``v`` is the wider of two: L's with everybody but W, and everybody's but L's facing W's bets
(shrunk like the means), so a high-variance honest player — a card-blind caller, a maniac's opponents — is judged
against the spread they show with everybody, and a few stack-deep losses to one player are evidence when each is
large against that spread (``minimum_judged_hands`` keeps a handful of hands from being judged at all).
The pair's chance is twice the smaller normal tail (Bonferroni over the two tests); the score is the ``z`` of that
chance.

**The room's own null (empirical null).** The additive ``mu`` is a model, and players' styles interact: a calling
station facing a maniac's bets gains less than the station's losses elsewhere plus everybody's gains against the
maniac predict (the others call the maniac selectively), and two friends of those styles who share thousands of hands
turn that small bias into a large ``z``. Measured on the honest pairs of ``benchmarks/second_room.py`` at 200,000
hands: the per-hand ``z`` had mean 0.13 and spread 0.65, the per-pot ``z`` mean 0.85 and spread 1.17 (1,328 pairs of
10 to 50 hands), and an honest station-maniac pair of friends reached 5.05 against a bar of 4.4. So each test's ``z``
is judged against the room's own distribution of it, as large-scale testing does (Efron's empirical null): over the
ordered pairs judged, the median and the median absolute deviation (times 1.4826, a normal's spread) of each test's
``z``; a pair's ``z`` becomes ``(z - location) / scale`` with the location at least 0 and the scale at least 1, so the
room can only make a test stricter, never looser. Most judged pairs are honest in any room, so the median and MAD are
theirs; with fewer than :data:`EMPIRICAL_NULL_MINIMUM_PAIRS` judged pairs the theoretical null (0, 1) is kept.

A pair (loser first) is flagged when it shared at least ``minimum_shared_hands`` hands and ``minimum_judged_hands``
hands with judged decisions ("not enough data" below either), the excess ``sum l - mu sum w`` is at least
``minimum_flow_big_blinds``, and the chance is below the multiple-testing bar over the ordered pairs judged
(``chance_flags_per_player``; the bar is a ``z`` of at least ``threshold``).

**The tail test (a few stack-deep dumps).** A dumper who gives the partner a handful of stack-deep pots leaves the ``z``
tests too few hands (a normal approximation of a few heavy-tailed losses is no test). The tail test is exact for any
number of hands: of the pair's ``n`` hands, ``k`` lost at least ``t`` big blinds; each would at the rate ``r`` the two
show with everybody else (the larger of the loser's rate with the others and everybody's facing the winner's bets, each
shrunk towards the room's rate by ``loss_prior_weight`` hands), so the chance is ``P(X >= k)`` for ``X ~ Binomial(n,
r)``. The thresholds are fixed in advance (:data:`TAIL_EDGES`; each player's and pair's losses are kept as counts per
step); the test looks at each threshold where one of the pair's hands starts and which at least ``tail_minimum_losses``
of them reach, and takes the smallest chance times the thresholds looked at (Bonferroni). It is a second family of tests
with its own multiple-testing bar over the ordered pairs with ``tail_minimum_judged_hands`` and ``minimum_shared_hands``
(``tail_judged_pairs``); such a pair is flagged when its chance is below that bar and its hands' losses come to
``minimum_flow_big_blinds`` (the additive expectation of the ``z`` tests can exceed a receiver's whole take when
everybody loses much facing its bets, so the excess is not asked for). Each family has the budget
``chance_flags_per_player * k``. A pair both families find is flagged once, by the one whose score is furthest past its
bar; the flag carries the tail test's figures (``tail_test``) whenever it has them.

**Per-hand flow (the figures shown).** Per hand, each player's *adjusted result* is what they won or lost with the
luck of the cards dealt after the money went in removed: after an all-in before the river with the cards known, their
all-in equity times each pot they contest (main and side pots from the contributions; rake off in proportion) less
what they put in; otherwise the actual result. Each loser's adjusted loss is split between the adjusted winners in
proportion to their gains. Over the ``n`` hands the pair shared: the adjusted flow ``S = sum x`` and, as figures for
the analyst, the flow expected from the two players' results against the field and *persistence* (the flow judged
by its own hands, about the square root of the number of similar transfers): these no longer decide the flag (a
dump comes in a few stack-deep pots, which persistence cannot see, and a multi-way pot splits a loss between winners).

Parameters marked *accumulation* apply to hands fed afterwards; the others when flags are computed.

State (JSON): ``{"format": 1, "players": {player: [opponent_hands, received, capped_square]}, "pairs": [[A, B, n, S,
Q, capped_Q, [[hand, x], ...]], ...], "losses": {"players": {player: [12 sums]}, "pairs": [[L, W, [6 sums], [[hand,
loss], ...]], ...], "tails": {"players": {player: [own, faced]}, "pairs": [[L, W, tail], ...]}}}`` with A < B and
``x`` what A lost to B (big blinds); the six sums of a set of hands' losses are ``[n, sum s, sum s^2, sum l, sum l^2,
sum l s]``; a player's first six are their own hands' losses, the last six their opponents' facing their bets; a
tail is ``[[bucket, hands], ...]`` (:data:`TAIL_EDGES`). A state from before the losses or the tails were kept reads
as none kept (they count from then on).

Standard library and the engine only.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from compliance.detection.analysis import AnalysedHand, Decision, decision_equity
from compliance.detection.flags import (
    STATE_FORMAT,
    Flag,
    Indicator,
    StateError,
    require_format,
    severity_from_probability,
)
from compliance.detection.statistics import (
    binomial_upper_tail,
    multiple_testing_threshold,
    normal_upper_quantile,
    normal_upper_tail,
    shrunk_rate,
)
from games.engine.equity import all_in_equity

EMPIRICAL_NULL_MINIMUM_PAIRS = 50
"""Judged ordered pairs needed before a test's ``z`` is judged against the room's own null (module docstring)."""

LOSS_TESTS = ("per_hand", "per_pot")

Null = dict[str, tuple[float, float]]
"""Per loss test, the (location, scale) its ``z`` is judged against."""

THEORETICAL_NULL: Null = {name: (0.0, 1.0) for name in LOSS_TESTS}

TAIL_EDGES = tuple(10.0 ** (step / 10.0) for step in range(41))
"""The tail test's thresholds: a hand's equity-adjusted loss from 1 to 10,000 big blinds, ten steps a decade. A loss is
counted in bucket ``bisect_right(TAIL_EDGES, loss)``: 0 below 1 big blind (gains included), ``j`` from
``TAIL_EDGES[j - 1]``."""

Tail = dict[int, int]
"""Hands per tail bucket (:data:`TAIL_EDGES`)."""


def tail_bucket(loss: float) -> int:
    """The bucket of a hand's equity-adjusted loss in big blinds (:data:`TAIL_EDGES`)."""
    return bisect_right(TAIL_EDGES, loss)


def _tail_without(tail: Tail, other: Tail) -> Tail:
    return {bucket: count - other.get(bucket, 0) for bucket, count in tail.items()}


def _add_tail(into: Tail, other: Tail) -> None:
    for bucket, count in other.items():
        into[bucket] = into.get(bucket, 0) + count


def _at_or_above(tail: Tail, bucket: int) -> int:
    return sum(count for index, count in tail.items() if index >= bucket)


def _tail(values: Any) -> Tail:
    tail = {int(bucket): int(count) for bucket, count in values}
    if any(not 0 <= bucket <= len(TAIL_EDGES) or count < 0 for bucket, count in tail.items()):
        raise ValueError("a tail is [bucket, count] pairs within the edges")
    return tail


@dataclass(frozen=True)
class NetFlowParameters:
    threshold: float = 3.0
    """The lowest score (``z`` of the equity-adjusted losses) that flags; the multiple-testing bar over the pairs
    judged (``chance_flags_per_player``) is usually higher."""
    chance_flags_per_player: float = 0.0001
    """The bar is the ``z`` whose chance is ``chance_flags_per_player * k / m`` for the ``m`` ordered pairs judged
    among ``k`` players (Bonferroni: honest play is expected to flag at most ``chance_flags_per_player * k`` pairs)."""
    minimum_judged_hands: int = 10
    """Hands with judged decisions of the loser facing the winner's bets before the pair is judged by the ``z`` tests
    ("not enough data" below)."""
    tail_minimum_judged_hands: int = 3
    """Such hands before the pair is judged by the tail test (exact: it needs no normal approximation, so a few
    stack-deep losses, each far in both players' tails, are evidence)."""
    tail_minimum_losses: int = 3
    """The tail test looks only at thresholds that at least this many of the pair's hands reach: the rate of the
    largest losses is estimated from few hands (and depends on how deep the two players' stacks are), so two freak
    pots are not evidence however rare they look."""
    minimum_flow_big_blinds: float = 60.0
    """Big blinds the equity-adjusted losses must exceed what is expected of the two (``S - n mu``)."""
    minimum_shared_hands: int = 100
    """Hands the two were dealt into together before judging ("not enough data" below)."""
    loss_prior_weight: float = 30.0
    """Hands at the room's mean and variance added to each player's own equity-adjusted losses."""
    prior_weight: float = 200.0
    """Opponent-hands at a result of 0 added to each player's mean result against the field (the per-hand figures)."""
    minimum_call_big_blinds: float = 5.0
    """Accumulation: a decision facing a bet is judged when calling costs at least this much (as chip dumping's calls:
    an equity per judged decision is the indicator's cost, and opening raises are not where chips are dumped)."""
    variance_cap_big_blinds: float = 50.0
    """Accumulation: a hand's flow counts at most this much in the field's variance of the per-hand figures."""
    equity_samples: int = 400
    """Accumulation: Monte-Carlo run-outs for an equity that is not enumerated."""
    equity_exact_limit: int = 2_000
    """Accumulation: enumerate the run-outs when there are at most this many."""
    evidence_hands: int = 25
    """Accumulation: how many hands of a pair are kept as evidence (the largest transfers and losses)."""
    evidence_minimum_big_blinds: float = 5.0
    """Accumulation: a hand is kept as evidence when it moved (or its decisions lost) at least this much."""


def adjusted_results(hand: AnalysedHand, *, samples: int, exact_limit: int) -> tuple[dict[int, float], bool]:
    """(seat -> adjusted result in chips, whether the all-in equity was used); see the module docstring."""
    record = hand.record
    actual = {seat.seat: float(seat.net) for seat in record.seats}
    if not record.actions or record.actions[-1].street == "river" or len(record.board) < 5:
        return actual, False
    folded = {decision.seat for decision in hand.decisions if decision.kind == "fold"}
    live = [seat.seat for seat in record.seats if seat.seat not in folded]
    if len(live) < 2 or any(not hand.hole_cards(seat) for seat in live):
        return actual, False
    contributions = hand.contributions
    total = sum(contributions.values())
    awarded = sum(pot.amount for pot in record.pots)
    if total <= 0:
        return actual, False
    scale = awarded / total
    board = hand.board_at(record.actions[-1].street)
    expected = dict.fromkeys(actual, 0.0)
    previous = 0
    for level in sorted({contributions[seat] for seat in live}):
        amount = sum(min(paid, level) - min(paid, previous) for paid in contributions.values())
        eligible = [seat for seat in live if contributions[seat] >= level]
        previous = level
        if amount <= 0:
            continue
        if len(eligible) == 1:
            expected[eligible[0]] += amount * scale
            continue
        result = all_in_equity(
            record.variant,
            [hand.hole_cards(seat) for seat in eligible],
            board,
            samples=samples,
            exact_limit=exact_limit,
            seed=f"{record.hand_id}:net_flow:{','.join(map(str, eligible))}",
        )
        for seat, player in zip(eligible, result.players, strict=True):
            expected[seat] += player.equity * amount * scale
    return {seat: expected[seat] - contributions[seat] for seat in actual}, True


def pair_transfers(results: Mapping[str, float]) -> dict[tuple[str, str], float]:
    """(loser, winner) -> amount: each loss split between the winners in proportion to their gains."""
    gains = {player: value for player, value in results.items() if value > 0}
    total_gain = sum(gains.values())
    if total_gain <= 0:
        return {}
    return {
        (player, winner): -value * gain / total_gain
        for player, value in results.items()
        if value < 0
        for winner, gain in gains.items()
    }


def decision_losses(
    hand: AnalysedHand, *, minimum_call: float, samples: int, exact_limit: int
) -> list[tuple[str, str, float, float]]:
    """(loser, winner, loss, pot) in big blinds for every decision of the hand judged by its equity-adjusted loss
    (module docstring): heads-up, facing the other player's bet of at least ``minimum_call`` big blinds, or an all-in
    bet or raise the other player called; both players' cards known. ``pot`` is the pot the decision was about (before
    it, with the call and what the opponent matched)."""
    decisions = hand.decisions
    big_blind = hand.record.big_blind
    losses = []
    for position, decision in enumerate(decisions):
        if decision.timeout or len(decision.live_before) != 2:
            continue
        opponent = next(seat for seat in decision.live_before if seat != decision.seat)
        facing = decision.to_call > 0 and decision.aggressor == opponent
        if decision.kind in ("fold", "call"):
            judged = facing and decision.to_call >= minimum_call * big_blind
        elif decision.kind in ("bet", "raise") and decision.all_in:
            judged = _called_by(decisions, position, opponent) > 0
        else:
            judged = False
        if not judged:
            continue
        equity = decision_equity(hand, decision, (opponent,), samples=samples, exact_limit=exact_limit)
        if equity is None:
            continue
        matched = _called_by(decisions, position, opponent) if decision.kind != "fold" else 0
        loss = _loss(decision, equity, matched)
        pot = decision.pot_before + decision.to_call + matched
        losses.append((decision.player, hand.players[opponent], loss / big_blind, pot / big_blind))
    return losses


def _called_by(decisions: tuple[Decision, ...], position: int, opponent: int) -> int:
    """The chips ``opponent`` called with in the next decision after ``position`` (0 when it was not a call)."""
    for later in decisions[position + 1 :]:
        if later.seat == opponent:
            return later.amount if later.kind == "call" else 0
    return 0


def _loss(decision: Decision, equity: float, matched: int) -> float:
    """Chips the decision lost against the cards held (module docstring): positive when it gave value away."""
    price = decision.to_call
    pot_after_call = decision.pot_before + price
    if decision.kind == "fold":
        return equity * pot_after_call - price
    call_part = price - equity * pot_after_call if price else 0.0
    if decision.kind == "call":
        return call_part
    return call_part + (1.0 - 2.0 * equity) * matched


_LOSS_WIDTH = 6


@dataclass
class _Losses:
    """Hands' equity-adjusted losses ``l`` with their pots ``s`` (big blinds): the sums ``[n, sum s, sum s^2, sum l,
    sum l^2, sum l s]``."""

    sums: list[float] = field(default_factory=lambda: [0.0] * _LOSS_WIDTH)

    @property
    def hands(self) -> int:
        return round(self.sums[0])

    @property
    def total(self) -> float:
        return self.sums[3]

    def add(self, loss: float, pot: float) -> None:
        for index, value in enumerate((1.0, pot, pot * pot, loss, loss * loss, loss * pot)):
            self.sums[index] += value

    def add_all(self, other: _Losses) -> None:
        for index, value in enumerate(other.sums):
            self.sums[index] += value

    def without(self, other: _Losses) -> _Losses:
        return _Losses([mine - theirs for mine, theirs in zip(self.sums, other.sums, strict=True)])

    def weighted(self, by_pot: bool) -> tuple[float, float, float, float, float]:
        """(sum w, sum w^2, sum l, sum l^2, sum l w) with each hand weighted ``w = s`` (by its pot) or ``w = 1``."""
        count, pots, pots_square, losses, losses_square, cross = self.sums
        if by_pot:
            return pots, pots_square, losses, losses_square, cross
        return count, count, losses, losses_square, losses

    def moments(self, by_pot: bool) -> tuple[float, float]:
        """(mean, variance) of the losses: the loss per unit of weight ``sum l / sum w`` and the residuals'
        ``sum (l - mean w)^2 / sum w^2`` (:meth:`weighted`); (0, 0) without hands."""
        weights, weights_square, losses, losses_square, cross = self.weighted(by_pot)
        if weights <= 0 or weights_square <= 0:
            return 0.0, 0.0
        mean = losses / weights
        residual = losses_square - 2.0 * mean * cross + mean * mean * weights_square
        return mean, max(0.0, residual / weights_square)

    def shrunk(self, room: _Losses, weight: float, by_pot: bool) -> tuple[float, float]:
        """:meth:`moments` pulled towards the room's as if ``weight`` hands like the room's average were seen."""
        weights, weights_square, losses, losses_square, cross = self.weighted(by_pot)
        room_count = room.sums[0]
        room_mean, room_variance = room.moments(by_pot)
        if room_count <= 0:
            return self.moments(by_pot)
        room_weights, room_weights_square, *_ = room.weighted(by_pot)
        prior = weight * room_weights / room_count
        prior_square = weight * room_weights_square / room_count
        weights, weights_square = max(0.0, weights), max(0.0, weights_square)
        mean = (losses + room_mean * prior) / (weights + prior)
        residual = max(0.0, losses_square - 2.0 * mean * cross + mean * mean * weights_square)
        prior_residual = prior_square * (room_variance + (room_mean - mean) ** 2)
        return mean, (residual + prior_residual) / (weights_square + prior_square)

    def to_list(self) -> list[float]:
        return list(self.sums)


def _losses(values: Any) -> _Losses:
    sums = [float(value) for value in values]
    if len(sums) != _LOSS_WIDTH or sums[0] < 0 or sums[0] != int(sums[0]):
        raise ValueError("losses are six sums, the first a whole count of hands")
    return _Losses(sums)


def _null_of(pairs_tests: list[dict[str, dict[str, float]]]) -> Null:
    """The empirical null (module docstring) of the judged pairs' tests against the theoretical null: per test, the
    median (at least 0) and 1.4826 times the median absolute deviation (at least 1) of its ``z``; the theoretical
    (0, 1) with fewer than :data:`EMPIRICAL_NULL_MINIMUM_PAIRS` pairs."""
    null: Null = {}
    for name in LOSS_TESTS:
        values = [tests[name]["score"] for tests in pairs_tests]
        if len(values) < EMPIRICAL_NULL_MINIMUM_PAIRS:
            null[name] = THEORETICAL_NULL[name]
            continue
        location = _median(values)
        spread = 1.4826 * _median([abs(value - location) for value in values])
        null[name] = (max(0.0, location), max(1.0, spread))
    return null


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2.0


@dataclass
class _LossPair:
    losses: _Losses = field(default_factory=_Losses)
    evidence: list[list[Any]] = field(default_factory=list)
    tail: Tail = field(default_factory=dict)


@dataclass
class _Pair:
    shared: int = 0
    flow: float = 0.0
    square: float = 0.0
    capped_square: float = 0.0
    evidence: list[list[Any]] = field(default_factory=list)


class NetFlow(Indicator[NetFlowParameters]):
    name = "net_flow"
    requirements = ("FRD-19", "FRD-14", "FRD-02")
    parameters_type = NetFlowParameters

    def __init__(self, parameters: NetFlowParameters | None = None) -> None:
        super().__init__(parameters)
        # player -> [opponent-hands, big blinds received from opponents, sum of squares]
        self._players: dict[str, list[float]] = {}
        self._pairs: dict[tuple[str, str], _Pair] = {}
        # player -> (their own hands' losses, their opponents' losses facing their bets)
        self._loss_players: dict[str, tuple[_Losses, _Losses]] = {}
        self._loss_pairs: dict[tuple[str, str], _LossPair] = {}  # (loser, winner)
        # player -> (tail of their own hands' losses, tail of their opponents' losses facing their bets)
        self._loss_tails: dict[str, tuple[Tail, Tail]] = {}

    def feed_hand(self, hand: AnalysedHand) -> None:
        parameters = self.parameters
        self._feed_losses(hand)
        results, _adjusted = adjusted_results(
            hand, samples=parameters.equity_samples, exact_limit=parameters.equity_exact_limit
        )
        big_blind = hand.record.big_blind
        by_player = {hand.players[seat]: value / big_blind for seat, value in results.items()}
        transfers = pair_transfers(by_player)
        players = sorted(by_player)
        opponents = len(players) - 1
        for player in players:
            own = self._players.setdefault(player, [0.0, 0.0, 0.0])
            own[0] += opponents
        hand_id = hand.record.hand_id
        cap = parameters.variance_cap_big_blinds**2
        for index, first in enumerate(players):
            for second in players[index + 1 :]:
                x = transfers.get((first, second), 0.0) - transfers.get((second, first), 0.0)
                pair = self._pairs.get((first, second))
                if pair is None:
                    pair = self._pairs[(first, second)] = _Pair()
                pair.shared += 1
                if not x:
                    continue
                capped = min(x * x, cap)
                pair.flow += x
                pair.square += x * x
                pair.capped_square += capped
                mine, theirs = self._players[first], self._players[second]
                mine[1] -= x
                theirs[1] += x
                mine[2] += capped
                theirs[2] += capped
                if abs(x) >= parameters.evidence_minimum_big_blinds:
                    pair.evidence.append([hand_id, round(x, 2)])
                    limit = parameters.evidence_hands
                    if len(pair.evidence) > limit:
                        pair.evidence = sorted(pair.evidence, key=lambda item: -abs(item[1]))[:limit]

    def _feed_losses(self, hand: AnalysedHand) -> None:
        parameters = self.parameters
        # One figure per hand and ordered pair: a player's decisions in one hand (calling the flop, the turn and the
        # river with the same second-best hand) are not independent trials; the hand is.
        in_hand: dict[tuple[str, str], list[float]] = {}
        for loser, winner, loss, pot in decision_losses(
            hand,
            minimum_call=parameters.minimum_call_big_blinds,
            samples=parameters.equity_samples,
            exact_limit=parameters.equity_exact_limit,
        ):
            figures = in_hand.setdefault((loser, winner), [0.0, 0.0])
            figures[0] += loss
            figures[1] = max(figures[1], pot)
        limit = parameters.evidence_hands
        for (loser, winner), (loss, pot) in in_hand.items():
            pair = self._loss_pairs.setdefault((loser, winner), _LossPair())
            pair.losses.add(loss, pot)
            self._loss_players.setdefault(loser, (_Losses(), _Losses()))[0].add(loss, pot)
            self._loss_players.setdefault(winner, (_Losses(), _Losses()))[1].add(loss, pot)
            bucket = tail_bucket(loss)
            own = self._loss_tails.setdefault(loser, ({}, {}))[0]
            faced = self._loss_tails.setdefault(winner, ({}, {}))[1]
            for tail in (pair.tail, own, faced):
                tail[bucket] = tail.get(bucket, 0) + 1
            if loss >= parameters.evidence_minimum_big_blinds:
                pair.evidence.append([hand.record.hand_id, round(loss, 2)])
                if len(pair.evidence) > limit:
                    pair.evidence = sorted(pair.evidence, key=lambda item: -item[1])[:limit]

    def has_data(self) -> bool:
        return bool(self._pairs)

    def room_losses(self) -> _Losses:
        """Every judged hand's loss in the room."""
        room = _Losses()
        for own, _faced in self._loss_players.values():
            room.add_all(own)
        return room

    def room_tail(self) -> Tail:
        """Every judged hand's loss in the room, by tail bucket."""
        room: Tail = {}
        for own, _faced in self._loss_tails.values():
            _add_tail(room, own)
        return room

    def tail_test(self, loser: str, winner: str, room: Tail | None = None) -> dict[str, Any] | None:
        """The tail test of the ordered pair (module docstring), or ``None`` when the loser has no hand counted in its
        tail facing the winner: at each threshold of :data:`TAIL_EDGES` at which one of the pair's hands starts and
        which ``tail_minimum_losses`` of them reach, the exact binomial chance of so many of the pair's hands at or
        above it when each is there at the rate the two show with everybody else (the larger of the loser's and of
        everybody's facing the winner, each shrunk towards the room's by ``loss_prior_weight`` hands); the smallest
        chance times the thresholds looked at (Bonferroni)."""
        pair = self._loss_pairs.get((loser, winner))
        hands = sum(pair.tail.values()) if pair is not None else 0
        if pair is None or hands <= 0:
            return None
        room = room if room is not None else self.room_tail()
        room_hands = sum(room.values())
        weight = self.parameters.loss_prior_weight
        loser_others = _tail_without(self._loss_tails.get(loser, ({}, {}))[0], pair.tail)
        winner_others = _tail_without(self._loss_tails.get(winner, ({}, {}))[1], pair.tail)
        loser_hands, winner_hands = sum(loser_others.values()), sum(winner_others.values())
        minimum = self.parameters.tail_minimum_losses
        looks = sorted(
            bucket
            for bucket, count in pair.tail.items()
            if bucket >= 1 and count > 0 and _at_or_above(pair.tail, bucket) >= minimum
        )
        best_chance, best_threshold, best_exceeding, best_rate = 1.0, None, 0, None
        for bucket in looks:
            room_rate = _at_or_above(room, bucket) / room_hands if room_hands else 1.0
            rate = max(
                shrunk_rate(_at_or_above(loser_others, bucket), loser_hands, room_rate, weight),
                shrunk_rate(_at_or_above(winner_others, bucket), winner_hands, room_rate, weight),
            )
            exceeding = _at_or_above(pair.tail, bucket)
            chance = binomial_upper_tail(hands, exceeding, rate)
            if chance < best_chance:
                best_chance, best_threshold, best_exceeding, best_rate = chance, TAIL_EDGES[bucket - 1], exceeding, rate
        chance = min(1.0, max(1, len(looks)) * best_chance)  # no threshold looked at: no evidence
        return {
            "chance": chance,
            "score": normal_upper_quantile(chance),
            "threshold_big_blinds": None if best_threshold is None else round(best_threshold, 2),
            "exceeding_hands": best_exceeding,
            "expected_rate": best_rate,
            "hands": hands,
            "looks": len(looks),
        }

    def tail_judged_pairs(self) -> list[tuple[str, str]]:
        """Ordered pairs (loser, winner) the tail test judges: ``tail_minimum_judged_hands`` hands in the pair's tail
        and ``minimum_shared_hands``."""
        parameters = self.parameters
        return [
            key
            for key, pair in sorted(self._loss_pairs.items())
            if sum(pair.tail.values()) >= parameters.tail_minimum_judged_hands
            and self.shared_hands(*key) >= parameters.minimum_shared_hands
        ]

    def shared_hands(self, first: str, second: str) -> int:
        pair = self._pairs.get((first, second) if first < second else (second, first))
        return pair.shared if pair is not None else 0

    def judge_losses(
        self, loser: str, winner: str, room: _Losses | None = None, null: Null | None = None
    ) -> dict[str, Any] | None:
        """The equity-adjusted loss tests of the ordered pair (module docstring), each ``z`` judged against ``null``
        (the room's own: :meth:`empirical_null`, computed when not given), or ``None`` when the loser has no judged
        hand facing the winner. To judge every pair, :meth:`judged_losses` computes each pair's tests once."""
        room = room if room is not None else self.room_losses()
        tests = self._loss_tests(loser, winner, room)
        if tests is None:
            return None
        return self._judged((loser, winner), tests, null if null is not None else self.empirical_null(room))

    def judged_losses(self) -> dict[tuple[str, str], dict[str, Any]]:
        """:meth:`judge_losses` of every ordered pair judged (:meth:`judged_pairs`, in its order) against the room's
        own null, each pair's tests computed once for the null and the judgement."""
        raw = self._pairs_loss_tests(self.room_losses())
        null = _null_of(list(raw.values()))
        return {pair: self._judged(pair, tests, null) for pair, tests in raw.items()}

    def empirical_null(self, room: _Losses | None = None) -> Null:
        """The room's own null (:func:`_null_of`) over the ordered pairs judged; the theoretical one, without computing
        any pair's tests, when fewer than :data:`EMPIRICAL_NULL_MINIMUM_PAIRS` pairs are judged."""
        if len(self.judged_pairs()) < EMPIRICAL_NULL_MINIMUM_PAIRS:
            return dict(THEORETICAL_NULL)
        return _null_of(list(self._pairs_loss_tests(room if room is not None else self.room_losses()).values()))

    def _pairs_loss_tests(self, room: _Losses) -> dict[tuple[str, str], dict[str, dict[str, float]]]:
        """:meth:`_loss_tests` of every ordered pair judged that has any (:meth:`judged_pairs`, in its order)."""
        raw = {}
        for loser, winner in self.judged_pairs():
            tests = self._loss_tests(loser, winner, room)
            if tests is not None:
                raw[(loser, winner)] = tests
        return raw

    def _judged(self, key: tuple[str, str], tests: dict[str, dict[str, float]], null: Null) -> dict[str, Any]:
        """The pair's figures from its tests (:meth:`_loss_tests`, changed in place) with each ``z`` judged against
        ``null``."""
        pair = self._loss_pairs[key]
        for name, test in tests.items():
            location, scale = null[name]
            test["raw_score"] = test["score"]
            test["score"] = (test["score"] - location) / scale
            test["chance"] = normal_upper_tail(test["score"])
        name, best = min(tests.items(), key=lambda item: item[1]["chance"])
        chance = min(1.0, 2.0 * best["chance"])  # two tests named in advance: Bonferroni
        return {
            "hands": pair.losses.hands,
            "losses": pair.losses.total,
            "test": name,
            "expected": best["expected"],
            "excess": best["excess"],
            "standard_deviation": best["standard_deviation"],
            "chance": chance,
            "score": normal_upper_quantile(chance),
            "tests": tests,
            "null": {test_name: list(value) for test_name, value in null.items()},
        }

    def _loss_tests(self, loser: str, winner: str, room: _Losses) -> dict[str, dict[str, float]] | None:
        """Each loss test's figures for the ordered pair against the theoretical null, or ``None`` without hands."""
        pair = self._loss_pairs.get((loser, winner))
        if pair is None or pair.losses.hands <= 0:
            return None
        weight = self.parameters.loss_prior_weight
        loser_losses = self._loss_players[loser][0].without(pair.losses)
        winner_losses = self._loss_players[winner][1].without(pair.losses)
        tests = {}
        for name, by_pot in (("per_hand", False), ("per_pot", True)):
            room_mean, _room_variance = room.moments(by_pot)
            loser_mean, loser_variance = loser_losses.shrunk(room, weight, by_pot)
            winner_mean, winner_variance = winner_losses.shrunk(room, weight, by_pot)
            expected = loser_mean + winner_mean - room_mean  # per unit of weight
            # the wider of the spreads: the loser's with the others, the others' facing the winner's bets
            variance = max(loser_variance, winner_variance)
            weights, weights_square, total, *_ = pair.losses.weighted(by_pot)
            excess = total - expected * weights
            spread = math.sqrt(variance * weights_square)
            score = excess / spread if spread > 0 else 0.0
            tests[name] = {
                "expected": expected * weights,
                "excess": excess,
                "standard_deviation": spread,
                "score": score,
                "chance": normal_upper_tail(score),
            }
        return tests

    def judged_pairs(self) -> list[tuple[str, str]]:
        """Ordered pairs (loser, winner) with ``minimum_judged_hands`` and ``minimum_shared_hands``: the
        pairs the loss test judges (the others are "not enough data")."""
        parameters = self.parameters
        return [
            key
            for key, pair in sorted(self._loss_pairs.items())
            if pair.losses.hands >= parameters.minimum_judged_hands
            and self.shared_hands(*key) >= parameters.minimum_shared_hands
        ]

    def flagging_threshold(self, judged: list[tuple[str, str]]) -> float:
        """The ``z`` from which a judged pair flags: the multiple-testing bar over ``judged``, at least
        ``threshold``."""
        parameters = self.parameters
        players = len({player for key in judged for player in key})
        bar = multiple_testing_threshold(math.inf, len(judged), players, parameters.chance_flags_per_player)
        return parameters.threshold if math.isinf(bar) else max(parameters.threshold, normal_upper_quantile(10.0**-bar))

    def severity(self, score: float, threshold: float) -> float:
        return severity_from_probability(normal_upper_tail(score))

    def judge(self, first: str, second: str, pair: _Pair) -> dict[str, Any] | None:
        """The statistics of a pair (module docstring) with the loser first, or ``None`` without data to judge."""
        mine, theirs = self._players[first], self._players[second]
        n = pair.shared
        first_hands, second_hands = mine[0] - n, theirs[0] - n
        if first_hands <= 0 or second_hands <= 0:
            return None
        prior = self.parameters.prior_weight
        first_rate = (mine[1] + pair.flow) / (first_hands + prior)
        second_rate = (theirs[1] - pair.flow) / (second_hands + prior)
        first_square = (mine[2] - pair.capped_square) / first_hands
        second_square = (theirs[2] - pair.capped_square) / second_hands
        expected = (second_rate - first_rate) / 2.0
        excess = pair.flow - n * expected
        own_square = pair.square - 2.0 * expected * pair.flow + n * expected * expected
        loser, winner, sign = (first, second, 1.0) if excess >= 0 else (second, first, -1.0)
        field_variance = n * (first_square + second_square) / 2.0
        score = abs(excess) / math.sqrt(field_variance) if field_variance > 0 else 0.0
        persistence = abs(excess) / math.sqrt(own_square) if own_square > 0 else 0.0
        return {
            "loser": loser,
            "winner": winner,
            "sign": sign,
            "score": score,
            "persistence": persistence,
            "excess": abs(excess),
            "flow": sign * pair.flow,
            "expected": sign * n * expected,
        }

    def flags(self) -> list[Flag]:
        """A flag per ordered pair that one of the two families of tests finds (module docstring): the ``z`` tests over
        the pairs with ``minimum_judged_hands``, the tail test over those with ``tail_minimum_judged_hands``, each
        family against the multiple-testing bar over its own pairs; a pair both find is flagged once, by the family
        whose score is furthest past its bar."""
        parameters = self.parameters
        judged_pairs = self.judged_pairs()
        tail_pairs = self.tail_judged_pairs()
        bars = {"z": self.flagging_threshold(judged_pairs), "tail": self.flagging_threshold(tail_pairs)}
        room, room_tail = self.room_losses(), self.room_tail()
        found: dict[tuple[str, str], dict[str, Any]] = {}
        for key, judged in self.judged_losses().items():
            if judged["excess"] >= parameters.minimum_flow_big_blinds and judged["score"] >= bars["z"]:
                found[key] = {"family": "z", "score": judged["score"], "chance": judged["chance"], "judged": judged}
        tails = {key: self.tail_test(*key, room=room_tail) for key in tail_pairs}
        for key, tail in tails.items():
            if tail is None or tail["score"] < bars["tail"]:
                continue
            tests = self._loss_tests(*key, room)
            # The tail test's materiality: what the pair's hands gave away in all (the additive expectation of the
            # z tests can exceed a receiver's whole take when everybody loses much facing its bets).
            if tests is None or self._loss_pairs[key].losses.total < parameters.minimum_flow_big_blinds:
                continue
            if key in found and found[key]["score"] - bars["z"] >= tail["score"] - bars["tail"]:
                continue
            judged = (
                found[key]["judged"]
                if key in found
                else {
                    "hands": self._loss_pairs[key].losses.hands,
                    "losses": self._loss_pairs[key].losses.total,
                    "expected": tests["per_hand"]["expected"],
                    "excess": tests["per_hand"]["excess"],
                    "standard_deviation": tests["per_hand"]["standard_deviation"],
                    "null": None,
                }
            )
            found[key] = {"family": "tail", "score": tail["score"], "chance": tail["chance"], "judged": judged}
        flags = []
        for (loser, winner), finding in sorted(found.items()):
            judged = finding["judged"]
            tail_figures = tails.get((loser, winner))
            first, second = (loser, winner) if loser < winner else (winner, loser)
            shared = self._pairs[(first, second)]
            figures = self.judge(first, second, shared) if shared.square else None
            sign = 1.0 if loser == first else -1.0
            evidence = self._loss_pairs[(loser, winner)].evidence
            by_tail = finding["family"] == "tail"
            flags.append(
                self.flag(
                    (loser, winner),
                    finding["score"],
                    round(bars[finding["family"]], 3),
                    [item[0] for item in sorted(evidence, key=lambda item: -item[1])],
                    shared_hands=shared.shared,
                    judged_hands=judged["hands"],
                    equity_adjusted_losses_big_blinds=round(judged["losses"], 2),
                    expected_losses_big_blinds=round(judged["expected"], 2),
                    excess_losses_big_blinds=round(judged["excess"], 2),
                    standard_deviation_big_blinds=round(judged["standard_deviation"], 2),
                    test="tail" if by_tail else judged["test"],
                    probability=float(f"{finding['chance']:.3g}"),
                    room_null=None
                    if judged["null"] is None
                    else {
                        name: {"location": round(location, 3), "scale": round(scale, 3)}
                        for name, (location, scale) in judged["null"].items()
                    },
                    pairs_judged=len(tail_pairs if by_tail else judged_pairs),
                    tail_test=None
                    if tail_figures is None
                    else {
                        "threshold_big_blinds": tail_figures["threshold_big_blinds"],
                        "hands_at_or_above": tail_figures["exceeding_hands"],
                        "hands": tail_figures["hands"],
                        "expected_rate": None
                        if tail_figures["expected_rate"] is None
                        else round(tail_figures["expected_rate"], 5),
                        "thresholds_looked_at": tail_figures["looks"],
                        "probability": float(f"{tail_figures['chance']:.3g}"),
                    },
                    adjusted_flow_big_blinds=round(sign * shared.flow, 2),
                    excess_big_blinds_per_100_shared_hands=round(100.0 * judged["excess"] / max(1, shared.shared), 2),
                    persistence=None if figures is None else round(figures["persistence"], 2),
                    losses=[{"hand": item[0], "big_blinds": item[1]} for item in evidence],
                )
            )
        return flags

    # -- state

    def state(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "players": {player: list(values) for player, values in sorted(self._players.items())},
            "pairs": [
                [
                    first,
                    second,
                    pair.shared,
                    pair.flow,
                    pair.square,
                    pair.capped_square,
                    [list(item) for item in pair.evidence],
                ]
                for (first, second), pair in sorted(self._pairs.items())
            ],
            "losses": {
                "players": {
                    player: [*own.to_list(), *faced.to_list()]
                    for player, (own, faced) in sorted(self._loss_players.items())
                },
                "pairs": [
                    [loser, winner, pair.losses.to_list(), [list(item) for item in pair.evidence]]
                    for (loser, winner), pair in sorted(self._loss_pairs.items())
                ],
                "tails": {
                    "players": {
                        player: [sorted(own.items()), sorted(faced.items())]
                        for player, (own, faced) in sorted(self._loss_tails.items())
                    },
                    "pairs": [
                        [loser, winner, sorted(pair.tail.items())]
                        for (loser, winner), pair in sorted(self._loss_pairs.items())
                        if pair.tail
                    ],
                },
            },
        }

    def load_state(self, data: Mapping[str, Any]) -> None:
        require_format(data, self.name)
        try:
            players = {str(player): [float(value) for value in values] for player, values in data["players"].items()}
            if any(len(values) != 3 for values in players.values()):
                raise ValueError("a player's accumulator has three numbers")
            pairs = {
                (str(first), str(second)): _Pair(
                    int(shared),
                    float(flow),
                    float(square),
                    float(capped),
                    [[str(hand), float(x)] for hand, x in evidence],
                )
                for first, second, shared, flow, square, capped, evidence in data["pairs"]
            }
            losses = data.get("losses", {"players": {}, "pairs": []})  # none kept before: they count from now on
            loss_players = {
                str(player): (_losses(values[:_LOSS_WIDTH]), _losses(values[_LOSS_WIDTH:]))
                for player, values in losses["players"].items()
            }
            loss_pairs = {
                (str(loser), str(winner)): _LossPair(
                    _losses(sums), [[str(hand), float(loss)] for hand, loss in evidence]
                )
                for loser, winner, sums, evidence in losses["pairs"]
            }
            tails = losses.get("tails", {"players": {}, "pairs": []})  # none kept before: they count from now on
            loss_tails = {str(player): (_tail(own), _tail(faced)) for player, (own, faced) in tails["players"].items()}
            for loser, winner, tail in tails["pairs"]:
                loss_pairs.setdefault((str(loser), str(winner)), _LossPair()).tail = _tail(tail)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise StateError(f"{self.name}: malformed state: {error}") from error
        self._players, self._pairs = players, pairs
        self._loss_players, self._loss_pairs, self._loss_tails = loss_players, loss_pairs, loss_tails

    def merge(self, other: NetFlow) -> None:
        for player, values in other._players.items():
            mine = self._players.setdefault(player, [0.0, 0.0, 0.0])
            mine[:] = [a + b for a, b in zip(mine, values, strict=True)]
        limit = self.parameters.evidence_hands
        for key, theirs in other._pairs.items():
            pair = self._pairs.setdefault(key, _Pair())
            pair.shared += theirs.shared
            pair.flow += theirs.flow
            pair.square += theirs.square
            pair.capped_square += theirs.capped_square
            pair.evidence = sorted(pair.evidence + theirs.evidence, key=lambda item: -abs(item[1]))[:limit]
        for player, (own, faced) in other._loss_players.items():
            mine_own, mine_faced = self._loss_players.setdefault(player, (_Losses(), _Losses()))
            mine_own.add_all(own)
            mine_faced.add_all(faced)
        for key, their_losses in other._loss_pairs.items():
            losses = self._loss_pairs.setdefault(key, _LossPair())
            losses.losses.add_all(their_losses.losses)
            losses.evidence = sorted(losses.evidence + their_losses.evidence, key=lambda item: -item[1])[:limit]
            _add_tail(losses.tail, their_losses.tail)
        for player, (own_tail, faced_tail) in other._loss_tails.items():
            mine_own_tail, mine_faced_tail = self._loss_tails.setdefault(player, ({}, {}))
            _add_tail(mine_own_tail, own_tail)
            _add_tail(mine_faced_tail, faced_tail)


__all__ = ["NetFlow", "NetFlowParameters", "adjusted_results", "decision_losses", "pair_transfers"]
