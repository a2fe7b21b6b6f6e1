"""FRD-19, FRD-14, FRD-02, issue 31: betting pressure — one player who bets into one opponent after the flop far more
than he bets into everybody else and than everybody else bets into that opponent (a receiver betting into the dumper
who pays or folds) — judged by exact conditional tests, and pooled into the dumping test of the pair's evidence."""

from __future__ import annotations

import random

from compliance.detection.analysis import AnalysedHand
from compliance.detection.detector import Detector
from compliance.detection.pair_evidence import PairEvidence
from compliance.detection.records import HandRecord
from compliance.detection.soft_play import SoftPlay
from compliance.detection.statistics import hypergeometric_sum_upper_tail
from games.engine.actions import Action, Bet, Call, Check, LegalActions, RaiseTo
from games.engine.state import HandState, Street
from tests.compliance.hands import BIG_BLIND, policy_hand

FIELD = ("ann", "bea", "cid", "dan")
BET = 6 * BIG_BLIND


def heads_up(hand_id: str, first: str, second: str, seed: int, rates: dict[tuple[str, str], float]) -> HandRecord:
    """Both players limp and check or call; after the flop each bets 6 big blinds when he may with his rate against
    that opponent (``rates[(actor, opponent)]``, 0.3 when not given)."""
    rng = random.Random(f"{hand_id}:{seed}")
    names = {1: first, 2: second}

    def policy(state: HandState, legal: LegalActions) -> Action:
        seat = legal.seat
        actor, opponent = names[seat], names[3 - seat]
        may_bet = legal.bet_range is not None and state.street is not Street.PREFLOP
        if may_bet and rng.random() < rates.get((actor, opponent), 0.3):
            assert legal.bet_range is not None
            return Bet(seat, max(legal.bet_range[0], min(BET, legal.bet_range[1])))
        return Call(seat) if legal.call_amount is not None else Check(seat)

    return policy_hand(hand_id, names, policy, seed=seed, button=1 + seed % 2)


def room(hands_per_pair: int, rates: dict[tuple[str, str], float], players: tuple[str, ...]) -> list[HandRecord]:
    """``hands_per_pair`` heads-up hands of every pair of ``players``."""
    records = []
    for number in range(hands_per_pair):
        for index, first in enumerate(players):
            for second in players[index + 1 :]:
                records.append(heads_up(f"{first}-{second}-{number}", first, second, number, rates))
    return records


def pressure_of(records: list[HandRecord]) -> dict[tuple[str, str], dict]:
    soft = SoftPlay()
    for record in records:
        soft.feed_hand(AnalysedHand(record))
    return soft.pressure(minimum_decisions=10)


def test_one_strata_is_fishers_exact_test() -> None:
    """Three of four against one of four (the lady tasting tea): P = 17/70 of three or more."""
    assert abs(hypergeometric_sum_upper_tail([(3, 4, 1, 4)], 3) - 17 / 70) < 1e-12
    assert hypergeometric_sum_upper_tail([(3, 4, 1, 4)], 0) == 1.0
    assert hypergeometric_sum_upper_tail([(3, 4, 1, 4)], 5) == 0.0


def test_strata_are_convolved_exactly() -> None:
    """Two strata against the enumeration of every table with the same margins."""
    from math import comb

    strata = [(4, 6, 2, 9), (3, 5, 4, 12)]
    distributions = []
    for first_successes, first_trials, second_successes, second_trials in strata:
        total = first_successes + second_successes
        all_ways = comb(first_trials + second_trials, total)
        distributions.append(
            {k: comb(first_trials, k) * comb(second_trials, total - k) / all_ways for k in range(0, total + 1)}
        )
    exact = sum(
        left * right for k, left in distributions[0].items() for j, right in distributions[1].items() if k + j >= 7
    )
    assert abs(hypergeometric_sum_upper_tail(strata, 7) - exact) < 1e-12


def test_a_rate_measured_on_few_decisions_is_no_yardstick() -> None:
    """Twenty bets in twenty decisions against one opponent, one in four against the others: one in four is a poor
    estimate of the bettor's rate, so the chance (all 21 bets among the first 20 of 24 decisions: 4 of the 2,024
    ways) is far larger than a binomial at 1/4 says (9e-13)."""
    assert abs(hypergeometric_sum_upper_tail([(20, 20, 1, 4)], 20) - 4 / 2024) < 1e-12


def test_a_player_who_bets_into_one_opponent_every_time_is_singled_out() -> None:
    rates = {("rex", "dom"): 1.0}
    found = pressure_of(room(30, rates, (*FIELD, "rex", "dom")))
    singled = found[("dom", "rex")]
    assert singled["decisions"] >= 30
    # He bets whenever he may; facing the dumper's bets (a third of his decisions at most) he calls.
    assert singled["aggressive"] >= 0.66 * singled["decisions"]
    assert singled["chance"] < 1e-8
    assert singled["large_effect"] is True
    assert singled["bettor_against_others"] < 0.5
    assert singled["others_against_target"] < 0.5
    # Nobody else is singled out (a few chances of a hundredth among thirty ordered pairs are chance).
    others = [figures["chance"] for key, figures in found.items() if key != ("dom", "rex")]
    assert len(others) >= 25
    assert min(others) > 1e-4


