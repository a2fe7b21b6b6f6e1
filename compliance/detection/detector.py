"""All the indicators together, fed incrementally, with one JSON state (FRD-19).

Usage (the site's Celery task, ``compliance_scan`` and the benchmark do the same)::

    detector = Detector.from_state(stored_state, parameters=staff_parameters)   # or Detector() the first time
    for record in new_hand_records:       # hands settled since the last batch, in the order they were played
        detector.feed_hand(record)
    for connection in new_connections:    # log-ins and socket connects
        detector.feed_connection(connection)
    for use in new_counter_uses:          # ratholing returns and Banzai Resets
        detector.feed_counter(use)
    store(detector.state())               # JSON; feeding the next batch into it gives what one pass would
    flags = detector.flags()              # Flag values, sorted by indicator, then players

Each hand is analysed once (:class:`~compliance.detection.analysis.AnalysedHand`) and handed to every indicator.
``parameters`` maps an indicator name to ``{parameter: value}`` overrides of its defaults
(:func:`parameters_for`); unknown names are refused.

State (JSON): ``{"format": 1, "hands": n, "connections": n, "counters": n, "indicators": {name: state}}``.

Standard library and the engine only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from compliance.detection.analysis import AnalysedHand
from compliance.detection.bot_timing import BotTiming
from compliance.detection.chip_dumping import ChipDumping
from compliance.detection.coordinated_entry import CoordinatedEntry
from compliance.detection.counter_use import CounterUse
from compliance.detection.flags import STATE_FORMAT, Flag, Indicator, StateError, parameters_from_dict, require_format
from compliance.detection.giving_way import GivingWay
from compliance.detection.net_flow import NetFlow
from compliance.detection.pair_evidence import PairEvidence
from compliance.detection.records import ConnectionRecord, CounterRecord, HandRecord
from compliance.detection.shared_connections import SharedConnections
from compliance.detection.soft_play import SoftPlay

INDICATOR_TYPES: tuple[type[Indicator[Any]], ...] = (
    ChipDumping,
    NetFlow,
    SoftPlay,
    GivingWay,
    SharedConnections,
    CoordinatedEntry,
    CounterUse,
    BotTiming,
    PairEvidence,
)
INDICATOR_NAMES: tuple[str, ...] = tuple(indicator.name for indicator in INDICATOR_TYPES)


def parameters_for(overrides: Mapping[str, Mapping[str, Any]] | None) -> dict[str, Any]:
    """The parameters dataclass of every indicator with ``overrides`` applied; raises :class:`StateError` for an unknown
    indicator or parameter."""
    overrides = overrides or {}
    unknown = set(overrides) - set(INDICATOR_NAMES)
    if unknown:
        raise StateError(f"unknown indicator(s) {', '.join(sorted(unknown))} (known: {', '.join(INDICATOR_NAMES)})")
    return {
        indicator.name: parameters_from_dict(indicator.parameters_type, overrides.get(indicator.name, {}))
        for indicator in INDICATOR_TYPES
    }


class Detector:
    """The indicators of :data:`INDICATOR_TYPES` with their accumulators (see the module docstring)."""

    def __init__(self, parameters: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        resolved = parameters_for(parameters)
        self.indicators: dict[str, Indicator[Any]] = {
            indicator.name: indicator(resolved[indicator.name]) for indicator in INDICATOR_TYPES
        }
        pooled = self.indicators[PairEvidence.name]
        assert isinstance(pooled, PairEvidence)
        pooled.attach(self.indicators)  # reads the others' figures when flags are computed
        self.hands = 0
        self.connections = 0
        self.counters = 0

    def feed_hand(self, record: HandRecord) -> None:
        hand = AnalysedHand(record)
        for indicator in self.indicators.values():
            indicator.feed_hand(hand)
        self.hands += 1

    def feed_hands(self, records: Iterable[HandRecord]) -> None:
        for record in records:
            self.feed_hand(record)

    def feed_connection(self, record: ConnectionRecord) -> None:
        for indicator in self.indicators.values():
            indicator.feed_connection(record)
        self.connections += 1

    def feed_counter(self, record: CounterRecord) -> None:
        for indicator in self.indicators.values():
            indicator.feed_counter(record)
        self.counters += 1

    def flags(self) -> list[Flag]:
        """Every indicator's flags, ordered by indicator (as in :data:`INDICATOR_NAMES`), then players."""
        result: list[Flag] = []
        for indicator in self.indicators.values():
            # After chip dumping and net flow: their pairs leave soft play's and giving way's baselines.
            if isinstance(indicator, SoftPlay | GivingWay):
                indicator.exclude_from_baselines(
                    (flag.players[0], flag.players[1])
                    for flag in result
                    if flag.indicator in (ChipDumping.name, NetFlow.name)
                )
            result.extend(sorted(indicator.flags(), key=lambda flag: flag.players))
        return result

    def indicators_without_data(self) -> list[str]:
        """Names of the indicators that have been fed nothing they can judge."""
        return [name for name, indicator in self.indicators.items() if not indicator.has_data()]

    def state(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "hands": self.hands,
            "connections": self.connections,
            "counters": self.counters,
            "indicators": {name: indicator.state() for name, indicator in self.indicators.items()},
        }

    @classmethod
    def from_state(cls, data: Mapping[str, Any], parameters: Mapping[str, Mapping[str, Any]] | None = None) -> Detector:
        """A detector continuing from a stored :meth:`state`; raises :class:`StateError` when it cannot be read."""
        require_format(data, "detector")
        detector = cls(parameters)
        try:
            detector.hands = int(data["hands"])
            detector.connections = int(data["connections"])
            detector.counters = int(data["counters"])
            states = data["indicators"]
        except (KeyError, TypeError, ValueError) as error:
            raise StateError(f"detector: malformed state: {error}") from error
        for name, indicator in detector.indicators.items():
            if name in states:  # a state from before an indicator existed starts that one afresh
                indicator.load_state(states[name])
        return detector

    def merge(self, other: Detector) -> None:
        """Add another detector's accumulators (fed with other records) into this one."""
        for name, indicator in self.indicators.items():
            indicator.merge(other.indicators[name])
        self.hands += other.hands
        self.connections += other.connections
        self.counters += other.counters


__all__ = ["INDICATOR_NAMES", "INDICATOR_TYPES", "Detector", "parameters_for"]
