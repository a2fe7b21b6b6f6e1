"""Net flow between two accounts with luck removed: large, persistent, one-way transfer of chips (FRD-14, FRD-02;
indicator of FRD-19).

Per hand, each player's *adjusted result* is what they won or lost with the luck of the cards dealt after the money
went in removed:

* when the betting ended before the river with two or more players holding cards (an all-in), and compliance knows
  those players' cards, a player's adjusted result is their all-in equity at that moment times each pot they contest
  (main and side pots built from the contributions; equities from :func:`games.engine.equity.all_in_equity`, exact
  when the run-outs are few), less what they put in; rake comes off the pots in proportion;
* otherwise (the hand ended by a fold or on the river) it is the actual result: what was decided at the table.

Each loser's adjusted loss is split between the adjusted winners in proportion to their gains, in big blinds; ``x`` is
what A lost to B in a hand they were both dealt into (negative when B lost to A). Over the ``n`` hands the pair shared:
``S = sum x`` and ``Q = sum x^2``. Each player's flows against everybody else (the pair's own hands left out) give the
baseline: their mean result per opponent-hand ``r`` (shrunk towards 0 by ``prior_weight`` opponent-hands) and the mean
square ``v``. The flow expected between the two from their results against the field is ``e = (r_B - r_A) / 2`` per
shared hand, so a strong player beating a weak one is not a transfer.

Two statistics, both required:

* the **score**, ``z = (S - n e) / sqrt(n v)`` with ``v`` the two players' mean square against the field, each hand's
  ``x`` capped at ``variance_cap_big_blinds`` for it (a few huge pots would otherwise make every flow look like noise;
  they are what persistence guards against): the flow in standard deviations of what the same two players move with
  anybody else (a one-sided normal test: the severity is ``10 * -log10`` of its tail);
* **persistence**, ``(S - n e) / sqrt(sum (x - e)^2)``, the same sum judged by its own hands: about ``sqrt(k)`` when
  ``k`` similar transfers made it and never above 1 for a single hand, so one big pot — a cooler, a hero call — never
  flags a pair, however large.

A pair is flagged (loser first) when it shared at least ``minimum_shared_hands``, the adjusted flow ``S - n e`` is at
least ``minimum_flow_big_blinds``, persistence reaches ``minimum_persistence`` and the score reaches
``threshold``. Parameters marked *accumulation* apply to hands fed afterwards; the others when flags are computed.

State (JSON): ``{"format": 1, "players": {player: [opponent_hands, received, capped_square]}, "pairs": [[A, B, n, S,
Q, capped_Q, [[hand, x], ...]], ...]}`` with A < B and ``x`` what A lost to B (big blinds).

Standard library and the engine only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from compliance.detection.analysis import AnalysedHand
from compliance.detection.flags import (
    STATE_FORMAT,
    Flag,
    Indicator,
    StateError,
    require_format,
    severity_from_probability,
)
from compliance.detection.statistics import normal_upper_tail
from games.engine.equity import all_in_equity


@dataclass(frozen=True)
class NetFlowParameters:
    threshold: float = 4.5
    """Score (adjusted flow in standard deviations of the two players' flows with the field) from which a pair is
    flagged; high because every pair that ever met is judged."""
    minimum_persistence: float = 3.5
    """The adjusted flow judged by the pair's own hands (about the square root of the number of similar transfers).
    Judged over thousands of pairs like the score: in the second benchmark room at 60,000 hands honest pairs reached
    2.9 (a few 100-big-blind pots one way in 200 to 360 hands)."""
    minimum_flow_big_blinds: float = 60.0
    """Big blinds the adjusted flow must have moved from the loser to the winner."""
    minimum_shared_hands: int = 200
    """Hands the two were dealt into together before judging ("not enough data" below): net flow is a long-run
    signal; between two players who met for a session or two, style alone (a calling station against a nit) moves
    hundreds of big blinds one way."""
    prior_weight: float = 200.0
    """Opponent-hands at a result of 0 added to each player's mean result against the field."""
    variance_cap_big_blinds: float = 50.0
    """Accumulation: a hand's flow counts at most this much in the field's variance (the score's denominator)."""
    equity_samples: int = 400
    """Accumulation: Monte-Carlo run-outs for an all-in equity that is not enumerated."""
    equity_exact_limit: int = 2_000
    """Accumulation: enumerate the run-outs when there are at most this many."""
    evidence_hands: int = 25
    """Accumulation: how many hands of a pair are kept as evidence (the largest adjusted transfers)."""
    evidence_minimum_big_blinds: float = 5.0
    """Accumulation: a hand is kept as evidence when it moved at least this much between the pair."""


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

    def feed_hand(self, hand: AnalysedHand) -> None:
        parameters = self.parameters
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

    def has_data(self) -> bool:
        return bool(self._pairs)

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
        parameters = self.parameters
        flags = []
        for (first, second), pair in sorted(self._pairs.items()):
            if pair.shared < parameters.minimum_shared_hands or not pair.square:
                continue
            judged = self.judge(first, second, pair)
            if judged is None:
                continue
            if (
                judged["excess"] < parameters.minimum_flow_big_blinds
                or judged["persistence"] < parameters.minimum_persistence
                or judged["score"] < parameters.threshold
            ):
                continue
            sign = judged["sign"]
            evidence = sorted(pair.evidence, key=lambda item: -sign * item[1])
            flags.append(
                self.flag(
                    (judged["loser"], judged["winner"]),
                    judged["score"],
                    parameters.threshold,
                    [item[0] for item in evidence],
                    shared_hands=pair.shared,
                    adjusted_flow_big_blinds=round(judged["flow"], 2),
                    expected_from_results_against_field_big_blinds=round(judged["expected"], 2),
                    excess_flow_big_blinds=round(judged["excess"], 2),
                    excess_big_blinds_per_100_shared_hands=round(100.0 * judged["excess"] / pair.shared, 2),
                    persistence=round(judged["persistence"], 2),
                    transfers=[{"hand": item[0], "big_blinds": round(sign * item[1], 2)} for item in evidence],
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
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise StateError(f"{self.name}: malformed state: {error}") from error
        self._players, self._pairs = players, pairs

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


__all__ = ["NetFlow", "NetFlowParameters", "adjusted_results", "pair_transfers"]
