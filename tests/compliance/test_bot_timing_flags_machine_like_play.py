"""FRD-07, FRD-06, FRD-19: bot-like timing — decisions too regular or too fast, sessions too long."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from compliance.detection.detector import Detector
from compliance.detection.records import HandRecord
from games.engine.actions import Action, Call, Check, LegalActions
from games.engine.state import HandState
from tests.compliance.hands import START, policy_hand


def check_or_call(state: HandState, legal: LegalActions) -> Action:
    return Call(legal.seat) if legal.call_amount is not None else Check(legal.seat)


def hands_with_timing(
    count: int, player_ms: Callable[[random.Random], int], *, minutes_apart: float = 1.0, start: float = START
) -> list[HandRecord]:
    """``count`` heads-up hands of "subject" against "human" (log-normal times around 3 s); the subject's decision
    times come from ``player_ms``."""
    rng = random.Random(7)

    def timing(state: HandState, legal: LegalActions) -> int:
        if legal.seat == 1:
            return player_ms(rng)
        return round(3000 * math.exp(rng.gauss(0.0, 0.8)))

    return [
        policy_hand(
            f"hand-{number}",
            {1: "subject", 2: "human"},
            check_or_call,
            seed=number,
            button=1 + number % 2,
            timing=timing,
            started_at=start + number * minutes_apart * 60,
        )
        for number in range(count)
    ]


def bot_flags(records: list[HandRecord]) -> dict[str, dict[str, object]]:
    detector = Detector()
    detector.feed_hands(records)
    return {flag.players[0]: dict(flag.evidence) for flag in detector.flags() if flag.indicator == "bot_timing"}


def test_a_nearly_fixed_delay_is_flagged_as_too_regular_and_the_human_opponent_is_not() -> None:
    flags = bot_flags(hands_with_timing(120, lambda rng: round(1500 * math.exp(rng.gauss(0.0, 0.05)))))
    assert set(flags) == {"subject"}
    evidence = flags["subject"]
    assert evidence["timed_decisions"] >= 200
    assert evidence["decision_log_stdev"] < 0.1
    assert 1400 <= evidence["decision_median_ms"] <= 1600
    assert evidence["components"]["regularity"] > 1  # type: ignore[index]


def test_machine_fast_reactions_are_flagged_as_too_fast() -> None:
    flags = bot_flags(hands_with_timing(120, lambda rng: round(400 * math.exp(rng.gauss(0.0, 0.6)))))
    assert set(flags) == {"subject"}
    assert flags["subject"]["components"]["speed"] > 1  # type: ignore[index]
    assert flags["subject"]["components"]["regularity"] < 1  # type: ignore[index]


def test_a_session_of_eleven_hours_without_a_pause_is_flagged_even_with_human_timing() -> None:
    flags = bot_flags(
        hands_with_timing(120, lambda rng: round(2500 * math.exp(rng.gauss(0.0, 0.7))), minutes_apart=5.6)
    )
    assert set(flags) == {"subject", "human"}  # both sat there for 11 hours
    assert flags["subject"]["longest_session_hours"] >= 11
    assert flags["subject"]["components"]["session_length"] > 1  # type: ignore[index]


def test_human_timing_in_normal_sessions_is_not_flagged() -> None:
    records = hands_with_timing(120, lambda rng: round(2500 * math.exp(rng.gauss(0.0, 0.7))))
    later = hands_with_timing(120, lambda rng: round(2500 * math.exp(rng.gauss(0.0, 0.7))), start=START + 86_400)
    assert bot_flags(records + later) == {}


def test_few_timed_decisions_are_not_judged() -> None:
    flags = bot_flags(hands_with_timing(20, lambda rng: 1500))
    assert flags == {}
