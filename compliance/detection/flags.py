"""What an indicator reports: a :class:`Flag` for review, and the base class the indicators share (FRD-19).

A flag names the indicator, the players (a pair for chip dumping — loser first — soft-play and shared connections; one
player for bot timing and counter use), the score and the threshold it reached, the hands that are the evidence and the
numbers behind the score. ``Flag.to_dict`` is its JSON form (stored by the site, printed by ``compliance_scan``).

Scores are each indicator's own statistic (its ``threshold`` is in the same unit); ``Flag.severity`` puts every flag on
one scale, 0 to 100, so the desk can sort flags of different kinds (see :func:`severity_from_probability`):

* indicators with a probability — chip dumping, net flow, soft play — report ``10 * -log10(p)`` where ``p`` is the
  chance that honest play would look at least this bad for these players (30 = one in a thousand, 50 = one in
  100,000, 100 = one in 10^10 or less);
* rule-based indicators (shared connections, counter use, bot timing, and the site's prohibited-program and
  sitting-out flags) have no such probability; their score at their threshold is set to 30, the severity of a
  one-in-a-thousand finding, and it grows in proportion to ``score / threshold`` (:func:`severity_from_ratio`).

Every indicator keeps a small accumulator fed one record at a time, serialisable to JSON (``state`` /
``from_state``) so the site can keep it between batches, and mergeable (``merge``) for accumulators fed with disjoint
batches. Parameters are a frozen dataclass per indicator; ``parameters_from_dict`` builds one from staff input.

Standard library only.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from compliance.detection.analysis import AnalysedHand
from compliance.detection.records import ConnectionRecord, CounterRecord

STATE_FORMAT = 1
"""Version of the accumulators' JSON form; a state of another version is refused (start a new accumulator)."""


class StateError(ValueError):
    """A serialised accumulator or a parameter set that cannot be read."""


@dataclass(frozen=True)
class Flag:
    """One finding for review. ``score >= threshold``; ``hands`` are the ids of the evidence hands in the order they
    were fed (the most recent ones kept); ``evidence`` holds the numbers behind the score (JSON values)."""

    indicator: str
    players: tuple[str, ...]
    score: float
    threshold: float
    hands: tuple[str, ...]
    evidence: Mapping[str, Any] = field(default_factory=dict)
    requirements: tuple[str, ...] = ()
    severity: float = 0.0
    """0 to 100, the same scale for every indicator (see the module docstring)."""

    def to_dict(self) -> dict[str, Any]:
        """``{"indicator", "players", "score", "severity", "threshold", "hands", "evidence", "requirements"}``; the
        score rounded to four decimals and the severity to one so the output is stable."""
        return {
            "indicator": self.indicator,
            "players": list(self.players),
            "score": round(self.score, 4),
            "severity": round(self.severity, 1),
            "threshold": self.threshold,
            "hands": list(self.hands),
            "evidence": dict(self.evidence),
            "requirements": list(self.requirements),
        }


ParametersT = TypeVar("ParametersT")


class Indicator(Generic[ParametersT]):
    """Base of the indicators: ``name``, ``requirements`` (the catalog IDs it serves), ``parameters`` and the feeding,
    flagging and (de)serialising methods. Feeding methods an indicator does not use ignore their record."""

    name: ClassVar[str]
    requirements: ClassVar[tuple[str, ...]]
    parameters_type: ClassVar[type[Any]]

    def __init__(self, parameters: ParametersT | None = None) -> None:
        self.parameters: ParametersT = parameters if parameters is not None else self.parameters_type()

    def feed_hand(self, hand: AnalysedHand) -> None:
        """Account for one finished hand."""

    def feed_connection(self, record: ConnectionRecord) -> None:
        """Account for one connection (log-in or socket connect)."""

    def feed_counter(self, record: CounterRecord) -> None:
        """Account for one use of a daily counter (ratholing return, Banzai Reset)."""

    def has_data(self) -> bool:
        """Whether anything this indicator can judge has been fed."""
        raise NotImplementedError

    def flags(self) -> list[Flag]:
        raise NotImplementedError

    def state(self) -> dict[str, Any]:
        """The accumulator as JSON values."""
        raise NotImplementedError

    def load_state(self, data: Mapping[str, Any]) -> None:
        """Replace the accumulator with a serialised one (raises :class:`StateError` when it cannot be read)."""
        raise NotImplementedError

    def merge(self, other: Any) -> None:
        """Add another accumulator of the same indicator (fed with other records) into this one."""
        raise NotImplementedError

    def severity(self, score: float, threshold: float) -> float:
        """The flag's place on the common 0-100 scale (module docstring); rule-based by default, indicators with a
        probability override it."""
        return severity_from_ratio(score, threshold)

    def flag(
        self, players: Iterable[str], score: float, threshold: float, hands: Iterable[str], **evidence: Any
    ) -> Flag:
        return Flag(
            indicator=self.name,
            players=tuple(players),
            score=score,
            threshold=threshold,
            hands=tuple(hands),
            evidence=evidence,
            requirements=self.requirements,
            severity=self.severity(score, threshold),
        )


