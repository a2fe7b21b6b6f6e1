"""FRD-02, FRD-11, FRD-19: soft-play — a pair far less aggressive against each other than against the field."""

from __future__ import annotations

from compliance.detection.detector import Detector
from tests.compliance.hands import three_players_heads_up

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