def test_an_opponent_everybody_bets_into_is_not_a_target() -> None:
    """A calling station everybody bets into: the bettor who bets into him as much as everybody does is not singled
    out, though he bets into him far more than into the others."""
    rates = {(player, "sam"): 0.95 for player in FIELD}
    found = pressure_of(room(30, rates, (*FIELD, "sam")))
    figures = found[("sam", "ann")]
    assert figures["aggressive"] > 2 * figures["bettor_against_others"] * figures["decisions"]
    assert figures["chance"] > 0.01


def test_a_player_who_bets_into_everybody_is_not_singled_out() -> None:
    rates = {("max", player): 0.95 for player in FIELD}
    found = pressure_of(room(30, rates, (*FIELD, "max")))
    assert min(found[(player, "max")]["chance"] for player in FIELD) > 0.01


def test_pooled_evidence_judges_the_receivers_pressure_with_the_dumpers_losses() -> None:
    """The pair's dumping test in the direction dumper -> receiver carries betting pressure's chance with chip
    dumping's, and flags the pair; honest players are in no flag."""
    detector = Detector()
    detector.feed_hands(room(30, {("rex", "dom"): 1.0}, (*FIELD, "rex", "dom")))
    pooled = [flag for flag in detector.flags() if flag.indicator == "pair_evidence"]
    assert [flag.players for flag in pooled] == [("dom", "rex")]
    [flag] = pooled
    assert flag.evidence["behaviour"] == "dumping"
    assert set(flag.evidence["chances"]) >= {"betting_pressure", "chip_dumping"}
    assert flag.evidence["chances"]["betting_pressure"] < 1e-8
    assert flag.score >= flag.threshold
    assert not {player for flag in detector.flags() for player in flag.players} & set(FIELD)


def test_an_honest_room_has_no_pooled_dumping_flag() -> None:
    detector = Detector()
    detector.feed_hands(room(30, {}, (*FIELD, "rex", "dom")))
    assert [flag for flag in detector.flags() if flag.indicator == "pair_evidence"] == []


def three_handed(hand_id: str, seed: int) -> HandRecord:
    """Ann, bea and max limp; after the flop ann bets whenever nobody has, max raises her every time, bea calls."""
    names = {1: "ann", 2: "bea", 3: "max"}

    def policy(state: HandState, legal: LegalActions) -> Action:
        seat = legal.seat
        if state.street is not Street.PREFLOP:
            if names[seat] == "ann" and legal.bet_range is not None:
                return Bet(seat, legal.bet_range[0])
            if names[seat] == "max" and legal.raise_range is not None and legal.call_amount:
                return RaiseTo(seat, legal.raise_range[0])
        return Call(seat) if legal.call_amount is not None else Check(seat)

    return policy_hand(hand_id, names, policy, seed=seed, button=1 + seed % 3)


def test_raises_into_a_third_players_bets_in_multiway_pots_are_not_pressure() -> None:
    """Colluders raise a third player's bets when the partner has called (a squeeze): that is collusion against the
    third player, judged by soft play and giving way, not a partner's pressure on him. Only heads-up decisions
    count."""
    soft = SoftPlay()
    for number in range(40):
        soft.feed_hand(AnalysedHand(three_handed(f"multi-{number}", number)))
    judged = soft.judge("ann", "max")
    assert judged is not None
    assert judged["observed"] >= 40  # soft play counts max's raises, aimed at ann
    assert soft.pressure(minimum_decisions=1) == {}


def test_a_state_from_before_pressure_was_counted_reads_as_none() -> None:
    records = room(20, {("rex", "dom"): 1.0}, ("ann", "rex", "dom"))
    soft = SoftPlay()
    for record in records:
        soft.feed_hand(AnalysedHand(record))
    state = soft.state()
    assert state["pressure"]["pairs"]
    older = {name: value for name, value in state.items() if name != "pressure"}
    loaded = SoftPlay()
    loaded.load_state(older)
    assert loaded.pressure(minimum_decisions=1) == {}
    assert loaded.judge("rex", "dom") == soft.judge("rex", "dom")
    again = SoftPlay()
    again.load_state(state)
    assert again.pressure(minimum_decisions=10) == soft.pressure(minimum_decisions=10)


def test_a_small_effect_over_many_decisions_is_no_evidence() -> None:
    """Rex bets into dom 45 % of the time and into everybody else 30 %: over hundreds of decisions the chance is tiny,
    but players bet into different opponents a little differently for reasons of their own; the effect is too small
    to be pressure, and the pooled dumping test leaves it out (the direction still counts in the bar)."""
    records = room(150, {("rex", "dom"): 0.45}, ("ann", "bea", "rex", "dom"))
    found = pressure_of(records)
    figures = found[("dom", "rex")]
    assert figures["decisions"] >= 300
    assert figures["chance"] < 1e-4
    assert figures["large_effect"] is False
    assert found[("dom", "ann")]["large_effect"] is False
    detector = Detector()
    detector.feed_hands(records)
    pooled = detector.indicators["pair_evidence"]
    assert isinstance(pooled, PairEvidence)
    tests = pooled.tests()[("dom", "rex")]
    assert tests["dumping:dom>rex"][0] > 1e-3
    assert "betting_pressure" not in tests["dumping:dom>rex"][1]
    assert [flag for flag in detector.flags() if flag.indicator == "pair_evidence"] == []
