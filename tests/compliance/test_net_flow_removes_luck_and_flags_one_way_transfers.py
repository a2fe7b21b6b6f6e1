"""FRD-14, FRD-02, FRD-19: net flow between two accounts with the luck removed — each heads-up decision facing the
other player's bet is judged by what it lost against the cards actually held (its equity-adjusted loss), and a pair
is flagged when one player's losses facing the other exceed what the same two lose with everybody else, in standard
deviations of their own play with the field: chips moved by luck are not a transfer, chips given away by decisions
are, whatever the cards that fell; a high-variance honest player is judged against the spread they show with
everybody; a pair with few judged hands is "not enough data"."""

from __future__ import annotations

import random

from compliance.detection.analysis import AnalysedHand
from compliance.detection.detector import Detector
from compliance.detection.flags import Flag
from compliance.detection.net_flow import NetFlow, adjusted_results, decision_losses
from compliance.detection.records import HandRecord
from compliance.detection.statistics import normal_upper_quantile, normal_upper_tail
from games.engine.cards import FULL_DECK, Card, parse_cards
from tests.compliance.hands import BIG_BLIND, SHOVE_BOARD, scripted_hand, shove_and_call

FIELD = ("carl", "dora", "eve", "finn")


def card_text(cards: list[Card]) -> str:
    return "".join(str(card) for card in cards)


def blind_shoves(players: tuple[str, ...], rounds: int, seed: int = 7) -> list[HandRecord]:
    """Background: every two of ``players`` (the pair too) shove and call each other with random cards, ``rounds``
    times each way — card-blind, high-variance honest play that gives value to everybody alike."""
    rng = random.Random(seed)
    board = set(parse_cards(SHOVE_BOARD))
    deck = [card for card in FULL_DECK if card not in board]
    records = []
    for number in range(rounds):
        for first in players:
            for second in players:
                if first == second:
                    continue
                cards = rng.sample(deck, 4)
                records.append(
                    shove_and_call(
                        f"bg-{first}-{second}-{number}", first, second, card_text(cards[:2]), card_text(cards[2:])
                    )
                )
    return records


SHORT_HISTORY = {"net_flow": {"minimum_shared_hands": 20}}
"""The pairs here share 20-odd hands (the default asks for 100 before judging)."""


def net_flow_flags(pair: tuple[str, str], hands: list[HandRecord], parameters: dict | None = None) -> list[Flag]:
    detector = Detector(parameters or SHORT_HISTORY)
    detector.feed_hands(blind_shoves(pair + FIELD, 3))
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