SEVERITY_AT_RULE_THRESHOLD = 30.0
"""The severity of a rule-based flag at its threshold: that of a one-in-a-thousand finding."""


def severity_from_probability(probability: float) -> float:
    """``10 * -log10(probability)`` clipped to 0-100: 30 is a chance of one in a thousand, 100 one in 10^10."""
    if probability <= 0.0:
        return 100.0
    return max(0.0, min(100.0, -10.0 * math.log10(min(1.0, probability))))


def severity_from_surprise(surprise: float) -> float:
    """The severity of a ``-log10`` probability (the unit of the chip-dumping score)."""
    return max(0.0, min(100.0, 10.0 * surprise))


def severity_from_ratio(score: float, threshold: float) -> float:
    """A rule-based flag: :data:`SEVERITY_AT_RULE_THRESHOLD` at the threshold, in proportion to ``score / threshold``,
    at most 100."""
    if threshold <= 0.0:
        return 100.0 if score > 0 else 0.0
    return max(0.0, min(100.0, SEVERITY_AT_RULE_THRESHOLD * score / threshold))


def parameters_from_dict(parameters_type: type[ParametersT], values: Mapping[str, Any]) -> ParametersT:
    """A parameters dataclass with the defaults replaced by ``values``; raises :class:`StateError` for an unknown name
    or a value of the wrong type (numbers must be numbers, whole numbers where the default is one)."""
    known = {item.name: item for item in dataclasses.fields(parameters_type)}  # type: ignore[arg-type]
    changes: dict[str, Any] = {}
    for name, value in values.items():
        if name not in known:
            raise StateError(f"unknown parameter {name!r} (known: {', '.join(sorted(known))})")
        default = getattr(parameters_type(), name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise StateError(f"parameter {name} must be a number, not {value!r}")
        if isinstance(default, int) and not isinstance(value, int):
            raise StateError(f"parameter {name} must be a whole number, not {value!r}")
        if value < 0:
            raise StateError(f"parameter {name} must not be negative, not {value!r}")
        changes[name] = value
    return parameters_type(**changes)


def keep_last(items: list[str], new: Iterable[str], limit: int) -> list[str]:
    """``items`` followed by ``new``, without repeats, keeping the last ``limit`` (evidence lists stay small)."""
    result = list(items)
    for item in new:
        if item in result:
            continue
        result.append(item)
    return result[-limit:] if limit else []


def stored_counts(values: Any, width: int) -> list[int]:
    """``width`` non-negative whole counts read from a stored state (``ValueError`` otherwise)."""
    counts = [int(value) for value in values]
    if len(counts) != width or any(value < 0 for value in counts):
        raise ValueError(f"expected {width} non-negative counts, got {values!r}")
    return counts


def add_counts(target: list[int], source: Sequence[int]) -> None:
    """Add ``source`` to ``target`` position by position (merging two accumulators' counts)."""
    target[:] = [mine + theirs for mine, theirs in zip(target, source, strict=True)]


def require_format(data: Mapping[str, Any], name: str) -> None:
    if not isinstance(data, Mapping) or data.get("format") != STATE_FORMAT:
        raise StateError(f"{name}: not a state of format {STATE_FORMAT}")


__all__ = [
    "SEVERITY_AT_RULE_THRESHOLD",
    "STATE_FORMAT",
    "Flag",
    "Indicator",
    "StateError",
    "add_counts",
    "keep_last",
    "parameters_from_dict",
    "require_format",
    "severity_from_probability",
    "severity_from_ratio",
    "severity_from_surprise",
    "stored_counts",
]
