"""Chip dumping: repeated large transfers from one player to the same opponent where the loser's holdings or decisions
were weak (FRD-14, FRD-02; indicator of FRD-19).

Judged decisions of a player L against an opponent W (cards are known to compliance; equities from
:mod:`games.engine.equity`):

* **commitment** — L calls, bets or raises all-in, or calls when every other player still in is all-in, having put at
  least ``minimum_stake_big_blinds`` into the hand by then; judged against every other player still in, one by one.
  *Weak* when L's equity against W's hand is below ``weak_equity`` **and** L's holding is weak in itself — its equity
  against a random hand below ``weak_holding`` — i.e. L called off or shoved with little equity and a hand that could
  not expect to be ahead. (Being behind with a good hand is an honest cooler; honest players almost never put their
  stack in with a weak holding.)
* **fold** — L folds to W's voluntary bet or raise after putting at least ``minimum_fold_investment_big_blinds`` into
  the hand; judged against W. *Weak* when L's equity against W's hand was at least ``weak_fold_equity`` (folding a
  hand that was good enough to call against the cards actually held).
* **call** — heads-up after the flop, L calls W's voluntary bet (not all-in) costing at least
  ``minimum_call_big_blinds``; judged against W. *Weak* as a commitment is: little equity against W's hand and a weak
  holding — paying off the partner with nothing, street after street, is how a dumper loses without ever going all-in.

Everybody makes such decisions now and then; a dumper makes them against one partner. For the ordered pair (L, W):
per kind the judged decisions ``n`` and the weak ones ``k``, and the big blinds L lost to W in hands with a weak
decision. The weak rate expected of L against W, per kind, is L's rate against everybody else (shrunk towards the
population's rate by ``prior_weight`` decisions; a decision judged against several opponents counts once for the
player) times how much more often than the population's the decisions of everybody else against W are weak (shrunk
the same way): a nit who bets only strong hands makes everybody's calls against him look weak. The chance of so many
weak decisions in all by bad luck: each kind a binomial with that rate, the kinds added into one count (exactly, by
convolution), so a dumper's weak decisions spread over calls, folds and all-ins add up, and a kind without weak
decisions does not dilute the others as combining one test per kind would. The counts are first divided by the room's
*dispersion* (:meth:`ChipDumping.dispersion`: how much more the pairs' weak counts spread than those binomials say,
estimated from all pairs, at least 1: a quasi-binomial test). The score is ``-log10`` of that chance (3 = one in a
thousand). Flagged when the pair has ``minimum_weak_decisions`` weak decisions, the weak hands moved at least
``minimum_transfer_big_blinds`` from L to W, and the score reaches the higher of ``threshold`` and the multiple-testing
bar over the pairs that reached those minimums (``chance_flags_per_player``).

Parameters marked *accumulation* shape what is counted and apply to hands fed afterwards; the others apply when flags
are computed.

State (JSON): ``{"format": 1, "totals": [6 ints], "players": {player: [6 ints]}, "pairs": [[L, W, [6 ints],
weak_transfer_big_blinds, transfer_big_blinds, [weak decisions]], ...]}``; the 6 ints are (commitments, weak
commitments, folds, weak folds, calls, weak calls; a state of 4 ints, from before calls were judged, reads as no
calls); a weak decision is ``{"hand", "street", "decision", "kind", "equity", "holding", "big_blinds"}``.

Standard library and the engine only.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from compliance.detection.analysis import COMMITTING_KINDS, AnalysedHand, Decision, decision_equity, holding_strength
from compliance.detection.flags import (
    STATE_FORMAT,
    Flag,
    Indicator,
    StateError,
    add_counts,
    require_format,
    severity_from_surprise,
    stored_counts,
)
from compliance.detection.statistics import (
    binomial_sum_upper_tail,
    multiple_testing_threshold,
    shrunk_rate,
    surprise,
)

COMMITMENT = 0
FOLD = 2
CALL = 4
KINDS = (COMMITMENT, FOLD, CALL)
_WIDTH = 6
_OLD_WIDTH = 4  # states written before calls were judged (issue 31): their calls count from now on


@dataclass(frozen=True)
class ChipDumpingParameters:
    threshold: float = 3.0
    """Score (-log10 of the chance of so many weak decisions by luck) from which a pair is flagged at least."""
    chance_flags_per_player: float = 0.0001
    """The bar rises above ``threshold`` to ``log10(m / (chance_flags_per_player * k))`` for the ``m`` ordered pairs
    with the minimum weak decisions and money among ``k`` players (a multiple-testing correction: in a big room many
    pairs reach three weak decisions by chance)."""
    minimum_weak_decisions: int = 3
    """Weak decisions against the same opponent needed before judging."""
    minimum_transfer_big_blinds: float = 100.0
    """Big blinds the hands with weak decisions must have moved from the loser to the winner."""
    prior_weight: float = 50.0
    """Decisions at the population's weak rate added to a player's own rate against the field."""
    weak_equity: float = 0.4
    """Accumulation: a commitment with less equity than this against the opponent's hand ..."""
    weak_holding: float = 0.5
    """Accumulation: ... and a holding with less equity than this against a random hand is weak."""
    weak_fold_equity: float = 0.35
    """Accumulation: a fold with at least this much equity against the bettor's hand is weak (about the price of
    calling an all-in: the hand was good enough to call)."""
    minimum_stake_big_blinds: float = 20.0
    """Accumulation: a commitment is judged when the player has put at least this much into the hand."""
    minimum_fold_investment_big_blinds: float = 10.0
    """Accumulation: a fold is judged when the player had put at least this much into the hand."""
    minimum_call_big_blinds: float = 5.0
    """Accumulation: a call (not all-in) of the one opponent's bet heads-up after the flop is judged when it costs at
    least this much."""
    equity_samples: int = 400
    """Accumulation: Monte-Carlo run-outs for an equity that is not enumerated (standard error <= 2.5 points)."""
    holding_samples: int = 300
    """Accumulation: Monte-Carlo deals for a holding's equity against a random hand (standard error <= 2.9 points)."""
    equity_exact_limit: int = 2_000
    """Accumulation: enumerate the run-outs when there are at most this many (heads-up from the flop on)."""
    evidence_hands: int = 25
    """How many weak decisions of a pair are kept as evidence (the most recent)."""
    dispersion_minimum_pairs: int = 50
    """Ordered pairs with judged decisions needed before the dispersion is estimated (1 until then)."""
    dispersion_minimum_decisions: int = 5
    """Judged decisions an ordered pair needs to count in the dispersion."""


