"""Ratholing-counter and Banzai-reset usage (CASH-12, CASH-31, FRD-17; indicator of FRD-19).

Fed with counter records: a counted ratholing return (leaving a regular table with 100 BB or more and sitting back
down there within 30 minutes, CASH-12) or a Banzai Reset (CASH-31). Both counters restart every UTC day and their
rules change at five a day (ratholing: from the fifth return the player must come back with the whole stack; Banzai:
five Resets a day). A player who reaches a daily limit now and then is using the rules; one who reaches it day after
day is leaving with winnings and coming back short as a habit, which is worth a review.

Score per player: the number of days within the last ``window_days`` (counted back from the newest record) on which a
counter reached its daily limit (``ratholing_daily_limit``, ``banzai_reset_daily_limit``), both counters together.
Flagged from ``threshold`` days. ``window_days`` applies when records are fed (older days are dropped); the rest when
flags are computed.

State (JSON): ``{"format": 1, "newest_day": "YYYY-MM-DD", "players": {player: {"YYYY-MM-DD": {"ratholing": n,
"banzai_reset": m, "places": [places]}}}}``.

Standard library and the engine only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from compliance.detection.flags import STATE_FORMAT, Flag, Indicator, StateError, keep_last, require_format
from compliance.detection.records import COUNTER_KINDS, CounterRecord

EVIDENCE_PLACES = 10


@dataclass(frozen=True)
class CounterUseParameters:
    threshold: float = 3.0
    """Days at a daily limit (within the window) from which a player is flagged."""
    ratholing_daily_limit: int = 5
    """Counted ratholing returns in a UTC day that reach the limit (CASH-11: from 5 the buy-in is the whole stack)."""
    banzai_reset_daily_limit: int = 5
    """Banzai Resets in a UTC day that use up the allowance (CASH-31)."""
    window_days: int = 30
    """Accumulation: days kept, counted back from the newest record."""


def utc_day(moment: float) -> date:
    return datetime.fromtimestamp(moment, tz=UTC).date()


class CounterUse(Indicator[CounterUseParameters]):
    name = "counter_use"
    requirements = ("FRD-19", "CASH-12", "CASH-31")
    parameters_type = CounterUseParameters

    def __init__(self, parameters: CounterUseParameters | None = None) -> None:
        super().__init__(parameters)
        self._newest_day: date | None = None
        self._players: dict[str, dict[date, dict[str, Any]]] = {}

    def feed_counter(self, record: CounterRecord) -> None:
        day = utc_day(record.at)
        if self._newest_day is None or day > self._newest_day:
            self._newest_day = day
            self._drop_old_days()
        if day <= self._newest_day - timedelta(days=self.parameters.window_days):
            return
        days = self._players.setdefault(record.player, {})
        usage = days.setdefault(day, {"ratholing": 0, "banzai_reset": 0, "places": []})
        usage[record.kind] += 1
        if record.place is not None:
            usage["places"] = keep_last(usage["places"], [record.place], EVIDENCE_PLACES)

    def _drop_old_days(self) -> None:
        assert self._newest_day is not None
        oldest_kept = self._newest_day - timedelta(days=self.parameters.window_days - 1)
        for player in list(self._players):
            days = {day: usage for day, usage in self._players[player].items() if day >= oldest_kept}
            if days:
                self._players[player] = days
            else:
                del self._players[player]

    def has_data(self) -> bool:
        return self._newest_day is not None

    def flags(self) -> list[Flag]:
        parameters = self.parameters
        limits = {"ratholing": parameters.ratholing_daily_limit, "banzai_reset": parameters.banzai_reset_daily_limit}
        flags = []
        for player, days in sorted(self._players.items()):
            at_limit = {
                day: usage
                for day, usage in sorted(days.items())
                if any(usage[kind] >= limits[kind] for kind in COUNTER_KINDS)
            }
            score = float(len(at_limit))
            if score < parameters.threshold:
                continue
            flags.append(
                self.flag(
                    (player,),
                    score,
                    parameters.threshold,
                    (),
                    days_at_limit=[
                        {
                            "day": day.isoformat(),
                            "ratholing": usage["ratholing"],
                            "banzai_reset": usage["banzai_reset"],
                            "places": list(usage["places"]),
                        }
                        for day, usage in at_limit.items()
                    ],
                    ratholing_returns=sum(usage["ratholing"] for usage in days.values()),
                    banzai_resets=sum(usage["banzai_reset"] for usage in days.values()),
                    days_with_use=len(days),
                )
            )
        return flags

    def state(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "newest_day": None if self._newest_day is None else self._newest_day.isoformat(),
            "players": {
                player: {day.isoformat(): dict(usage) for day, usage in sorted(days.items())}
                for player, days in sorted(self._players.items())
            },
        }

    def load_state(self, data: Mapping[str, Any]) -> None:
        require_format(data, self.name)
        try:
            newest = None if data["newest_day"] is None else date.fromisoformat(data["newest_day"])
            players = {
                str(player): {
                    date.fromisoformat(day): {
                        "ratholing": int(usage["ratholing"]),
                        "banzai_reset": int(usage["banzai_reset"]),
                        "places": [str(place) for place in usage["places"]],
                    }
                    for day, usage in days.items()
                }
                for player, days in data["players"].items()
            }
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise StateError(f"{self.name}: malformed state: {error}") from error
        self._newest_day, self._players = newest, players

    def merge(self, other: CounterUse) -> None:
        for player, days in other._players.items():
            mine = self._players.setdefault(player, {})
            for day, usage in days.items():
                target = mine.setdefault(day, {"ratholing": 0, "banzai_reset": 0, "places": []})
                target["ratholing"] += usage["ratholing"]
                target["banzai_reset"] += usage["banzai_reset"]
                target["places"] = keep_last(target["places"], usage["places"], EVIDENCE_PLACES)
        if other._newest_day is not None and (self._newest_day is None or other._newest_day > self._newest_day):
            self._newest_day = other._newest_day
        if self._newest_day is not None:
            self._drop_old_days()


__all__ = ["CounterUse", "CounterUseParameters", "utc_day"]
