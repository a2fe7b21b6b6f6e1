"""FRD-02, FRD-11, FRD-19: soft-play — a pair far less aggressive against each other than against the field, judged
with a binomial test and a confidence bound on the effect."""

from __future__ import annotations

import random

from compliance.detection.detector import Detector
from compliance.detection.records import HandRecord
from compliance.detection.soft_play import SoftPlay
from games.engine.actions import Action, Bet, Call, Check, LegalActions, RaiseTo
from games.engine.state import HandState, Street
from tests.compliance.hands import policy_hand, three_players_heads_up

PAIR = ("ann", "bea")


def test_a_pair_that_only_checks_and_calls_against_each_other_is_flagged() -> None:
    detector = Detector()
    detector.feed_hands(three_players_heads_up(60, set(PAIR)))
    flags = [flag for flag in detector.flags() if flag.indicator == "soft_play"]
    assert [flag.players for flag in flags] == [PAIR]
    flag = flags[0]
    assert flag.score >= flag.threshold
    assert flag.evidence["aggressive_decisions"] == 0
    assert flag.evidence["aggression_ratio"] == 0.0
    assert flag.evidence["decisions"] >= 40
    for direction in flag.evidence["by_player"]:
        assert direction["aggression_against_partner"] == 0.0
        assert direction["aggression_against_field"] > 0.3
    assert all(hand.startswith("ab-") for hand in flag.hands)
    assert "FRD-02" in flag.requirements


def test_players_as_aggressive_against_each_other_as_against_the_field_are_not_flagged() -> None:
    detector = Detector()
    detector.feed_hands(three_players_heads_up(60, set()))
    assert [flag for flag in detector.flags() if flag.indicator == "soft_play"] == []


def heads_up_at_rates(hand_id: str, first: str, second: str, seed: int, aggression: float) -> HandRecord:
    """Two players who bet or raise with probability ``aggression`` when they may, else check or call."""
    rng = random.Random(f"{hand_id}:{seed}")

    def policy(state: HandState, legal: LegalActions) -> Action:
        seat = legal.seat
        if rng.random() < aggression:
            if legal.bet_range is not None:
                return Bet(seat, legal.bet_range[0])
            if legal.raise_range is not None and state.street is Street.PREFLOP:
                return RaiseTo(seat, legal.raise_range[0])
        return Call(seat) if legal.call_amount is not None else Check(seat)

    return policy_hand(hand_id, {1: first, 2: second}, policy, seed=seed, button=1 + seed % 2)


def pair_and_field(count: int, pair_aggression: float) -> list[HandRecord]:
    """``count`` hands each of ann-bea (at ``pair_aggression``) and ann-cid, bea-cid (at 0.6)."""
    records = []
    for number in range(count):
        records.append(heads_up_at_rates(f"ab-{number}", "ann", "bea", number, pair_aggression))
        records.append(heads_up_at_rates(f"ac-{number}", "ann", "cid", number, 0.6))
        records.append(heads_up_at_rates(f"bc-{number}", "bea", "cid", number, 0.6))
    return records


def soft_play(records: list[HandRecord]) -> SoftPlay:
    detector = Detector()
    detector.feed_hands(records)
    indicator = detector.indicators["soft_play"]
    assert isinstance(indicator, SoftPlay)
    return indicator


def test_a_pair_with_too_few_decisions_together_is_not_enough_data_not_honest() -> None:
    """Zero aggression in two hands: no flag, and the verdict says the data is too thin to judge."""
    records = pair_and_field(200, 0.6)
    field_only = [record for record in records if not record.hand_id.startswith("ab-")]
    indicator = soft_play([*field_only, *pair_and_field(2, 0.0)[0::3]])
    judged = indicator.judge("ann", "bea")
    assert judged is not None
    assert judged["observed"] == 0 < judged["decisions"]
    assert indicator.flags() == []
    assert indicator.verdict("ann", "bea") == "not enough data"
    assert indicator.verdict("ann", "cid") == "no finding"


def test_many_hands_with_a_tiny_effect_are_not_flagged_however_small_the_chance() -> None:
    """Aggression 0.5 against each other, 0.6 against the field, over 1,500 hands: the binomial test alone would flag
    (one in a million or less), but the upper confidence bound of the ratio is above ``maximum_ratio``."""
    indicator = soft_play(pair_and_field(1_500, 0.5))
    judged = indicator.judge("ann", "bea")
    assert judged is not None
    assert judged["score"] >= indicator.parameters.threshold
    assert judged["ratio_interval"][1] > indicator.parameters.maximum_ratio
    assert indicator.flags() == []
    assert indicator.verdict("ann", "bea") == "no finding"


def test_a_large_effect_with_enough_hands_is_flagged_with_its_interval() -> None:
    """Aggression 0.1 against each other, 0.6 against the field (FRD-02)."""
    indicator = soft_play(pair_and_field(150, 0.1))
    flags = indicator.flags()
    assert [flag.players for flag in flags] == [PAIR]
    low, high = flags[0].evidence["aggression_ratio_interval"]
    assert low <= flags[0].evidence["aggression_ratio"] <= high <= indicator.parameters.maximum_ratio
    assert flags[0].evidence["probability"] <= 1e-6
    assert flags[0].severity == min(100.0, 10 * flags[0].score)
    assert indicator.verdict("ann", "bea") == "flagged"