@dataclass
class _Pair:
    counts: list[int] = field(default_factory=lambda: [0] * _WIDTH)
    weak_transfer: float = 0.0
    transfer: float = 0.0
    evidence: list[dict[str, Any]] = field(default_factory=list)

    def to_list(self, loser: str, winner: str) -> list[Any]:
        return [loser, winner, list(self.counts), self.weak_transfer, self.transfer, list(self.evidence)]


CHI_SQUARE_ONE_MEDIAN = 0.4549
KIND_NAMES = {COMMITMENT: "commitment", FOLD: "fold", CALL: "call"}


def _counts(values: Any) -> list[int]:
    """Stored counts; a state from before calls were judged has none for them."""
    values = list(values)
    return stored_counts([*values, 0, 0] if len(values) == _OLD_WIDTH else values, _WIDTH)


def combined_tail(probabilities: list[float]) -> float:
    """Fisher's method for independent tail probabilities: P(chi-square with 2m degrees >= -2 sum ln p); 1 for none."""
    if not probabilities:
        return 1.0
    half = -sum(math.log(max(probability, 1e-300)) for probability in probabilities)  # in logs: no underflow
    series = sum(half**index / math.factorial(index) for index in range(len(probabilities)))
    return min(1.0, math.exp(-half + math.log(series)))


