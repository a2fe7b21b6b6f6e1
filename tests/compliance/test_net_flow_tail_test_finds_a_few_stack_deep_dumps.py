"""FRD-14, FRD-02, FRD-19 (issue 31): net flow's tail test. A dumper who gives the partner a few stack-deep pots
leaves too few hands for the ``z`` tests (ten judged hands, a normal approximation); the tail test counts how many of
the pair's hands lost at least a threshold and judges that count exactly (binomial) against the rate at which the two
lose that much with everybody else: the loser's own losses to others and everybody's facing the winner's bets, so a
player who gives such pots to everybody, or a player to whom everybody gives them, is not flagged against one."""

from __future__ import annotations

from compliance.detection.detector import Detector
from compliance.detection.flags import Flag
from compliance.detection.net_flow import NetFlow
from compliance.detection.records import HandRecord
from compliance.detection.statistics import binomial_upper_tail
from tests.compliance.test_net_flow_removes_luck_and_flags_one_way_transfers import FIELD, blind_shoves, river_fold

FEW_SHARED = {"net_flow": {"minimum_shared_hands": 5}}
"""The pairs here share a handful of hands (the default asks for 100 before judging)."""


def net_flow_indicator(players: tuple[str, ...], hands: list[HandRecord], parameters: dict | None = None) -> NetFlow:
    """A detector fed one round of card-blind shoves between every two of ``players`` and then ``hands``."""
    detector = Detector(parameters or FEW_SHARED)
    detector.feed_hands(blind_shoves(players, 1))
    detector.feed_hands(hands)
    indicator = detector.indicators["net_flow"]
    assert isinstance(indicator, NetFlow)
    return indicator


def test_six_folds_of_the_nuts_to_one_partner_are_flagged_by_the_tail_test_before_the_z_tests_judge_the_pair() -> None:
    """Six river folds of the nuts to bob (100 big blinds given up each) and two card-blind shoves: eight judged hands,
    under the ``z`` tests' ten, and six of them in a tail that alice and bob reach with nobody else."""
    folds = [river_fold(f"fold-{number}", "alice", "bob") for number in range(6)]
    indicator = net_flow_indicator(("alice", "bob", *FIELD), folds)
    assert ("alice", "bob") not in indicator.judged_pairs()  # the z tests: not enough data
    assert ("alice", "bob") in indicator.tail_judged_pairs()
    flags: list[Flag] = indicator.flags()
    assert [flag.players for flag in flags] == [("alice", "bob")]
    flag = flags[0]
    assert flag.evidence["test"] == "tail"
    assert flag.score >= flag.threshold
    tail = flag.evidence["tail_test"]
    assert tail["threshold_big_blinds"] == 100.0
    assert tail["hands_at_or_above"] == 6
    assert tail["hands"] == flag.evidence["judged_hands"] < 10
    # The chance is the exact binomial tail at the expected rate, times the thresholds looked at (Bonferroni).
    exact = binomial_upper_tail(tail["hands"], 6, tail["expected_rate"]) * tail["thresholds_looked_at"]
    assert abs(tail["probability"] - exact) <= exact * 0.01
    assert set(flag.hands[:6]) == {f"fold-{number}" for number in range(6)}


def test_a_player_who_folds_such_pots_to_everybody_is_not_flagged_against_any_one() -> None:
    """alice folds the nuts on the river six times to each of five players: 30 such losses, but her own losses to
    everybody else are as often that large, so no one opponent is singled out."""
    opponents = ("bob", "carl", "dora", "eve", "finn")
    folds = [
        river_fold(f"fold-{opponent}-{number}", "alice", opponent) for opponent in opponents for number in range(6)
    ]
    indicator = net_flow_indicator(("alice", *opponents), folds)
    assert ("alice", "bob") in indicator.tail_judged_pairs()  # judged, with enough data, and not flagged
    tail = indicator.tail_test("alice", "bob")
    assert tail is not None
    assert tail["chance"] > 0.01
    assert indicator.flags() == []


def test_a_player_everybody_folds_such_pots_to_is_not_flagged_against_any_one() -> None:
    """Everybody folds the nuts on the river to bob's bets six times each: alice's six folds to him are what bob's
    opponents do, not a gift from alice."""
    folders = ("alice", "carl", "dora", "eve", "finn")
    folds = [river_fold(f"fold-{folder}-{number}", folder, "bob") for folder in folders for number in range(6)]
    indicator = net_flow_indicator(("bob", *folders), folds)
    tail = indicator.tail_test("alice", "bob")
    assert tail is not None
    assert tail["chance"] > 0.01
    assert indicator.flags() == []


def test_a_pair_with_fewer_judged_hands_than_the_tail_minimum_is_not_judged() -> None:
    """Two folds and the two shoves between alice and bob: four hands; asked for five, the tail test does not judge the
    pair (not enough data); asked for four, it does."""
    folds = [river_fold(f"fold-{number}", "alice", "bob") for number in range(2)]
    for minimum, judged in ((5, False), (4, True)):
        indicator = net_flow_indicator(
            ("alice", "bob", *FIELD),
            folds,
            {"net_flow": {"minimum_shared_hands": 3, "tail_minimum_judged_hands": minimum}},
        )
        assert (("alice", "bob") in indicator.tail_judged_pairs()) is judged
    assert indicator.flags() == []  # four hands with two such folds: judged, too little to flag


def test_the_tails_survive_the_state_and_a_state_without_them_counts_them_from_then_on() -> None:
    """The stored accumulator keeps the tails (the restored detector flags the same pair); one written before they
    were kept loads with none, and the tail test then judges only the hands fed afterwards."""
    folds = [river_fold(f"fold-{number}", "alice", "bob") for number in range(6)]
    detector = Detector(FEW_SHARED)
    detector.feed_hands(blind_shoves(("alice", "bob", *FIELD), 1))
    detector.feed_hands(folds)
    restored = Detector.from_state(detector.state(), FEW_SHARED)
    assert [flag.players for flag in restored.flags() if flag.indicator == "net_flow"] == [("alice", "bob")]
    state = detector.state()
    del state["indicators"]["net_flow"]["losses"]["tails"]
    older = Detector.from_state(state, FEW_SHARED)
    indicator = older.indicators["net_flow"]
    assert isinstance(indicator, NetFlow)
    assert indicator.tail_test("alice", "bob") is None
    older.feed_hands([river_fold("fold-later", "alice", "bob")])
    later = indicator.tail_test("alice", "bob")
    assert later is not None
    assert later["hands"] == 1
