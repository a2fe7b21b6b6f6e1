"""FRD-19: the neutral hand record of an engine hand, the context of each decision (what was faced, the one opponent
it was aimed at), the chips moved between players, and the all-in equity per street for the review replayer."""

from __future__ import annotations

import random

import pytest

from compliance.detection.analysis import AnalysedHand, street_equities
from compliance.detection.records import HandRecord, RecordError, record_from_state
from games.engine.cards import parse_cards
from games.engine.state import HandState
from tests.compliance.hands import configuration, scripted_hand

PLAYERS = {1: "ann", 2: "bea", 3: "cid"}


def three_way() -> HandRecord:
    # Seat 3 is the button: ann posts 5, bea 10; cid raises, ann calls, bea folds; ann bets the flop, cid raises
    # all-in, ann calls; the board runs out.
    return scripted_hand(
        "h1",
        PLAYERS,
        hole={1: "KsKd", 2: "7c2d", 3: "AhQh"},
        board="Qs8h3c2h9d",
        button=3,
        actions=[(3, "raise", 30), (1, "call"), (2, "fold"), (1, "bet", 40), (3, "all_in"), (1, "call")],
        decision_ms=[1200, 3400, 800, 2000, 9000, 15000],
        started_at=1_772_452_800.0,
    )


def test_the_record_carries_players_blinds_actions_board_pots_and_results() -> None:
    record = three_way()
    assert [(seat.seat, seat.player, seat.start_stack) for seat in record.seats] == [
        (1, "ann", 1000),
        (2, "bea", 1000),
        (3, "cid", 1000),
    ]
    assert [(bet.seat, bet.kind, bet.amount) for bet in record.forced_bets] == [
        (1, "small_blind", 5),
        (2, "big_blind", 10),
    ]
    assert [(action.street, action.seat, action.kind, action.amount, action.all_in) for action in record.actions] == [
        ("preflop", 3, "raise", 30, False),
        ("preflop", 1, "call", 25, False),
        ("preflop", 2, "fold", 0, False),
        ("flop", 1, "bet", 40, False),
        ("flop", 3, "raise", 970, True),
        ("flop", 1, "call", 930, True),
    ]
    assert [action.decision_ms for action in record.actions] == [1200, 3400, 800, 2000, 9000, 15000]
    assert record.board == parse_cards("Qs8h3c2h9d")
    assert record.showdown
    assert {seat.player: seat.net for seat in record.seats} == {"ann": 1010, "bea": -10, "cid": -1000}
    assert [(pot.amount, pot.winners) for pot in record.pots] == [(2010, (1,))]


def test_each_decision_knows_what_it_faced_and_whom_it_was_aimed_at() -> None:
    hand = AnalysedHand(three_way())
    raise_, call, fold, bet, shove, call_off = hand.decisions
    assert (raise_.to_call, raise_.pot_before, raise_.aggressor, raise_.opponent) == (10, 15, None, None)
    assert (call.to_call, call.aggressor, call.opponent, call.invested_before) == (25, 3, 3, 5)
    assert (fold.to_call, fold.opponent) == (20, 3)
    assert (bet.facing_bet, bet.live_before, bet.opponent) == (False, (1, 3), 3)  # heads-up: aimed at cid
    assert (shove.to_call, shove.aggressor, shove.opponent) == (40, 1, 1)
    assert (call_off.to_call, call_off.stack_before, call_off.all_in_before) == (930, 930, (3,))
    assert hand.transfers == {("bea", "ann"): 10.0, ("cid", "ann"): 1000.0}


def test_street_equities_show_each_players_chances_as_the_board_came() -> None:
    streets = street_equities(AnalysedHand(three_way()), samples=2_000)
    assert [(item.street, item.seats) for item in streets] == [
        ("preflop", (1, 2, 3)),
        ("flop", (1, 3)),
        ("turn", (1, 3)),
        ("river", (1, 3)),
    ]
    flop = streets[1].result
    assert flop.exact
    assert flop.players[0].equity > 0.75  # kings against a pair of queens with a backdoor flush draw
    assert streets[3].result.equities == (1.0, 0.0)


def test_a_record_needs_a_finished_hand_and_a_name_for_every_seat() -> None:
    state = HandState.create(configuration(PLAYERS, 1000, 3), shuffler=random.Random(1))
    with pytest.raises(RecordError, match="not over"):
        record_from_state(state, hand_id="h2", players=PLAYERS)
    with pytest.raises(RecordError, match="a player is dealt in twice"):
        scripted_hand("h3", {1: "ann", 2: "ann"}, hole={}, actions=[(1, "fold")], button=1)