def test_folding_the_nuts_on_the_river_loses_the_pot_and_a_call_with_the_odds_loses_nothing() -> None:
    """FRD-14: the equity-adjusted loss of a decision: the fold of the nuts gives up the 100 big blinds in the pot
    beyond the 60 it would have cost; calling an all-in as a favourite has a negative loss (it gained)."""
    judged = decision_losses(
        AnalysedHand(river_fold("fold", "alice", "bob")), minimum_call=2.0, samples=400, exact_limit=2_000
    )
    assert [(loser, winner) for loser, winner, _loss, _pot in judged] == [("bob", "alice"), ("alice", "bob")]
    _bob, _alice, preflop_call, _preflop_pot = judged[0]
    assert preflop_call > 0.0  # seven-deuce calling 15 big blinds against ace-king
    _alice, _bob, loss, pot = judged[1]
    assert loss == 100.0  # equity 1 times (40 + 60 + 60) less the 60 the call would have cost
    assert pot == 160.0
    called = decision_losses(
        AnalysedHand(shove_and_call("flip", "alice", "bob", "7c2d", "AsAh")),
        minimum_call=2.0,
        samples=400,
        exact_limit=2_000,
    )
    by_player = {loser: loss for loser, _winner, loss, _pot in called}
    assert by_player["alice"] > 50.0  # shoving seven-deuce into aces that call: most of the 99 big blinds matched
    assert by_player["bob"] < -50.0  # the aces' call gained


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
    the loser, with the folds as its evidence."""
    folds = [river_fold(f"fold-{number}", "alice", "bob") for number in range(16)]
    flags = net_flow_flags(("alice", "bob"), folds)
    assert [flag.players for flag in flags] == [("alice", "bob")]
    flag = flags[0]
    assert flag.score >= flag.threshold
    assert flag.evidence["judged_hands"] >= 16
    assert flag.evidence["excess_losses_big_blinds"] >= 60.0
    assert flag.evidence["probability"] < 1e-4
    assert set(flag.hands[:16]) == {f"fold-{number}" for number in range(16)}  # the largest losses first
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
    assert flags[0].evidence["shared_hands"] == 2 * 3 + 16


def test_a_card_blind_caller_who_gives_value_to_everybody_is_not_flagged_against_any_one() -> None:
    """FRD-14: wild calls every all-in with seven-deuce against aces — against each of five players alike, sixteen
    times each: 80 heavy losses, but no more against one opponent than against the others (a high-variance honest
    player is judged against the spread of their own play with everybody)."""
    players = ("wild", "carl", "dora", "eve", "finn", "gus")
    calls = [
        shove_and_call(f"wild-{opponent}-{number}", opponent, "wild", "AsAh", "7c2d")
        for number in range(16)
        for opponent in players[1:]
    ]
    detector = Detector(SHORT_HISTORY)
    detector.feed_hands(blind_shoves(players, 2))
    detector.feed_hands(calls)
    indicator = detector.indicators["net_flow"]
    assert isinstance(indicator, NetFlow)
    assert ("wild", "carl") in indicator.judged_pairs()  # judged, with enough data, and not flagged
    judged = indicator.judge_losses("wild", "carl")
    assert judged is not None
    assert judged["losses"] > 1_000.0
    assert [flag for flag in detector.flags() if flag.indicator == "net_flow"] == []


def test_one_big_pot_never_flags_a_pair_however_large() -> None:
    """A single river fold of 60 big blinds is one decision against the partner: not enough data to judge."""
    assert net_flow_flags(("alice", "bob"), [river_fold("fold-once", "alice", "bob")]) == []


def test_too_few_judged_or_shared_hands_are_not_judged_and_the_state_round_trips() -> None:
    """Sixteen folds and the background's six hands with a judged decision of alice facing bob (22 in all): not
    judged when 23 such hands (by the z tests and by the tail test) or 60 shared hands are asked for ("not enough
    data"), flagged from the same state with the defaults."""
    folds = [river_fold(f"fold-{number}", "alice", "bob") for number in range(16)]
    for too_much in ({"minimum_judged_hands": 23, "tail_minimum_judged_hands": 23}, {"minimum_shared_hands": 60}):
        detector = Detector({"net_flow": {"minimum_shared_hands": 20, **too_much}})
        detector.feed_hands(blind_shoves(("alice", "bob", *FIELD), 3))
        detector.feed_hands(folds)
        indicator = detector.indicators["net_flow"]
        assert isinstance(indicator, NetFlow)
        assert ("alice", "bob") not in indicator.judged_pairs()
        assert ("alice", "bob") not in indicator.tail_judged_pairs()
        assert [flag for flag in detector.flags() if flag.indicator == "net_flow"] == []
    restored = Detector.from_state(detector.state(), SHORT_HISTORY)
    assert [flag.players for flag in restored.flags() if flag.indicator == "net_flow"] == [("alice", "bob")]


def test_a_state_from_before_the_losses_were_kept_reads_as_none_kept() -> None:
    """A stored accumulator without the losses (written before they were kept) still loads: they count from then on."""
    detector = Detector(SHORT_HISTORY)
    detector.feed_hands([river_fold("fold", "alice", "bob")])
    state = detector.state()
    del state["indicators"]["net_flow"]["losses"]
    restored = Detector.from_state(state, SHORT_HISTORY)
    indicator = restored.indicators["net_flow"]
    assert isinstance(indicator, NetFlow)
    assert indicator.judge_losses("alice", "bob") is None
    assert indicator.shared_hands("alice", "bob") == 1


def test_the_bar_in_standard_deviations_is_the_normal_quantile_of_the_multiple_testing_chance() -> None:
    """FRD-19: net flow's bar is the ``z`` whose normal tail is the multiple-testing chance per pair."""
    for chance in (0.5, 0.025, 1e-4, 1e-9):
        assert abs(normal_upper_tail(normal_upper_quantile(chance)) - chance) < chance * 1e-9
    assert abs(normal_upper_quantile(0.025) - 1.959964) < 1e-5
    assert NetFlow().flagging_threshold([]) == 3.0  # nothing judged: the floor
