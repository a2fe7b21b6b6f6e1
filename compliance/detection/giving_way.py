"""Giving way: one player of a pair folds or checks in pots with a third player whenever the partner holds the better
hand (FRD-11, FRD-01, FRD-02; indicator of FRD-19).

Colluders who see each other's cards do not both fight a third player: the one behind gets out of the way, so that the
partner's better hand plays the pot. An honest player cannot see the other hands, so how often they go on in a spot
cannot depend on which opponent's hidden hand is better than theirs. Compliance sees every hole card of a settled hand
and can count how often a player went on when one particular opponent held the better hand, against how often the
same player went on in the same spots when somebody else held it.

**Trials.** A decision of player A counts when it is not a timeout, A has chips left, at least two opponents are still
in, and A chooses between giving way and going on: facing a bet, fold or call/raise; not facing one, check or bet (with
somebody left who could call). The decision is a trial *against* each opponent O still in who is *not* the player
whose bet A faces (decisions aimed at one opponent are soft play's) and whose hand is better than A's at that moment:
before the flop a starting hand with more equity against a random hand, after it a better made hand on the board so
far. The trial *goes on* when A calls, bets or raises and *gives way* when A folds or checks.

**Spots.** Whether a player goes on depends on what they can see, so trials are counted per spot: before the flop or
after; not facing a bet, facing only the blinds, or facing a voluntary bet or raise; whether O had put chips in
voluntarily on this street before A acted; and A's holding strength (its equity against one random hand on the board
so far; before the flop in Hold'em from a table of the 169 starting hands) in ``strength_bins`` equal steps.

**The test** for a pair {A, B} (both directions in one count, as soft play): each trial of A against B goes on with
A's rate in its spot against everybody else who held the better hand; that rate is shrunk (``prior_weight`` trials)
towards the population's rate in the spot with its odds scaled by how much more or less often A goes on than the
population in the spots A played against the others, so a tight player's few trials in a spot are not pulled up to
everybody's rate. The chance ``p`` of so few trials going on if the pair played each other as they play everyone else
is exact: the count is a sum of independent binomials, one per spot (``binomial_sum_lower_tail``), each player's
counts first divided by his *dispersion* (:meth:`GivingWay.dispersions`: how much more his counts against one opponent
spread than binomials say, the median over his opponents, at least 1 — a quasi-binomial test, as chip dumping's but per
player: a dumper who stays in cheaply until the hand to dump in comes plays one table unlike the next, and at 200,000
hands of the first benchmark room his counts against honest opponents looked like giving way to them). The score is
``-log10 p``. Both of these are required, as for soft play:

* ``p`` at most the multiple-testing bar (below);
* an effect bound: the upper end of the Wilson interval (``confidence_z``) of the pair's rate of going on, as a share of
  the expected rate, at most ``maximum_ratio``.

A player's play against everybody else leaves out his trials against the opponents the detector found him dumping
with or receiving from (chip dumping and net flow flags: :meth:`GivingWay.exclude_from_baselines`, as soft play does).

**Enough data and the bar: Tarone's procedure.** Most pairs that met have too few trials in spots where a player would
have gone on for even *no* trial going on to be surprising. Such a pair cannot be flagged whatever it does; counting it
in a Bonferroni correction only raises the bar for the others. The smallest chance a pair's test can give is that of no
trial going on (the product of ``(1 - rate) ** trials`` over its spots). With a budget of
``alpha = chance_flags_per_player * k`` false pairs for the ``k`` players with trials, the bar is ``alpha / K`` for the
smallest ``K`` such that at most ``K`` pairs can reach ``alpha / K`` (Tarone 1990: a Bonferroni correction over the
tests that can be significant, which keeps Bonferroni's bound). Those pairs are *judged*; the others are "not enough
data" (:meth:`GivingWay.verdict`). The bar never needs more than ``ceiling`` (one in a million). The pooled pair
evidence takes the chance of the judged pairs into its collusion test.

State (JSON): ``{"format": 1, "totals": counts, "players": {player: counts}, "pairs": [[A, B, counts of A against B,
counts of B against A, [hand ids]], ...]}`` with A < B, counts a flat list ``[spot, trials, went_on, ...]`` and a spot
the index ``((after_flop * 3 + facing) * 2 + opponent_in) * strength_bins + bin`` (facing: 0 no bet, 1 the blinds only,
2 a voluntary bet); the hands are those in which one of the pair gave way to the other.

Standard library and the engine only.
"""

