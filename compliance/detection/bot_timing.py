"""Bot-like timing: decisions too regular or too fast, sessions too long (FRD-07, FRD-06; indicator of FRD-19).

Per player, from the decision times the records carry (timeouts and actions without a time are skipped) and the
hands' start times:

* **regularity** — the standard deviation of the natural logarithm of the decision times. People's times spread
  widely (a quick check, a long think facing a big bet): typically 0.5 to 1.0. A fixed or lightly jittered delay gives
  much less. Component score ``regular_log_stdev / stdev`` (above 1 when more regular than the limit).
* **speed** — the median decision time (from a histogram of log-times, about 6 % resolution). Component score
  ``fast_median_ms / median``.
* **session length** — the longest run of hands without a pause of ``session_break_minutes``, across all tables.
  Component score ``longest / long_session_hours``.

The score is the largest component; a player is flagged when it reaches ``threshold`` (1.0: one limit crossed), the
timing components counting only after ``minimum_decisions`` timed decisions. All but ``session_break_minutes`` apply
when flags are computed.

State (JSON): ``{"format": 1, "players": {player: {"decisions", "log_sum", "log_square_sum", "histogram":
{bin: count}, "session_start", "last_hand", "longest_session", "longest_session_start", "sessions", "hands":
[ids]}}}`` (times in seconds since the epoch, the longest session in seconds).

Standard library and the engine only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from compliance.detection.analysis import AnalysedHand
from compliance.detection.flags import STATE_FORMAT, Flag, Indicator, StateError, keep_last, require_format

HISTOGRAM_BIN_WIDTH = 0.025
"""Width of a histogram bin in log10 milliseconds (a factor of 1.06)."""


@dataclass(frozen=True)
class BotTimingParameters:
    threshold: float = 1.0
    """Score (the largest component) from which a player is flagged."""
    regular_log_stdev: float = 0.35
    """Standard deviation of ln(decision time) at or below which timing is machine-like."""
    fast_median_ms: float = 800.0
    """Median decision time at or below which play is machine-fast."""
    long_session_hours: float = 10.0
    """A session this long without a pause is machine-like."""
    minimum_decisions: int = 200
    """Timed decisions needed before the timing components count."""
    session_break_minutes: float = 20.0
    """Accumulation: a pause this long between hands ends a session."""
    evidence_hands: int = 10
    """How many of the player's hands are kept as evidence (the most recent)."""


@dataclass
class _Player:
    decisions: int = 0
    log_sum: float = 0.0
    log_square_sum: float = 0.0
    histogram: dict[int, int] = field(default_factory=dict)
    session_start: float | None = None
    last_hand: float | None = None
    longest_session: float = 0.0
    longest_session_start: float | None = None
    sessions: int = 0
    hands: list[str] = field(default_factory=list)

    def add_time(self, milliseconds: int) -> None:
        value = max(milliseconds, 1)
        logarithm = math.log(value)
        self.decisions += 1
        self.log_sum += logarithm
        self.log_square_sum += logarithm * logarithm
        bin_index = math.floor(math.log10(value) / HISTOGRAM_BIN_WIDTH)
        self.histogram[bin_index] = self.histogram.get(bin_index, 0) + 1

    def add_hand(self, started_at: float, break_seconds: float) -> None:
        if self.session_start is None or self.last_hand is None:
            self.session_start = self.last_hand = started_at
            self.sessions = 1
        elif started_at - self.last_hand > break_seconds:
            self.session_start = self.last_hand = started_at
            self.sessions += 1
        elif started_at > self.last_hand:
            self.last_hand = started_at
        elif started_at < self.session_start and self.session_start - started_at <= break_seconds:
            self.session_start = started_at  # hands of several tables may arrive slightly out of order
        length = self.last_hand - self.session_start
        if length > self.longest_session:
            self.longest_session = length
            self.longest_session_start = self.session_start

    @property
    def log_stdev(self) -> float:
        if self.decisions < 2:
            return 0.0
        mean = self.log_sum / self.decisions
        variance = (self.log_square_sum - self.decisions * mean * mean) / (self.decisions - 1)
        return math.sqrt(max(variance, 0.0))

    @property
    def median_ms(self) -> float:
        half = self.decisions / 2
        running = 0
        for bin_index in sorted(self.histogram):
            running += self.histogram[bin_index]
            if running >= half:
                return 10 ** ((bin_index + 0.5) * HISTOGRAM_BIN_WIDTH)
        return 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "log_sum": self.log_sum,
            "log_square_sum": self.log_square_sum,
            "histogram": {str(bin_index): count for bin_index, count in sorted(self.histogram.items())},
            "session_start": self.session_start,
            "last_hand": self.last_hand,
            "longest_session": self.longest_session,
            "longest_session_start": self.longest_session_start,
            "sessions": self.sessions,
            "hands": list(self.hands),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> _Player:
        return cls(
            decisions=int(data["decisions"]),
            log_sum=float(data["log_sum"]),
            log_square_sum=float(data["log_square_sum"]),
            histogram={int(bin_index): int(count) for bin_index, count in data["histogram"].items()},
            session_start=_optional_float(data["session_start"]),
            last_hand=_optional_float(data["last_hand"]),
            longest_session=float(data["longest_session"]),
            longest_session_start=_optional_float(data["longest_session_start"]),
            sessions=int(data["sessions"]),
            hands=[str(hand) for hand in data["hands"]],
        )