class ChipDumping(Indicator[ChipDumpingParameters]):
    name = "chip_dumping"
    requirements = ("FRD-19", "FRD-14", "FRD-02")
    parameters_type = ChipDumpingParameters

    def __init__(self, parameters: ChipDumpingParameters | None = None) -> None:
        super().__init__(parameters)
        self._totals = [0] * _WIDTH
        self._players: dict[str, list[int]] = {}
        self._pairs: dict[tuple[str, str], _Pair] = {}

    # -- feeding

    def judged(self, hand: AnalysedHand, decision: Decision) -> tuple[int, tuple[int, ...]] | None:
        """(``COMMITMENT``, ``FOLD`` or ``CALL``, opponent seats) when ``decision`` is judged, else ``None``."""
        parameters = self.parameters
        big_blind = hand.record.big_blind
        if decision.timeout:
            return None
        others = tuple(seat for seat in decision.live_before if seat != decision.seat)
        if decision.kind in COMMITTING_KINDS:
            everyone_else_all_in = set(others) <= set(decision.all_in_before)
            committed = decision.all_in or (decision.kind == "call" and everyone_else_all_in)
            stake = decision.invested_before + decision.amount
            if committed and stake >= parameters.minimum_stake_big_blinds * big_blind:
                return COMMITMENT, others
            if (
                decision.kind == "call"
                and not decision.preflop
                and len(others) == 1
                and decision.aggressor in others
                and decision.to_call >= parameters.minimum_call_big_blinds * big_blind
            ):
                return CALL, others
            return None
        if (
            decision.kind == "fold"
            and decision.facing_bet
            and decision.aggressor is not None
            and decision.invested_before >= parameters.minimum_fold_investment_big_blinds * big_blind
        ):
            return FOLD, (decision.aggressor,)
        return None

    def weakness(self, hand: AnalysedHand, decision: Decision, kind: int, opponent: int) -> dict[str, Any] | None:
        """``{"weak": bool, "equity": ..., "holding": ...}`` for the decision against ``opponent``, or ``None`` when the
        cards needed are unknown."""
        parameters = self.parameters
        equity = decision_equity(
            hand,
            decision,
            (opponent,),
            samples=parameters.equity_samples,
            exact_limit=parameters.equity_exact_limit,
        )
        if equity is None:
            return None
        if kind == FOLD:
            return {"weak": equity >= parameters.weak_fold_equity, "equity": equity, "holding": None}
        if equity >= parameters.weak_equity:
            return {"weak": False, "equity": equity, "holding": None}
        holding = holding_strength(hand, decision, samples=parameters.holding_samples)
        return {"weak": holding is not None and holding < parameters.weak_holding, "equity": equity, "holding": holding}

    def feed_hand(self, hand: AnalysedHand) -> None:
        parameters = self.parameters
        weak_against: set[tuple[str, str]] = set()
        judged_against: set[tuple[str, str]] = set()
        for decision in hand.decisions:
            judged = self.judged(hand, decision)
            if judged is None:
                continue
            kind, opponents = judged
            loser = decision.player
            weak_against_anyone = None
            for opponent_seat in opponents:
                found = self.weakness(hand, decision, kind, opponent_seat)
                if found is None:
                    continue
                winner = hand.players[opponent_seat]
                pair = self._pairs.setdefault((loser, winner), _Pair())
                weak = 1 if found["weak"] else 0
                pair.counts[kind] += 1
                pair.counts[kind + 1] += weak
                weak_against_anyone = max(weak, weak_against_anyone or 0)
                judged_against.add((loser, winner))
                if weak:
                    weak_against.add((loser, winner))
                    pair.evidence.append(
                        {
                            "hand": hand.record.hand_id,
                            "street": decision.street,
                            "decision": "fold" if kind == FOLD else decision.kind,
                            "kind": KIND_NAMES[kind],
                            "equity": round(found["equity"], 4),
                            "holding": None if found["holding"] is None else round(found["holding"], 4),
                            "big_blinds": round(hand.in_big_blinds(decision.invested_before + decision.amount), 2),
                        }
                    )
                    limit = parameters.evidence_hands
                    pair.evidence = pair.evidence[-limit:] if limit else []
            if weak_against_anyone is not None:
                # A decision counts once for the player, however many opponents it was judged against.
                for counts in (self._players.setdefault(loser, [0] * _WIDTH), self._totals):
                    counts[kind] += 1
                    counts[kind + 1] += weak_against_anyone
        for key in sorted(judged_against):
            moved = hand.in_big_blinds(hand.transfers.get(key, 0.0))
            self._pairs[key].transfer += moved
            if key in weak_against:
                self._pairs[key].weak_transfer += moved

    def has_data(self) -> bool:
        return bool(self._players)

    def severity(self, score: float, threshold: float) -> float:
        """The score is already ``-log10`` of a probability."""
        return severity_from_surprise(score)

    # -- flags

    def opponents(self) -> tuple[dict[str, list[int]], list[float]]:
        """(per player W: the decisions judged against W by anybody and the weak ones, per kind; the population's weak
        rate per kind over all judged decisions against an opponent)."""
        against: dict[str, list[int]] = {}
        everyone = [0] * _WIDTH
        for (_loser, winner), pair in self._pairs.items():
            add_counts(against.setdefault(winner, [0] * _WIDTH), pair.counts)
            add_counts(everyone, pair.counts)
        rates = [everyone[kind + 1] / everyone[kind] if everyone[kind] else 0.0 for kind in KINDS]
        return against, rates

    def rates(
        self,
        loser: str,
        pair: _Pair,
        winner: str | None = None,
        opponents: tuple[dict[str, list[int]], list[float]] | None = None,
    ) -> list[float]:
        """The weak rate expected of L against W per kind: L's rate against the field, times how much more often than
        the population's decisions against W are weak when W is not playing L (:meth:`opponents`; a nit who bets only
        the nuts makes everybody's calls look weak)."""
        totals = self._totals
        own = self._players[loser]
        weight = self.parameters.prior_weight
        against, opponent_rates = opponents if opponents is not None else self.opponents()
        induced = against.get(winner or "", [0] * _WIDTH)
        rates = []
        for index, kind in enumerate(KINDS):
            population = totals[kind + 1] / totals[kind] if totals[kind] else 0.0
            rate = shrunk_rate(
                max(0, own[kind + 1] - pair.counts[kind + 1]),
                max(0, own[kind] - pair.counts[kind]),
                population,
                weight,
            )
            typical = opponent_rates[index]
            if winner is not None and typical > 0:
                against_winner = shrunk_rate(
                    max(0, induced[kind + 1] - pair.counts[kind + 1]),
                    max(0, induced[kind] - pair.counts[kind]),
                    typical,
                    weight,
                )
                rate = min(0.99, rate * against_winner / typical)
            rates.append(rate)
        return rates

    def dispersion(self, opponents: tuple[dict[str, list[int]], list[float]] | None = None) -> float:
        """How much more the pairs' weak counts spread than binomials with the expected rates: the median squared
        Pearson residual of the ordered pairs with ``dispersion_minimum_decisions`` judged decisions, over 0.455 (the
        median of a chi-square with one degree), at least 1; 1 with fewer than ``dispersion_minimum_pairs`` pairs."""
        parameters = self.parameters
        opponents = opponents if opponents is not None else self.opponents()
        residuals = []
        for (loser, winner), pair in self._pairs.items():
            if sum(pair.counts[0::2]) < parameters.dispersion_minimum_decisions:
                continue
            rates = self.rates(loser, pair, winner, opponents)
            expected = sum(pair.counts[kind] * rate for kind, rate in zip(KINDS, rates, strict=True))
            variance = sum(pair.counts[kind] * rate * (1.0 - rate) for kind, rate in zip(KINDS, rates, strict=True))
            if variance > 0.5:
                residuals.append((sum(pair.counts[1::2]) - expected) ** 2 / variance)
        if len(residuals) < parameters.dispersion_minimum_pairs:
            return 1.0
        return max(1.0, statistics.median(residuals) / CHI_SQUARE_ONE_MEDIAN)

    def score(
        self,
        loser: str,
        pair: _Pair,
        winner: str | None = None,
        opponents: tuple[dict[str, list[int]], list[float]] | None = None,
        dispersion: float = 1.0,
    ) -> tuple[float, list[float]]:
        """(score, the weak rate expected against W per kind) of an ordered pair (L, W): the chance of so many weak
        decisions with the rates of :meth:`rates`, the counts divided by ``dispersion`` (a quasi-binomial test)."""
        rates = self.rates(loser, pair, winner, opponents)
        groups = []
        weak = 0
        for kind, rate in zip(KINDS, rates, strict=True):
            if not pair.counts[kind]:
                continue
            kind_weak = round(pair.counts[kind + 1] / dispersion)
            groups.append((max(kind_weak, round(pair.counts[kind] / dispersion), 1), rate))
            weak += kind_weak
        return surprise(binomial_sum_upper_tail(groups, weak)), rates

    def candidates(self) -> list[tuple[str, str]]:
        """Ordered pairs with ``minimum_weak_decisions`` and ``minimum_transfer_big_blinds``: the pairs judged."""
        parameters = self.parameters
        return [
            key
            for key, pair in sorted(self._pairs.items())
            if sum(pair.counts[kind + 1] for kind in KINDS) >= parameters.minimum_weak_decisions
            and pair.weak_transfer >= parameters.minimum_transfer_big_blinds
        ]

    def flagging_threshold(self, candidates: list[tuple[str, str]]) -> float:
        """The higher of ``threshold`` and the multiple-testing bar over the pairs judged (see
        ``chance_flags_per_player``)."""
        parameters = self.parameters
        players = len({player for key in candidates for player in key})
        bar = multiple_testing_threshold(math.inf, len(candidates), players, parameters.chance_flags_per_player)
        return parameters.threshold if math.isinf(bar) else max(parameters.threshold, bar)

    def flags(self) -> list[Flag]:
        flags = []
        candidates = self.candidates()
        threshold = self.flagging_threshold(candidates)
        opponents = self.opponents()
        dispersion = self.dispersion(opponents) if candidates else 1.0
        for loser, winner in candidates:
            pair = self._pairs[(loser, winner)]
            score, field_rates = self.score(loser, pair, winner, opponents, dispersion)
            if score < threshold:
                continue
            flags.append(
                self.flag(
                    (loser, winner),
                    score,
                    round(threshold, 3),
                    [item["hand"] for item in pair.evidence],
                    commitments=pair.counts[COMMITMENT],
                    weak_commitments=pair.counts[COMMITMENT + 1],
                    folds=pair.counts[FOLD],
                    weak_folds=pair.counts[FOLD + 1],
                    calls=pair.counts[CALL],
                    weak_calls=pair.counts[CALL + 1],
                    expected_weak_commitment_rate=round(field_rates[0], 4),
                    expected_weak_fold_rate=round(field_rates[1], 4),
                    expected_weak_call_rate=round(field_rates[2], 4),
                    dispersion=round(dispersion, 3),
                    weak_transfer_big_blinds=round(pair.weak_transfer, 2),
                    transfer_big_blinds=round(pair.transfer, 2),
                    weak_decisions=list(pair.evidence),
                )
            )
        return flags

    # -- state

    def state(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "totals": list(self._totals),
            "players": {player: list(counts) for player, counts in sorted(self._players.items())},
            "pairs": [pair.to_list(loser, winner) for (loser, winner), pair in sorted(self._pairs.items())],
        }

    def load_state(self, data: Mapping[str, Any]) -> None:
        require_format(data, self.name)
        try:
            totals = _counts(data["totals"])
            players = {str(player): _counts(counts) for player, counts in data["players"].items()}
            pairs = {
                (str(loser), str(winner)): _Pair(_counts(counts), float(weak_moved), float(moved), list(evidence))
                for loser, winner, counts, weak_moved, moved, evidence in data["pairs"]
            }
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise StateError(f"{self.name}: malformed state: {error}") from error
        self._totals, self._players, self._pairs = totals, players, pairs

    def merge(self, other: ChipDumping) -> None:
        add_counts(self._totals, other._totals)
        for player, counts in other._players.items():
            add_counts(self._players.setdefault(player, [0] * _WIDTH), counts)
        limit = self.parameters.evidence_hands
        for key, theirs in other._pairs.items():
            mine = self._pairs.setdefault(key, _Pair())
            add_counts(mine.counts, theirs.counts)
            mine.weak_transfer += theirs.weak_transfer
            mine.transfer += theirs.transfer
            combined = mine.evidence + theirs.evidence
            mine.evidence = combined[-limit:] if limit else []


__all__ = ["ChipDumping", "ChipDumpingParameters", "combined_tail"]