from __future__ import annotations

import bisect
import math
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from compliance.detection.analysis import COMMITTING_KINDS, AnalysedHand, Decision
from compliance.detection.flags import (
    STATE_FORMAT,
    Flag,
    Indicator,
    StateError,
    keep_last,
    require_format,
    severity_from_surprise,
)
from compliance.detection.statistics import binomial_sum_lower_tail, shrunk_rate, surprise, wilson_interval
from games.engine.cards import Card
from games.engine.config import Variant
from games.engine.equity import equity_against_random_hands
from games.engine.evaluation import holdem_strength, omaha_strength

CHI_SQUARE_ONE_MEDIAN = 0.4549
Counts = dict[int, list[int]]
"""Spot -> [trials, went on]."""


@dataclass(frozen=True)
class GivingWayParameters:
    """Tunable values. Those marked *accumulation* shape what is counted (hands fed afterwards); the others apply when
    flags are computed."""

    chance_flags_per_player: float = 0.0001
    """Pairs honest play is expected to flag by chance, per player with trials (the budget of Tarone's procedure:
    see the module docstring). The same as soft play's and the pooled pair evidence's."""
    ceiling: float = 6.0
    """The flagging score never needs more than this (one in a million)."""
    maximum_ratio: float = 0.8
    """The upper confidence bound of the pair's rate of going on, as a share of the rate expected from their play
    against everybody else, must be at most this (as soft play's)."""
    confidence_z: float = 2.58
    """Width of the Wilson interval of the pair's rate of going on, in standard deviations (2.58: 99 %)."""
    prior_weight: float = 20.0
    """Trials at the population's rate in a spot added to a player's own rate there (as soft play's)."""
    strength_bins: int = 20
    """Accumulation: the holding strength (0 to 1) of a spot in this many equal steps."""
    holding_samples: int = 200
    """Accumulation: Monte-Carlo deals for a holding's equity against a random hand after the flop (standard error
    <= 3.5 points, a step of the strength is 5)."""
    preflop_samples: int = 1_000
    """Accumulation: Monte-Carlo deals per starting hand for the Hold'em preflop table (computed once per process)."""
    dispersion_minimum_expected: float = 5.0
    """A player's counts against one opponent enter his dispersion when at least this many trials were expected to go
    on (the usual condition for a Pearson residual to be about normal)."""
    dispersion_minimum_opponents: int = 10
    """Opponents with such counts a player needs before his own dispersion is estimated (the room's until then)."""
    evidence_hands: int = 5
    """How many hands in which one of the pair gave way to the other are kept as evidence (the most recent; every pair
    with trials keeps them, so few: the state of a room of 120 players is about half hand ids at 10)."""


_PREFLOP: dict[tuple[int, int, bool, int], float] = {}


def preflop_strength(hole: tuple[Card, ...], samples: int) -> float:
    """A Hold'em starting hand's equity against one random hand (Monte-Carlo, the same figure for every hand of its
    kind: pair, suited or not; computed once per kind and process)."""
    first, second = hole
    high, low = max(first.rank, second.rank), min(first.rank, second.rank)
    suited = first.suit == second.suit and high != low
    key = (high, low, suited, samples)
    value = _PREFLOP.get(key)
    if value is None:
        cards = (Card(high, "s"), Card(low, "s" if suited else "h"))
        value = equity_against_random_hands(
            Variant.NO_LIMIT_HOLDEM, cards, samples=samples, seed=f"preflop:{high}:{low}:{suited}"
        ).equity
        _PREFLOP[key] = value
    return value