def _optional_float(value: Any) -> float | None:
    return None if value is None else float(value)


class BotTiming(Indicator[BotTimingParameters]):
    name = "bot_timing"
    requirements = ("FRD-19", "FRD-07", "FRD-06")
    parameters_type = BotTimingParameters

    def __init__(self, parameters: BotTimingParameters | None = None) -> None:
        super().__init__(parameters)
        self._players: dict[str, _Player] = {}
        self._timed = False

    def feed_hand(self, hand: AnalysedHand) -> None:
        record = hand.record
        limit = self.parameters.evidence_hands
        break_seconds = self.parameters.session_break_minutes * 60
        for decision in hand.decisions:
            if decision.decision_ms is not None and not decision.timeout:
                self._player(decision.player).add_time(decision.decision_ms)
                self._timed = True
        if record.started_at is not None:
            for seat in record.seats:
                self._player(seat.player).add_hand(record.started_at, break_seconds)
        for seat in record.seats:
            player = self._player(seat.player)
            player.hands = keep_last(player.hands, [record.hand_id], limit)

    def _player(self, player: str) -> _Player:
        found = self._players.get(player)
        if found is None:
            found = self._players[player] = _Player()
        return found

    def has_data(self) -> bool:
        return self._timed or any(player.sessions for player in self._players.values())

    def flags(self) -> list[Flag]:
        parameters = self.parameters
        flags = []
        for name, player in sorted(self._players.items()):
            components: dict[str, float] = {}
            if player.decisions >= parameters.minimum_decisions:
                stdev = player.log_stdev
                median = player.median_ms
                components["regularity"] = parameters.regular_log_stdev / stdev if stdev > 0 else math.inf
                components["speed"] = parameters.fast_median_ms / median if median > 0 else math.inf
            if parameters.long_session_hours > 0:
                components["session_length"] = player.longest_session / 3600 / parameters.long_session_hours
            if not components:
                continue
            score = max(components.values())
            if score < parameters.threshold:
                continue
            flags.append(
                self.flag(
                    (name,),
                    min(score, 1000.0),
                    parameters.threshold,
                    player.hands,
                    timed_decisions=player.decisions,
                    decision_log_stdev=round(player.log_stdev, 3) if player.decisions >= 2 else None,
                    decision_mean_ms=round(math.exp(player.log_sum / player.decisions)) if player.decisions else None,
                    decision_median_ms=round(player.median_ms) if player.decisions else None,
                    longest_session_hours=round(player.longest_session / 3600, 2),
                    sessions=player.sessions,
                    components={key: round(min(value, 1000.0), 3) for key, value in sorted(components.items())},
                )
            )
        return flags

    def state(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "timed": self._timed,
            "players": {name: player.to_dict() for name, player in sorted(self._players.items())},
        }

    def load_state(self, data: Mapping[str, Any]) -> None:
        require_format(data, self.name)
        try:
            players = {str(name): _Player.from_dict(values) for name, values in data["players"].items()}
            timed = bool(data["timed"])
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise StateError(f"{self.name}: malformed state: {error}") from error
        self._players, self._timed = players, timed

    def merge(self, other: BotTiming) -> None:
        """Adds the other accumulator's decision times and hands; sessions are combined as the longer of the two
        (an accumulator fed with another slice of time cannot join sessions across the slices)."""
        limit = self.parameters.evidence_hands
        self._timed = self._timed or other._timed
        for name, theirs in other._players.items():
            mine = self._player(name)
            mine.decisions += theirs.decisions
            mine.log_sum += theirs.log_sum
            mine.log_square_sum += theirs.log_square_sum
            for bin_index, count in theirs.histogram.items():
                mine.histogram[bin_index] = mine.histogram.get(bin_index, 0) + count
            if theirs.longest_session > mine.longest_session:
                mine.longest_session = theirs.longest_session
                mine.longest_session_start = theirs.longest_session_start
            mine.sessions += theirs.sessions
            if theirs.last_hand is not None and (mine.last_hand is None or theirs.last_hand > mine.last_hand):
                mine.session_start, mine.last_hand = theirs.session_start, theirs.last_hand
            mine.hands = keep_last(mine.hands, theirs.hands, limit)


__all__ = ["BotTiming", "BotTimingParameters"]
