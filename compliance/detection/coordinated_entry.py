"""Coordinated table entry: two accounts that keep joining the same running tables within seconds of each other
(FRD-11, FRD-01; indicator of FRD-19).

Fed with connection records (``player``, ``place``, ``at``). Only cash tables count (places ``table:...``): everybody
enters a tournament at its start. A connection is a *join* when the player had not connected to that table in the
last ``session_gap_minutes`` (a reconnect is not a join), and it counts only when the table was already running — at
least ``opening_minutes`` after the first connection seen there (when a table opens, its first players sit down
together by design, waiting lists included).

Two players *enter together* when their joins at the same table are at most ``window_seconds`` apart. By chance, the
expected number of such coincidences for a pair is ``lambda = sum over tables of n_A * n_B * 2 * window / T``, where
``n_A`` and ``n_B`` are the two players' counted joins at that table and ``T`` the time the table has been seen
running (at least an hour). The score is ``-log10`` of the Poisson chance of the pair's ``k`` coincidences or more
(6 = one in a million); the severity ``10 * score``. A pair is flagged when it entered together at least
``minimum_coincidences`` times at ``minimum_tables`` different tables or more and the score reaches ``threshold``.

Parameters marked *accumulation* apply to connections fed afterwards; the others when flags are computed.

State (JSON): ``{"format": 1, "places": {place: [first, last, [[at, player], ...]]}, "last_seen": {"player|place":
at}, "joins": {player: {place: n}}, "pairs": [[A, B, k, [places], [times]], ...]}`` (A < B; the recent joins of a
place are those within the window of its newest).

Standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from compliance.detection.flags import (
    STATE_FORMAT,
    Flag,
    Indicator,
    StateError,
    keep_last,
    require_format,
    severity_from_surprise,
)
from compliance.detection.records import ConnectionRecord
from compliance.detection.statistics import surprise

EVIDENCE_ENTRIES = 20
MINIMUM_RUNNING_SECONDS = 3600.0


@dataclass(frozen=True)
class CoordinatedEntryParameters:
    threshold: float = 6.0
    """Score (-log10 of the chance of so many entries together) from which a pair is flagged."""
    minimum_coincidences: int = 3
    """Entries together needed before judging."""
    minimum_tables: int = 2
    """Different tables those entries were at."""
    window_seconds: float = 20.0
    """Accumulation: two joins at one table this close in time are an entry together."""
    session_gap_minutes: float = 30.0
    """Accumulation: a connection to a table the player connected to less than this ago is a reconnect, not a join."""
    opening_minutes: float = 5.0
    """Accumulation: joins this soon after a table's first connection are its opening and are not counted."""


@dataclass
class _Place:
    first: float
    last: float
    recent: list[list[Any]] = field(default_factory=list)


@dataclass
class _Pair:
    together: int = 0
    places: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)


def poisson_upper_tail(mean: float, count: int) -> float:
    """P(X >= count) for X ~ Poisson(mean)."""
    if count <= 0:
        return 1.0
    if mean <= 0.0:
        return 0.0
    below = sum(math.exp(index * math.log(mean) - mean - math.lgamma(index + 1)) for index in range(count))
    if below < 0.5:
        return max(0.0, 1.0 - below)
    # Sum the upper terms directly (the subtraction would lose everything when the tail is tiny).
    total = 0.0
    index = count
    while True:
        term = math.exp(index * math.log(mean) - mean - math.lgamma(index + 1))
        total += term
        if index > mean and term < total * 1e-16:
            return total
        index += 1


