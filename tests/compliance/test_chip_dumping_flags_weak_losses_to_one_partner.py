"""FRD-14, FRD-02, FRD-19: chip dumping — repeated weak losses to the same opponent are flagged, coolers are not."""

from __future__ import annotations

import math
from typing import Any

from compliance.detection.detector import Detector
from compliance.detection.flags import Flag
from compliance.detection.records import HandRecord
from tests.compliance.hands import honest_all_ins, raise_and_fold, shove_and_call


def chip_dumping_flags(hands: list[HandRecord], parameters: dict[str, Any] | None = None) -> list[Flag]:
    """The chip-dumping flags after honest all-ins and folds between eight regulars (the field), then ``hands``."""
    detector = Detector({"chip_dumping": parameters or {}})
    detector.feed_hands(honest_all_ins(40))
    detector.feed_hands(hands)
    return [flag for flag in detector.flags() if flag.indicator == "chip_dumping"]


def test_a_player_who_shoves_junk_into_the_same_partners_big_hands_is_flagged_as_the_loser() -> None:
    flags = chip_dumping_flags([shove_and_call(f"dump-{number}", "dee", "rob", "7c2d", "AsAh") for number in range(3)])
    assert [flag.players for flag in flags] == [("dee", "rob")]
    flag = flags[0]
    # The bar: 3, or higher for the pairs judged (issue 31): one ordered pair among two players, 0.0001 chance flags
    # per player.
    assert flag.score >= flag.threshold == round(max(3.0, math.log10(1 / (0.0001 * 2))), 3)
    assert flag.hands == ("dump-0", "dump-1", "dump-2")
    assert flag.evidence["weak_commitments"] == 3
    assert flag.evidence["weak_transfer_big_blinds"] == 300.0
    detail = flag.evidence["weak_decisions"][0]
    assert detail["decision"] == "raise"
    assert detail["street"] == "preflop"
    assert detail["equity"] < 0.3
    assert detail["holding"] < 0.5
    assert "FRD-14" in flag.requirements


def test_coolers_between_honest_players_are_not_flagged() -> None:
    """Kings all-in against aces three times: little equity, but a strong holding (an honest cooler)."""
    coolers = [shove_and_call(f"cooler-{number}", "kim", "lee", "KdKc", "AhAd") for number in range(3)]
    assert chip_dumping_flags(coolers) == []


def test_folding_the_best_hand_to_the_same_partner_again_and_again_is_flagged() -> None:
    flags = chip_dumping_flags([raise_and_fold(f"fold-{number}", "dee", "rob", "AsAh", "7c2d") for number in range(5)])
    assert [flag.players for flag in flags] == [("dee", "rob")]
    assert flags[0].evidence["weak_folds"] == 5
    assert flags[0].evidence["weak_transfer_big_blinds"] == 175.0


def test_too_few_weak_decisions_or_too_little_money_are_not_flagged() -> None:
    dumps = [shove_and_call(f"dump-{number}", "dee", "rob", "7c2d", "AsAh") for number in range(3)]
    assert chip_dumping_flags(dumps[:2]) == []  # two weak decisions: fewer than minimum_weak_decisions
    assert chip_dumping_flags(dumps, {"minimum_transfer_big_blinds": 350.0}) == []
