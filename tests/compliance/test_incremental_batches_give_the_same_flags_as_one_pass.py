"""FRD-19: the indicators are fed incrementally — two batches with the state serialised to JSON in between (as the
site keeps it between Celery batches) give the same flags and state as one pass; accumulators fed with disjoint
batches merge into the one-pass result."""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace
from typing import Any

import pytest

from compliance.detection.detector import Detector
from compliance.detection.flags import StateError
from compliance.detection.records import ConnectionRecord, CounterRecord, HandRecord
from tests.compliance.hands import START, honest_all_ins, shove_and_call, three_players_heads_up

DAY = 86_400.0


def timed(records: list[HandRecord]) -> list[HandRecord]:
    """The hands one minute apart, every decision about 1.5 s (a bot-like regular delay for everyone)."""
    rng = random.Random(3)
    return [
        replace(
            record,
            actions=tuple(
                replace(action, decision_ms=round(1500 * math.exp(rng.gauss(0.0, 0.05)))) for action in record.actions
            ),
            started_at=START + 60 * number,
        )
        for number, record in enumerate(records)
    ]


def stream() -> list[tuple[str, Any]]:
    hands = honest_all_ins(25) + three_players_heads_up(40, {"ann", "bea"})
    hands += [shove_and_call(f"dump-{number}", "dee", "rob", "7c2d", "AsAh") for number in range(4)]
    items: list[tuple[str, Any]] = [("hand", record) for record in timed(hands)]
    items.insert(10, ("connection", ConnectionRecord("dee", "table:1", START, ip="198.51.100.7", device="d")))
    items.insert(20, ("connection", ConnectionRecord("rob", "table:1", START + 60, ip="198.51.100.7", device="r")))
    for day in range(4):
        for use in range(5):
            items.insert(30 + day, ("counter", CounterRecord("dee", "ratholing", START + day * DAY + use)))
    return items


def feed(detector: Detector, items: list[tuple[str, Any]]) -> None:
    for kind, record in items:
        if kind == "hand":
            detector.feed_hand(record)
        elif kind == "connection":
            detector.feed_connection(record)
        else:
            detector.feed_counter(record)


def test_two_batches_with_the_state_stored_as_json_between_them_give_what_one_pass_gives() -> None:
    items = stream()
    one_pass = Detector()
    feed(one_pass, items)
    expected = [flag.to_dict() for flag in one_pass.flags()]
    assert {flag["indicator"] for flag in expected} == {
        "chip_dumping",
        "soft_play",
        "shared_connection",
        "counter_use",
        "bot_timing",
    }

    first = Detector()
    feed(first, items[: len(items) // 2])
    stored = json.loads(json.dumps(first.state()))
    second = Detector.from_state(stored)
    feed(second, items[len(items) // 2 :])

    assert [flag.to_dict() for flag in second.flags()] == expected
    assert second.state() == one_pass.state()


def test_accumulators_fed_with_disjoint_batches_merge_into_the_one_pass_counts() -> None:
    items = [item for item in stream() if item[0] == "hand"]
    one_pass = Detector()
    feed(one_pass, items)
    left, right = Detector(), Detector()
    feed(left, items[::2])
    feed(right, items[1::2])
    left.merge(right)
    for name in ("chip_dumping", "soft_play"):
        merged = [flag.to_dict() for flag in left.flags() if flag.indicator == name]
        alone = [flag.to_dict() for flag in one_pass.flags() if flag.indicator == name]
        assert [(flag["players"], flag["score"]) for flag in merged] == [
            (flag["players"], flag["score"]) for flag in alone
        ]
    assert left.hands == one_pass.hands


def test_a_state_of_another_format_or_a_malformed_state_is_refused() -> None:
    state = Detector().state()
    with pytest.raises(StateError, match="format"):
        Detector.from_state({**state, "format": 99})
    broken = json.loads(json.dumps(state))
    broken["indicators"]["soft_play"]["pairs"] = [["ann"]]
    with pytest.raises(StateError, match="soft_play: malformed state"):
        Detector.from_state(broken)


def test_unknown_indicators_or_parameters_are_refused() -> None:
    with pytest.raises(StateError, match="unknown indicator"):
        Detector({"collusion": {}})
    with pytest.raises(StateError, match="unknown parameter 'treshold'"):
        Detector({"soft_play": {"treshold": 3}})
    with pytest.raises(StateError, match="whole number"):
        Detector({"bot_timing": {"minimum_decisions": 2.5}})
    with pytest.raises(StateError, match="must be a number"):
        Detector({"bot_timing": {"threshold": "high"}})
