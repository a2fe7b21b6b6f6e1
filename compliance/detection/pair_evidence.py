"""Pooled pair evidence: the indicators' chances for one pair combined, judged against the number of pairs examined
(issue 31; FRD-19, FRD-02, FRD-11, FRD-14).

Each pair indicator judges its own evidence against its own threshold. A pair whose soft play is suspicious but not
one-in-a-million, and who also keep entering tables together, or whose weak decisions against the partner are
suspicious and whose money also flows one way, is more suspicious than either finding alone says. This indicator
reads the other indicators' figures (it is fed nothing itself) and tests two behaviours named in advance, for every
pair with data for at least two of that behaviour's indicators:

* **collusion** — soft play (the chance of so little aggression between the two, :class:`SoftPlay`, from
  ``minimum_decisions`` of its decisions), giving way (the chance of so few decisions going on in pots with a third
  player while the other held the better hand, :class:`GivingWay`, for the pairs it judges: its decisions are not
  soft play's) and coordinated entry (the Poisson chance of so many entries together, conditioned on at least one:
  pairs that never entered together are not examined for it);
* **dumping**, for each direction L → W — chip dumping (the chance of so many weak decisions of L against W) with net
  flow (the normal tail of its test of L's equity-adjusted losses facing W, for the pairs it judges), betting pressure
  (the chance of W betting and raising into L after the flop so much more than W does into everybody else and than
  everybody else does into L, :meth:`SoftPlay.pressure`, from ``pressure_minimum_decisions`` of W's decisions: the
  receiver bets, the dumper pays or folds) and coordinated entry; the two directions count as two tests. Every
  direction with the decisions for betting pressure is a dumping test, one whose pressure is a small effect
  (:meth:`SoftPlay.pressure`) too (it counts in the bar and cannot flag on pressure), so the dumping bar rises with
  the pairs that meet: at 200,000 hands of the first benchmark room from 4.0 (286 tests) to 5.6 (11,445), and one
  all-in dumper found by chip dumping and net flow at 3.7 is lost there. A separate bar for the directions only
  pressure makes examinable kept it, but named an honest player of the second room at 200,000 hands (a colluder's
  bets into him, chance 2e-7, against a bar of 5.7): not done.

Within a behaviour the chances are combined by Fisher's method (independent tests: aggression counts, decisions judged
against the cards, money and arrival times; betting pressure counts W's decisions, chip dumping and net flow judge L's
cards). Each test is compared with its behaviour's bar: the budget of
``chance_flags_per_player * k`` chance flags for the ``k`` players examined (0.0001 names one honest player in 5,000)
is split equally between the behaviours with tests, and each share over that behaviour's ``m`` tests — a test flags at
a chance of ``chance_flags_per_player * k / (2 m)`` (weighted Bonferroni: honest play is still expected to flag at most
``chance_flags_per_player * k`` pairs by chance; never needing more than ``ceiling``). One budget over all tests made
every new collusion test raise the dumping bar: giving way made thousands more pairs examinable for collusion, and at
200,000 hands of the first benchmark room three dumping pairs found before were lost. A pair is flagged once, by its
test furthest past its bar. The score is ``-log10(p)``; the severity
``10 * score``. A pair an indicator flags on its own is flagged here too only when the pooled test says so.

Nothing to store: the state is the format only; the figures are the other indicators'. Standard library and the engine
only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from compliance.detection.chip_dumping import ChipDumping, combined_tail
from compliance.detection.coordinated_entry import CoordinatedEntry, poisson_upper_tail
from compliance.detection.flags import STATE_FORMAT, Flag, Indicator, require_format, severity_from_surprise
from compliance.detection.giving_way import GivingWay
from compliance.detection.net_flow import NetFlow
from compliance.detection.soft_play import SoftPlay
from compliance.detection.statistics import multiple_testing_threshold, surprise


@dataclass(frozen=True)
class PairEvidenceParameters:
    chance_flags_per_player: float = 0.0001
    """Pairs honest play is expected to flag by chance, per player examined (a multiple-testing correction over the
    pairs examined: see the module docstring)."""
    ceiling: float = 6.0
    """The flagging score never needs more than this (one in a million)."""
    minimum_indicators: int = 2
    """Indicators with data a behaviour's test needs for the pair (one alone is that indicator's own test)."""
    pressure_minimum_decisions: int = 10
    """Decisions of the winner aimed at the loser after the flop before betting pressure enters a dumping test."""


class PairEvidence(Indicator[PairEvidenceParameters]):
    name = "pair_evidence"
    requirements = ("FRD-19", "FRD-02", "FRD-11", "FRD-14")
    parameters_type = PairEvidenceParameters

    def __init__(self, parameters: PairEvidenceParameters | None = None) -> None:
        super().__init__(parameters)
        self._sources: dict[str, Indicator[Any]] = {}

    def attach(self, indicators: Mapping[str, Indicator[Any]]) -> None:
        """The indicators whose figures are pooled (the detector calls this)."""
        self._sources = dict(indicators)

    def has_data(self) -> bool:
        return any(self._sources[name].has_data() for name in ("soft_play", "giving_way", "chip_dumping", "net_flow"))

    def severity(self, score: float, threshold: float) -> float:
        return severity_from_surprise(score)

    # -- the indicators' chances

    def _soft_play(self, only: set[tuple[str, str]] | None) -> dict[tuple[str, str], float | None]:
        """Pair -> soft play's chance, for pairs with enough decisions (and in ``only`` unless ``None``); ``None`` for a
        pair soft play declined for a small effect (:meth:`SoftPlay.declined_for_a_small_effect`)."""
        soft = self._sources["soft_play"]
        assert isinstance(soft, SoftPlay)
        chances: dict[tuple[str, str], float | None] = {}
        minimum = soft.parameters.minimum_decisions
        threshold = soft.flagging_threshold()
        for (first, second), (one, other, _hands) in soft._pairs.items():
            if only is not None and (first, second) not in only:
                continue
            if sum(one[0::2]) + sum(other[0::2]) < minimum:
                continue
            judged = soft.judge(first, second)
            if judged is not None:
                declined = soft.declined_for_a_small_effect(judged, threshold)
                chances[(first, second)] = None if declined else judged["probability"]
        return chances

    def _giving_way(self) -> dict[tuple[str, str], float | None]:
        """Pair -> giving way's chance, for the pairs it judges (those whose test can reach its bar); ``None`` for a
        pair it declined for a small effect (:meth:`GivingWay.pooled_chances`)."""
        giving = self._sources["giving_way"]
        assert isinstance(giving, GivingWay)
        return giving.pooled_chances()

    def _entries(self) -> dict[tuple[str, str], float]:
        entry = self._sources["coordinated_entry"]
        assert isinstance(entry, CoordinatedEntry)
        chances = {}
        for (first, second), pair in entry._pairs.items():
            expected = entry.expected(first, second)
            at_least_one = poisson_upper_tail(expected, 1)
            if pair.together >= 1 and at_least_one > 0:
                chances[(first, second)] = min(1.0, poisson_upper_tail(expected, pair.together) / at_least_one)
        return chances

    def _dumping(self, only: set[tuple[str, str]] | None) -> dict[tuple[str, str], float]:
        """(loser, winner) -> chip dumping's chance, for ordered pairs with judged decisions (and in ``only``)."""
        dumping = self._sources["chip_dumping"]
        assert isinstance(dumping, ChipDumping)
        chances = {}
        opponents = dumping.opponents()
        dispersion = dumping.dispersion(opponents)
        for (loser, winner), pair in dumping._pairs.items():
            if only is not None and (loser, winner) not in only:
                continue
            kinds = pair.counts[0::2]
            if not any(kinds):
                continue
            weak = sum(pair.counts[1::2])
            if weak:
                chances[(loser, winner)] = 10.0 ** -dumping.score(loser, pair, winner, opponents, dispersion)[0]
            else:
                chances[(loser, winner)] = 1.0
        return chances

    def _pressure(self) -> dict[tuple[str, str], float | None]:
        """(loser, winner) -> the chance of the winner's betting pressure on the loser after the flop
        (:meth:`SoftPlay.pressure`) for the ordered pairs with ``pressure_minimum_decisions``; ``None`` for a pair
        examined whose effect is small (no evidence either way: a chance of 1 would dilute the pair's other
        indicators in Fisher's method)."""
        soft = self._sources["soft_play"]
        assert isinstance(soft, SoftPlay)
        return {
            pair: figures["chance"] if figures["large_effect"] else None
            for pair, figures in soft.pressure(self.parameters.pressure_minimum_decisions).items()
        }

    def _flow(self) -> dict[tuple[str, str], float]:
        """(loser, winner) -> net flow's chance in that direction (the normal tail of its equity-adjusted loss test,
        judged against the room's own null), for the ordered pairs it judges."""
        flow = self._sources["net_flow"]
        assert isinstance(flow, NetFlow)
        return {pair: judged["chance"] for pair, judged in flow.judged_losses().items()}

    def tests(self) -> dict[tuple[str, str], dict[str, Any]]:
        """Per pair (sorted) examined: its tests ``{name: (chance, [indicator chances])}``."""
        minimum = self.parameters.minimum_indicators
        entries, flow, giving, pressure = self._entries(), self._flow(), self._giving_way(), self._pressure()
        # With two indicators needed, only pairs that have entries, giving way, net flow or betting pressure can be
        # examined: judge only those.
        with_others = minimum >= 2
        soft = self._soft_play(set(entries) | set(giving) if with_others else None)
        directions = set(flow) | set(pressure) | {(second, first) for first, second in entries} | set(entries)
        dumping = self._dumping(directions if with_others else None)
        examined: dict[tuple[str, str], dict[str, Any]] = {}
        for key in set(soft) | set(entries) | set(giving):
            collusion_lookups: dict[str, float | None] = {
                name: chances[key]
                for name, chances in (("soft_play", soft), ("giving_way", giving), ("coordinated_entry", entries))
                if key in chances
            }
            parts = {name: chance for name, chance in collusion_lookups.items() if chance is not None}
            if len(parts) >= minimum:
                examined.setdefault(key, {})["collusion"] = (combined_tail(list(parts.values())), parts)
            elif len(collusion_lookups) >= minimum:
                # Examined, but an indicator declined the pair for a small effect: the test counts in the bar (how
                # many tests are examined must not depend on their outcome) and cannot flag.
                examined.setdefault(key, {})["collusion"] = (1.0, parts)
        for loser, winner in set(dumping) | set(flow) | set(pressure):
            key = (loser, winner) if loser < winner else (winner, loser)
            lookups: dict[str, float | None] = {
                name: chances.get(lookup)
                for name, chances, lookup in (
                    ("chip_dumping", dumping, (loser, winner)),
                    ("net_flow", flow, (loser, winner)),
                    ("betting_pressure", pressure, (loser, winner)),
                    ("coordinated_entry", entries, key),
                )
            }
            present = {name: chance for name, chance in lookups.items() if chance is not None}
            if len(present) >= minimum:
                examined.setdefault(key, {})[f"dumping:{loser}>{winner}"] = (
                    combined_tail(list(present.values())),
                    present,
                )
            elif (loser, winner) in pressure:
                # Examined for betting pressure, whose effect was small: the test counts in the bar (how many tests
                # are examined must not depend on their outcome) and cannot flag.
                examined.setdefault(key, {})[f"dumping:{loser}>{winner}"] = (1.0, present)
        return examined

    def thresholds(self, examined: Mapping[tuple[str, str], Mapping[str, Any]]) -> tuple[dict[str, float], int]:
        """(behaviour -> the score its tests must reach, players examined): the budget of ``chance_flags_per_player``
        chance flags per player split equally between the behaviours with tests, each behaviour's share over its own
        tests (weighted Bonferroni), never above ``ceiling``."""
        parameters = self.parameters
        players = len({player for key in examined for player in key})
        counts: dict[str, int] = {}
        for tests in examined.values():
            for name in tests:
                behaviour = name.partition(":")[0]
                counts[behaviour] = counts.get(behaviour, 0) + 1
        share = parameters.chance_flags_per_player / max(1, len(counts))
        return (
            {
                behaviour: multiple_testing_threshold(parameters.ceiling, count, players, share)
                for behaviour, count in counts.items()
            },
            players,
        )

    def flags(self) -> list[Flag]:
        examined = self.tests()
        if not examined:
            return []
        thresholds, players = self.thresholds(examined)
        tests_per_behaviour = {behaviour: 0 for behaviour in thresholds}
        for tests in examined.values():
            for name in tests:
                tests_per_behaviour[name.partition(":")[0]] += 1
        flags = []
        for key, tests in sorted(examined.items()):
            # The pair's test furthest past its behaviour's bar, if any.
            passed = [
                (surprise(chance) - thresholds[name.partition(":")[0]], name, chance, parts)
                for name, (chance, parts) in tests.items()
                if surprise(chance) >= thresholds[name.partition(":")[0]]
            ]
            if not passed:
                continue
            _margin, name, chance, parts = max(passed, key=lambda item: item[0])
            behaviour, _, direction = name.partition(":")
            named = tuple(direction.split(">")) if direction else key
            flags.append(
                self.flag(
                    (named[0], named[1]),
                    surprise(chance),
                    round(thresholds[behaviour], 3),
                    (),
                    behaviour=behaviour,
                    probability=float(f"{chance:.3g}"),
                    pairs_examined=len(examined),
                    tests_of_behaviour=tests_per_behaviour[behaviour],
                    players_examined=players,
                    chances={part: float(f"{value:.3g}") for part, value in sorted(parts.items())},
                    tests=len(tests),
                )
            )
        return flags

    def state(self) -> dict[str, Any]:
        return {"format": STATE_FORMAT}

    def load_state(self, data: Mapping[str, Any]) -> None:
        require_format(data, self.name)

    def merge(self, other: PairEvidence) -> None:
        """Nothing of its own to add."""


__all__ = ["PairEvidence", "PairEvidenceParameters"]