class _HandView:
    """Per hand: made-hand values and holding strengths, each computed once."""

    __slots__ = ("hand", "made", "parameters", "strengths")

    def __init__(self, hand: AnalysedHand, parameters: GivingWayParameters) -> None:
        self.hand = hand
        self.parameters = parameters
        self.made: dict[tuple[int, str], float] = {}
        self.strengths: dict[tuple[int, str], float] = {}

    def value(self, seat: int, street: str) -> float | None:
        """What compares two hands at ``street``: the starting hand's strength before the flop, the made hand after."""
        key = (seat, street)
        known = self.made.get(key)
        if known is not None:
            return known
        hole = self.hand.hole_cards(seat)
        if not hole:
            return None
        variant = self.hand.record.variant
        if street == "preflop":
            value = self.strength(seat, street)
        else:
            board = self.hand.board_at(street)
            omaha = variant is Variant.POT_LIMIT_OMAHA
            value = float(omaha_strength(hole, board) if omaha else holdem_strength(hole + board))
        self.made[key] = value
        return value

    def strength(self, seat: int, street: str) -> float:
        """The holding's equity against one random hand on the board at ``street`` (the hole cards are known)."""
        key = (seat, street)
        known = self.strengths.get(key)
        if known is not None:
            return known
        hand = self.hand
        hole = hand.hole_cards(seat)
        variant = hand.record.variant
        if street == "preflop" and variant is not Variant.POT_LIMIT_OMAHA and len(hole) == 2:
            value = preflop_strength(hole, self.parameters.preflop_samples)
        else:
            value = equity_against_random_hands(
                variant,
                hole,
                hand.board_at(street),
                samples=self.parameters.holding_samples,
                seed=f"{hand.record.hand_id}:{seat}:{street}:giving-way",
            ).equity
        self.strengths[key] = value
        return value


def is_trial(decision: Decision) -> bool:
    """Whether the decision chooses between giving way and going on with two or more opponents still in."""
    if decision.timeout or decision.stack_before <= 0 or len(decision.live_before) < 3:
        return False
    if decision.facing_bet:
        return True
    others = set(decision.live_before) - {decision.seat}
    return not others <= set(decision.all_in_before)


def went_on(decision: Decision) -> bool:
    return decision.kind in COMMITTING_KINDS


def _add(counts: Counts, spot: int, on: int) -> None:
    cell = counts.get(spot)
    if cell is None:
        counts[spot] = [1, on]
    else:
        cell[0] += 1
        cell[1] += on


def _add_all(target: Counts, source: Mapping[int, list[int]]) -> None:
    for spot, (trials, on) in source.items():
        cell = target.setdefault(spot, [0, 0])
        cell[0] += trials
        cell[1] += on


def _totals(counts: Mapping[int, list[int]]) -> tuple[int, int]:
    return sum(cell[0] for cell in counts.values()), sum(cell[1] for cell in counts.values())