class CoordinatedEntry(Indicator[CoordinatedEntryParameters]):
    name = "coordinated_entry"
    requirements = ("FRD-19", "FRD-11", "FRD-01")
    parameters_type = CoordinatedEntryParameters

    def __init__(self, parameters: CoordinatedEntryParameters | None = None) -> None:
        super().__init__(parameters)
        self._places: dict[str, _Place] = {}
        self._last_seen: dict[str, float] = {}
        self._joins: dict[str, dict[str, int]] = {}
        self._pairs: dict[tuple[str, str], _Pair] = {}

    def feed_connection(self, record: ConnectionRecord) -> None:
        if not record.place.startswith("table:"):
            return
        parameters = self.parameters
        key = f"{record.player}|{record.place}"
        previous = self._last_seen.get(key)
        self._last_seen[key] = record.at if previous is None else max(previous, record.at)
        place = self._places.get(record.place)
        if place is None:
            place = self._places[record.place] = _Place(record.at, record.at)
        place.first = min(place.first, record.at)
        place.last = max(place.last, record.at)
        if previous is not None and record.at - previous < parameters.session_gap_minutes * 60:
            return
        if record.at - place.first < parameters.opening_minutes * 60:
            return
        window = parameters.window_seconds
        joins = self._joins.setdefault(record.player, {})
        joins[record.place] = joins.get(record.place, 0) + 1
        place.recent = [entry for entry in place.recent if place.last - entry[0] <= window]
        for at, other in place.recent:
            if other == record.player or abs(at - record.at) > window:
                continue
            pair_key = (other, record.player) if other < record.player else (record.player, other)
            pair = self._pairs.setdefault(pair_key, _Pair())
            pair.together += 1
            pair.places = keep_last(pair.places, [record.place], EVIDENCE_ENTRIES)
            pair.times = [*pair.times, record.at][-EVIDENCE_ENTRIES:]
        place.recent.append([record.at, record.player])

    def has_data(self) -> bool:
        return bool(self._joins)

    def severity(self, score: float, threshold: float) -> float:
        return severity_from_surprise(score)

    def expected(self, first: str, second: str) -> float:
        """The coincidences expected by chance for the pair (module docstring)."""
        mine, theirs = self._joins.get(first, {}), self._joins.get(second, {})
        total = 0.0
        for place_name in set(mine) & set(theirs):
            place = self._places[place_name]
            running = max(MINIMUM_RUNNING_SECONDS, place.last - place.first)
            total += mine[place_name] * theirs[place_name] * 2.0 * self.parameters.window_seconds / running
        return total

    def flags(self) -> list[Flag]:
        parameters = self.parameters
        flags = []
        for (first, second), pair in sorted(self._pairs.items()):
            if pair.together < parameters.minimum_coincidences or len(pair.places) < parameters.minimum_tables:
                continue
            expected = self.expected(first, second)
            probability = poisson_upper_tail(expected, pair.together)
            score = surprise(probability)
            if score < parameters.threshold:
                continue
            flags.append(
                self.flag(
                    (first, second),
                    score,
                    parameters.threshold,
                    (),
                    entries_together=pair.together,
                    expected_by_chance=float(f"{expected:.3g}"),
                    probability=float(f"{probability:.3g}"),
                    tables=list(pair.places),
                    window_seconds=parameters.window_seconds,
                )
            )
        return flags

    # -- state

    def state(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "places": {
                name: [place.first, place.last, [list(entry) for entry in place.recent]]
                for name, place in sorted(self._places.items())
            },
            "last_seen": dict(sorted(self._last_seen.items())),
            "joins": {player: dict(sorted(places.items())) for player, places in sorted(self._joins.items())},
            "pairs": [
                [first, second, pair.together, list(pair.places), list(pair.times)]
                for (first, second), pair in sorted(self._pairs.items())
            ],
        }

    def load_state(self, data: Mapping[str, Any]) -> None:
        require_format(data, self.name)
        try:
            places = {
                str(name): _Place(float(first), float(last), [[float(at), str(player)] for at, player in recent])
                for name, (first, last, recent) in data["places"].items()
            }
            last_seen = {str(key): float(at) for key, at in data["last_seen"].items()}
            joins = {
                str(player): {str(place): int(count) for place, count in counts.items()}
                for player, counts in data["joins"].items()
            }
            pairs = {
                (str(first), str(second)): _Pair(
                    int(together), [str(place) for place in places_], [float(at) for at in times]
                )
                for first, second, together, places_, times in data["pairs"]
            }
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise StateError(f"{self.name}: malformed state: {error}") from error
        self._places, self._last_seen, self._joins, self._pairs = places, last_seen, joins, pairs

    def merge(self, other: CoordinatedEntry) -> None:
        """Add another accumulator fed with other connections (entries together across the two batches' boundary
        are not seen)."""
        for name, theirs in other._places.items():
            mine = self._places.get(name)
            if mine is None:
                self._places[name] = _Place(theirs.first, theirs.last, [list(entry) for entry in theirs.recent])
            else:
                mine.first, mine.last = min(mine.first, theirs.first), max(mine.last, theirs.last)
                mine.recent = sorted(mine.recent + theirs.recent)
        for seen_key, at in other._last_seen.items():
            self._last_seen[seen_key] = max(at, self._last_seen.get(seen_key, at))
        for player, counts in other._joins.items():
            mine_counts = self._joins.setdefault(player, {})
            for place, count in counts.items():
                mine_counts[place] = mine_counts.get(place, 0) + count
        for key, theirs_pair in other._pairs.items():
            pair = self._pairs.setdefault(key, _Pair())
            pair.together += theirs_pair.together
            pair.places = keep_last(pair.places, theirs_pair.places, EVIDENCE_ENTRIES)
            pair.times = (pair.times + theirs_pair.times)[-EVIDENCE_ENTRIES:]


__all__ = ["CoordinatedEntry", "CoordinatedEntryParameters", "poisson_upper_tail"]
