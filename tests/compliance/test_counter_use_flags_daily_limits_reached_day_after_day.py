"""CASH-12, CASH-31, FRD-19: ratholing-counter and Banzai-reset usage — reaching a daily limit day after day."""

from __future__ import annotations

import pytest

from compliance.detection.detector import Detector
from compliance.detection.records import CounterRecord, RecordError
from tests.compliance.hands import START

DAY = 86_400.0


def uses(player: str, kind: str, per_day: list[int]) -> list[CounterRecord]:
    return [
        CounterRecord(player, kind, START + day * DAY + use * 600, place="table:3")
        for day, count in enumerate(per_day)
        for use in range(count)
    ]


def counter_flags(records: list[CounterRecord]) -> dict[str, tuple[float, dict[str, object]]]:
    detector = Detector()
    for record in sorted(records, key=lambda record: record.at):
        detector.feed_counter(record)
    return {flag.players[0]: (flag.score, dict(flag.evidence)) for flag in detector.flags()}


def test_a_player_at_the_daily_limit_on_three_days_is_flagged_with_those_days() -> None:
    flags = counter_flags(
        uses("rat", "ratholing", [5, 0, 6, 1, 0, 0])
        + uses("rat", "banzai_reset", [0, 0, 0, 0, 5, 0])
        + uses("regular", "ratholing", [4, 4, 4, 4, 4, 4])
    )
    assert set(flags) == {"rat"}
    score, evidence = flags["rat"]
    assert score == 3.0
    assert [day["day"] for day in evidence["days_at_limit"]] == ["2026-03-02", "2026-03-04", "2026-03-06"]  # type: ignore[union-attr,index]
    assert evidence["ratholing_returns"] == 12
    assert evidence["banzai_resets"] == 5


def test_days_older_than_the_window_are_forgotten() -> None:
    early = uses("rat", "ratholing", [5, 5, 5])
    late = [CounterRecord("rat", "ratholing", START + 40 * DAY, place="table:3")]
    assert counter_flags(early + late) == {}


def test_an_unknown_counter_is_refused() -> None:
    with pytest.raises(RecordError, match="unknown counter"):
        CounterRecord("rat", "rebuys", START)