class GivingWay(Indicator[GivingWayParameters]):
    name = "giving_way"
    requirements = ("FRD-19", "FRD-11", "FRD-01", "FRD-02")
    parameters_type = GivingWayParameters

    def __init__(self, parameters: GivingWayParameters | None = None) -> None:
        super().__init__(parameters)
        self._totals: Counts = {}
        self._players: dict[str, Counts] = {}
        # (A, B) with A < B -> (A against B, B against A, hand ids)
        self._pairs: dict[tuple[str, str], tuple[Counts, Counts, list[str]]] = {}
        self._excluded: dict[str, set[str]] = {}  # player -> opponents left out of the player's baseline
        self._judged: dict[tuple[str, str], dict[str, Any]] | None = None  # the figures until something changes

    # -- feeding

    def feed_hand(self, hand: AnalysedHand) -> None:
        self._judged = None
        parameters = self.parameters
        bins = parameters.strength_bins
        view = _HandView(hand, parameters)
        street = ""
        voluntary: set[int] = set()
        gave_way: set[tuple[str, str]] = set()
        for decision in hand.decisions:
            if decision.street != street:
                street, voluntary = decision.street, set()
            if is_trial(decision):
                self._trial(hand, view, decision, voluntary, bins, gave_way)
            if decision.kind in COMMITTING_KINDS:
                voluntary.add(decision.seat)
        for key in sorted(gave_way):
            hands = self._pairs[key][2]
            hands[:] = keep_last(hands, [hand.record.hand_id], parameters.evidence_hands)

    def _trial(
        self,
        hand: AnalysedHand,
        view: _HandView,
        decision: Decision,
        voluntary: set[int],
        bins: int,
        gave_way: set[tuple[str, str]],
    ) -> None:
        seat, street = decision.seat, decision.street
        mine = view.value(seat, street)
        if mine is None:
            return
        ahead = []
        for other in decision.live_before:
            if other == seat or other == decision.aggressor:
                continue
            theirs = view.value(other, street)
            if theirs is not None and theirs > mine:
                ahead.append(other)
        if not ahead:
            return
        strength = view.strength(seat, street)
        facing = 0 if not decision.facing_bet else 1 if decision.aggressor is None else 2
        base = ((0 if decision.preflop else 3) + facing) * 2
        step = min(bins - 1, int(strength * bins))
        on = 1 if went_on(decision) else 0
        actor = decision.player
        own = self._players.setdefault(actor, {})
        for other in ahead:
            spot = (base + (1 if other in voluntary else 0)) * bins + step
            _add(own, spot, on)
            _add(self._totals, spot, on)
            opponent = hand.players[other]
            key = (actor, opponent) if actor < opponent else (opponent, actor)
            pair = self._pairs.get(key)
            if pair is None:
                pair = self._pairs[key] = ({}, {}, [])
            _add(pair[0] if actor == key[0] else pair[1], spot, on)
            if not on:
                gave_way.add(key)

    def has_data(self) -> bool:
        return bool(self._pairs)

    # -- judging

    def exclude_from_baselines(self, pairs: Iterable[tuple[str, str]]) -> None:
        """Leave each pair's trials against each other out of both players' play against everybody else (the detector
        passes the pairs chip dumping and net flow flagged, as for soft play): a dumper who stays in cheaply while the
        receiver is in, waiting for the hand to dump in, does not play everybody else that way, and his going on against
        the receiver would make his ordinary play against an honest player look like giving way."""
        excluded: dict[str, set[str]] = {}
        for first, second in pairs:
            excluded.setdefault(first, set()).add(second)
            excluded.setdefault(second, set()).add(first)
        if excluded != self._excluded:
            self._judged = None
        self._excluded = excluded

    def _against(self, actor: str, opponent: str) -> Mapping[int, list[int]]:
        pair = self._pairs.get((actor, opponent) if actor < opponent else (opponent, actor))
        if pair is None:
            return {}
        return pair[0] if actor < opponent else pair[1]

    def _field_counts(self, actor: str, against: Mapping[int, list[int]], partner: str = "") -> Counts:
        """The actor's trials against everybody but ``partner`` (``against`` are those against the partner) and the
        opponents left out of the actor's baseline."""
        own = self._players.get(actor, {})
        left_out = [
            against,
            *(self._against(actor, other) for other in self._excluded.get(actor, ()) if other != partner),
        ]
        field: Counts = {}
        for spot, (trials, on) in sorted(own.items()):  # one order whatever the feeding: the same sums
            for counts in left_out:
                cell = counts.get(spot)
                if cell is not None:
                    trials, on = trials - cell[0], on - cell[1]
            field[spot] = [trials, on]
        return field

    def _population_rate(self, spot: int) -> float:
        """Everybody's rate of going on in the spot, half a trial each way added so that it is never 0 or 1."""
        trials, on = self._totals.get(spot, (0, 0))
        return (on + 0.5) / (trials + 1.0)

    def _rates(self, actor: str, against: Mapping[int, list[int]], partner: str = "") -> list[tuple[int, float]]:
        """(trials, rate of going on) per spot of ``against``: the actor's rate in that spot against everybody else
        who held the better hand, shrunk towards the population's rate there with its odds scaled by how much more or
        less often the actor goes on than the population does in the same spots (a tight player's few trials in a spot
        are not pulled up to everybody's rate)."""
        field = self._field_counts(actor, against, partner)
        field_on = field_expected = 0.0
        for spot, (trials, on) in field.items():
            field_on += on
            field_expected += trials * self._population_rate(spot)
        scale = (field_on + 1.0) / (field_expected + 1.0)
        weight = self.parameters.prior_weight
        rates = []
        for spot, (trials, _on) in sorted(against.items()):
            population = self._population_rate(spot)
            odds = scale * population / (1.0 - population)
            spot_trials, spot_on = field.get(spot, (0, 0))
            rates.append((trials, shrunk_rate(spot_on, spot_trials, odds / (1.0 + odds), weight)))
        return rates

    def judge(
        self,
        first: str,
        second: str,
        *,
        tail: bool = True,
        dispersions: Mapping[str, float] | None = None,
        rates: dict[tuple[str, str], tuple[list[tuple[int, float]], list[tuple[int, float]]]] | None = None,
    ) -> dict[str, Any] | None:
        """The pair's figures (module docstring), or ``None`` when neither ever had a trial against the other. Without
        ``tail`` the chance (the costly part) is left out: ``probability`` and ``score`` are ``None``. Each player's
        counts are divided by his dispersion (:meth:`dispersions`; 1 when not given) before the chance is taken."""
        first, second = (first, second) if first < second else (second, first)
        pair = self._pairs.get((first, second))
        if pair is None:
            return None
        one, other, _hands = pair
        first_trials, first_on = _totals(one)
        second_trials, second_on = _totals(other)
        trials, observed = first_trials + second_trials, first_on + second_on
        known = rates.get((first, second)) if rates is not None else None
        if known is None:
            known = self._rates(first, one, second), self._rates(second, other, first)
            if rates is not None:
                rates[(first, second)] = known
        first_rates, second_rates = known
        first_expected = sum(count * chance for count, chance in first_rates)
        second_expected = sum(count * chance for count, chance in second_rates)
        expected = first_expected + second_expected
        rate = expected / trials if trials else 0.0
        dispersions = dispersions or {}
        first_dispersion, second_dispersion = dispersions.get(first, 1.0), dispersions.get(second, 1.0)
        groups = [(round(count / first_dispersion), chance) for count, chance in first_rates]
        groups += [(round(count / second_dispersion), chance) for count, chance in second_rates]
        scaled_trials = sum(count for count, _chance in groups)
        # Rounded spot by spot, the trials can come out below the rounded count going on: never more than the trials.
        scaled = min(scaled_trials, round(first_on / first_dispersion) + round(second_on / second_dispersion))
        probability = binomial_sum_lower_tail(groups, scaled) if tail else None
        # The smallest chance the test can give: no trial going on at all.
        smallest = math.exp(sum(count * math.log1p(-min(chance, 1.0 - 1e-12)) for count, chance in groups))
        low, high = wilson_interval(scaled, scaled_trials, self.parameters.confidence_z)
        return {
            "trials": trials,
            "observed": observed,
            "expected": expected,
            "first": (first, first_trials, first_on, first_expected, first_dispersion),
            "second": (second, second_trials, second_on, second_expected, second_dispersion),
            "residuals": (
                (first, _residual(first_on, first_rates)),
                (second, _residual(second_on, second_rates)),
            ),
            "probability": probability,
            "smallest_probability": smallest,
            "score": surprise(probability) if probability is not None else None,
            "ratio": observed / expected if expected > 0 else None,
            "ratio_interval": (low / rate, high / rate) if rate > 0 else None,
        }

    def dispersions(self, judged: Mapping[tuple[str, str], Mapping[str, Any]]) -> dict[str, float]:
        """Per player of a judged pair: how much more his counts against one opponent spread than binomials say — the
        median squared Pearson residual of his trials against each opponent with ``dispersion_minimum_expected``
        expected to go on, over 0.455 (the median of a chi-square with one degree), at least 1. A player with fewer than
        ``dispersion_minimum_opponents`` such opponents takes the room's: the same median over every player's residuals
        (1 without any). A player whose play changes from session to session (a dumper who stays in cheaply until the
        hand to dump in comes, a receiver whose partner has left) gives less evidence per trial; the median is not
        moved by the one partner he gives way to. The room's stands in where a player has met too few opponents for
        his own (a live room of a few tables, where a binomial spread of 1 flagged two honest bots): so few opponents
        are no evidence that his counts spread as binomials do."""
        parameters = self.parameters
        residuals: dict[str, list[float]] = {}
        for figures in judged.values():
            for player, residual in figures["residuals"]:
                if residual is not None and residual[1] >= parameters.dispersion_minimum_expected:
                    residuals.setdefault(player, []).append(residual[0])
        everybody = [value for values in residuals.values() for value in values]
        room = max(1.0, statistics.median(everybody) / CHI_SQUARE_ONE_MEDIAN) if everybody else 1.0
        players = {player for key in judged for player in key}
        return {
            player: max(1.0, statistics.median(residuals[player]) / CHI_SQUARE_ONE_MEDIAN)
            if len(residuals.get(player, ())) >= parameters.dispersion_minimum_opponents
            else room
            for player in players
        }

    def _all_judged(self) -> dict[tuple[str, str], dict[str, Any]]:
        """Every pair with trials, with the players' dispersions; the chance is computed for the pairs that can reach
        the bar only. Kept until the next hand, state, merge or change of the baselines."""
        if self._judged is not None:
            return self._judged
        rates: dict[tuple[str, str], tuple[list[tuple[int, float]], list[tuple[int, float]]]] = {}
        plain = {}
        for first, second in self._pairs:
            figures = self.judge(first, second, tail=False, rates=rates)
            if figures is not None:
                plain[(first, second)] = figures
        dispersions = self.dispersions(plain)
        judged = {
            key: self.judge(*key, tail=False, dispersions=dispersions, rates=rates) or figures
            for key, figures in plain.items()
        }
        level, _count, _players = self.bar(judged)
        for key, figures in judged.items():
            if figures["smallest_probability"] <= level:
                judged[key] = self.judge(*key, dispersions=dispersions, rates=rates) or figures
        self._judged = judged
        return judged

    def bar(self, judged: Mapping[tuple[str, str], Mapping[str, Any]] | None = None) -> tuple[float, int, int]:
        """(the chance a pair must reach, the pairs that can reach it, the players with trials): Tarone's procedure
        (module docstring), the chance never below ``10 ** -ceiling``."""
        judged = self._all_judged() if judged is None else judged
        parameters = self.parameters
        players = len({player for key in judged for player in key})
        budget = parameters.chance_flags_per_player * players
        floor = 10.0**-parameters.ceiling
        if budget <= 0 or not judged:
            return floor, 0, players
        smallest = sorted(figures["smallest_probability"] for figures in judged.values())
        tests = 1
        while True:
            level = budget / tests
            reachable = bisect.bisect_right(smallest, level)
            if reachable <= tests:
                break
            tests += 1
        level = max(floor, min(1.0, budget / tests))
        return level, bisect.bisect_right(smallest, level), players

    def _reaching_the_bar(self) -> tuple[dict[tuple[str, str], dict[str, Any]], float]:
        """(the pairs whose test can reach the bar, with their figures; the bar's chance)."""
        judged = self._all_judged()
        level, _count, _players = self.bar(judged)
        return {key: figures for key, figures in judged.items() if figures["smallest_probability"] <= level}, level

    def judged_pairs(self) -> list[tuple[str, str]]:
        """The pairs whose test can reach the bar (the others are "not enough data")."""
        reaching, _level = self._reaching_the_bar()
        return sorted(reaching)

    def chances(self) -> dict[tuple[str, str], float]:
        """Pair -> the chance of its test, for the pairs judged (what the pooled pair evidence reads)."""
        reaching, _level = self._reaching_the_bar()
        return {key: figures["probability"] for key, figures in reaching.items()}

    def pooled_chances(self) -> dict[tuple[str, str], float | None]:
        """:meth:`chances`, with ``None`` for a pair whose chance reaches the bar but whose effect is too small to flag
        (the upper end of its interval above ``maximum_ratio``): the pooled pair evidence does not count as evidence
        what this indicator declined for its size (an honest pair of bots with 673 trials went on 0.79 times as often
        as expected, chance 2e-9: honest styles facing each other differ that much)."""
        reaching, level = self._reaching_the_bar()
        return {
            key: None
            if figures["probability"] <= level and not self._flagged(figures, level)
            else figures["probability"]
            for key, figures in reaching.items()
        }

    def verdict(self, first: str, second: str) -> str:
        """``"not enough data"`` (the pair's test could not reach the bar even had neither ever gone on),
        ``"flagged"`` or ``"no finding"``."""
        judged = self._all_judged()
        level, _count, _players = self.bar(judged)
        figures = judged.get((first, second) if first < second else (second, first))
        if figures is None or figures["smallest_probability"] > level:
            return "not enough data"
        return "flagged" if self._flagged(figures, level) else "no finding"

    def _flagged(self, figures: Mapping[str, Any], level: float) -> bool:
        interval = figures["ratio_interval"]
        return (
            figures["smallest_probability"] <= level
            and interval is not None
            and interval[1] <= self.parameters.maximum_ratio
            and figures["probability"] <= level
        )

    def severity(self, score: float, threshold: float) -> float:
        return severity_from_surprise(score)

    def flags(self) -> list[Flag]:
        judged = self._all_judged()
        level, reachable, players = self.bar(judged)
        threshold = round(surprise(level), 3)
        flags = []
        for key, figures in sorted(judged.items()):
            if not self._flagged(figures, level):
                continue
            low, high = figures["ratio_interval"]
            flags.append(
                self.flag(
                    key,
                    figures["score"],
                    threshold,
                    self._pairs[key][2],
                    trials=figures["trials"],
                    went_on=figures["observed"],
                    expected_to_go_on=round(figures["expected"], 2),
                    going_on_ratio=round(figures["ratio"], 3),
                    going_on_ratio_interval=[round(low, 3), round(high, 3)],
                    confidence_z=self.parameters.confidence_z,
                    probability=float(f"{figures['probability']:.3g}"),
                    pairs_judged=reachable,
                    players_with_trials=players,
                    by_player=[_direction(*figures["first"]), _direction(*figures["second"])],
                )
            )
        return flags

    # -- state

    def state(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "totals": _stored(self._totals),
            "players": {player: _stored(counts) for player, counts in sorted(self._players.items())},
            "pairs": [
                [first, second, _stored(one), _stored(other), list(hands)]
                for (first, second), (one, other, hands) in sorted(self._pairs.items())
            ],
        }

    def load_state(self, data: Mapping[str, Any]) -> None:
        require_format(data, self.name)
        try:
            totals = _loaded(data["totals"])
            players = {str(player): _loaded(counts) for player, counts in data["players"].items()}
            pairs = {
                (str(first), str(second)): (_loaded(one), _loaded(other), [str(hand) for hand in hands])
                for first, second, one, other, hands in data["pairs"]
            }
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise StateError(f"{self.name}: malformed state: {error}") from error
        self._totals, self._players, self._pairs = totals, players, pairs
        self._judged = None

    def merge(self, other: GivingWay) -> None:
        self._judged = None
        _add_all(self._totals, other._totals)
        for player, counts in other._players.items():
            _add_all(self._players.setdefault(player, {}), counts)
        for key, (one, another, hands) in other._pairs.items():
            pair = self._pairs.setdefault(key, ({}, {}, []))
            _add_all(pair[0], one)
            _add_all(pair[1], another)
            pair[2][:] = keep_last(pair[2], hands, self.parameters.evidence_hands)


