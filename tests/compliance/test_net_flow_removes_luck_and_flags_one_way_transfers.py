"""FRD-14, FRD-02, FRD-19: net flow between two accounts with the all-in luck removed — a pair whose chips move one way
by luck is not flagged, a pair whose chips move one way by decisions is, whatever the cards that fell."""

from __future__ import annotations

from compliance.detection.analysis import AnalysedHand
from compliance.detection.detector import Detector
from compliance.detection.flags import Flag
from compliance.detection.net_flow import NetFlow, adjusted_results
from compliance.detection.records import HandRecord
from tests.compliance.hands import BIG_BLIND, heads_up, scripted_hand, shove_and_call

FIELD = ("carl", "dora", "eve", "finn")


def background(players: tuple[str, ...], rounds: int = 30) -> list[HandRecord]:
    """Heads-up hands between every two of ``players`` and the field (the pair plays each other too)."""
    records = []
    everybody = players + FIELD
    for number in range(rounds):
        for first_index, first in enumerate(everybody):
            for second in everybody[first_index + 1 :]:
                records.append(heads_up(f"bg-{first}-{second}-{number}", first, second, number, set()))
    return records


SHORT_HISTORY = {"net_flow": {"minimum_shared_hands": 30}}
"""The pairs here share 30-odd hands (the default asks for 200 before judging)."""


def net_flow_flags(pair: tuple[str, str], hands: list[HandRecord]) -> list[Flag]:
    detector = Detector(SHORT_HISTORY)
    detector.feed_hands(background(pair))
    detector.feed_hands(hands)
    return [flag for flag in detector.flags() if flag.indicator == "net_flow"]


def river_fold(hand_id: str, folder: str, bettor: str) -> HandRecord:
    """Heads-up: both check to the river with the folder holding the nuts; the bettor bets 60 big blinds into a pot of
    40 and the folder folds (a decision, not luck: nothing is left to deal)."""
    return scripted_hand(
        hand_id,
        {1: folder, 2: bettor},
        hole={1: "AhKh", 2: "7c2d"},
        board="QhJhTh3s4c",
        button=1,
        actions=[(1, "raise", 200), (2, "call"), *[(2, "check"), (1, "check")] * 2, (2, "bet", 600), (1, "fold")],
    )


def test_a_run_of_lucky_suckouts_in_coin_flips_is_not_a_transfer() -> None:
    """Ace-king against a pair of twos all-in preflop sixteen times, the twos winning every time: 1,600 big blinds moved
    from alice to bob, but at the all-in moment each had about half the pot."""
    suckouts = [shove_and_call(f"flip-{number}", "alice", "bob", "AsKs", "2c2d") for number in range(16)]
    results, adjusted = adjusted_results(AnalysedHand(suckouts[0]), samples=400, exact_limit=2_000)
    assert adjusted
    assert suckouts[0].seat_of(1).net == -100 * BIG_BLIND
    assert abs(results[1]) < 10 * BIG_BLIND  # about a coin flip: the 100 big blinds lost are mostly luck
    assert net_flow_flags(("alice", "bob"), suckouts) == []


def test_the_same_money_given_up_by_folding_the_best_hand_on_the_river_is_flagged() -> None:
    """Sixteen such folds: the flow the coin flips made by luck, made by decisions: a pair is flagged, the folder as
    the loser."""
    folds = [river_fold(f"fold-{number}", "alice", "bob") for number in range(16)]
    flags = net_flow_flags(("alice", "bob"), folds)
    assert [flag.players for flag in flags] == [("alice", "bob")]
    flag = flags[0]
    assert flag.score >= flag.threshold
    assert flag.evidence["persistence"] >= 3.5
    assert flag.evidence["excess_flow_big_blinds"] >= 60.0
    assert set(flag.hands[:16]) == {f"fold-{number}" for number in range(16)}  # the largest transfers first
    assert 0.0 < flag.severity <= 100.0
    assert "FRD-14" in flag.requirements


def test_calling_off_with_junk_into_one_partner_is_flagged_even_when_the_junk_sometimes_wins() -> None:
    """Seven-deuce calls aces' all-in sixteen times: the caller's equity, not the board, says what moved."""
    dumps = [shove_and_call(f"dump-{number}", "rob", "dee", "AsAh", "7c2d") for number in range(15)]
    lucky = scripted_hand(
        "dump-lucky",
        {1: "rob", 2: "dee"},
        hole={1: "AsAh", 2: "7c2d"},
        board="7h2s9dJc3c",
        button=1,
        actions=[(1, "all_in"), (2, "call")],
    )
    assert lucky.seat_of(2).net > 0  # dee won this one
    flags = net_flow_flags(("dee", "rob"), [*dumps, lucky])
    assert [flag.players for flag in flags] == [("dee", "rob")]
    assert flags[0].evidence["shared_hands"] == 30 + 16


def test_one_big_pot_never_flags_a_pair_however_large() -> None:
    """A single river fold of 60 big blinds is one transfer: its persistence is 1."""
    assert net_flow_flags(("alice", "bob"), [river_fold("fold-once", "alice", "bob")]) == []


def test_too_few_shared_hands_are_not_judged_and_the_state_round_trips() -> None:
    """46 shared hands: not judged when 47 are asked for, flagged from the same state when 30 are."""
    folds = [river_fold(f"fold-{number}", "alice", "bob") for number in range(16)]
    detector = Detector({"net_flow": {"minimum_shared_hands": 47}})
    detector.feed_hands(background(("alice", "bob")))
    detector.feed_hands(folds)
    assert [flag for flag in detector.flags() if flag.indicator == "net_flow"] == []
    restored = Detector.from_state(detector.state(), SHORT_HISTORY)
    indicator = restored.indicators["net_flow"]
    assert isinstance(indicator, NetFlow)
    assert [flag.players for flag in restored.flags() if flag.indicator == "net_flow"] == [("alice", "bob")]