def _stored(counts: Mapping[int, list[int]]) -> list[int]:
    """Counts as one flat list ``[spot, trials, went_on, spot, ...]`` (the state is kept small)."""
    flat: list[int] = []
    for spot, (trials, on) in sorted(counts.items()):
        flat.extend((spot, trials, on))
    return flat


def _loaded(values: Any) -> Counts:
    numbers = [int(value) for value in values]
    if len(numbers) % 3:
        raise ValueError(f"counts come in threes, not {len(numbers)}")
    counts: Counts = {}
    for index in range(0, len(numbers), 3):
        spot, trials, on = numbers[index : index + 3]
        if spot < 0 or trials < 0 or not 0 <= on <= trials:
            raise ValueError(f"bad counts {numbers[index : index + 3]!r}")
        counts[spot] = [trials, on]
    return counts


def _residual(on: int, rates: list[tuple[int, float]]) -> tuple[float, float] | None:
    """(squared Pearson residual, expected going on) of one player's counts against one opponent."""
    expected = sum(count * chance for count, chance in rates)
    variance = sum(count * chance * (1.0 - chance) for count, chance in rates)
    return ((on - expected) ** 2 / variance, expected) if variance > 0 else None


def _direction(player: str, trials: int, on: int, expected: float, dispersion: float) -> dict[str, Any]:
    return {
        "player": player,
        "dispersion": round(dispersion, 3),
        "trials_partner_better": trials,
        "went_on": on,
        "going_on_rate": round(on / trials, 3) if trials else None,
        "going_on_rate_against_others": round(expected / trials, 3) if trials else None,
    }


__all__ = ["GivingWay", "GivingWayParameters", "is_trial", "preflop_strength", "went_on"]
