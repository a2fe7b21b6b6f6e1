"""A whole round for several players: betting, dealing, phases, settlement and cancellation (UTH-02..UTH-08,
UTH-36..UTH-38, AMB-37, AMB-38)."""

from __future__ import annotations

import random

import pytest

from games.engine.cards import FULL_DECK, parse_cards, shuffled_deck
from games.engine.uth.betting import BetLimits, BetRejected
from games.engine.uth.round import Decision, IllegalDecision, Phase, RoundError, RoundState
from games.engine.uth.settlement import BetSpot, ResultRow

LIMITS = BetLimits(ante_minimum=100, ante_maximum=10_000, trips_minimum=100, trips_maximum=2_500)
ALICE, BOB, CAROL = 1, 2, 3


def rigged_deck(first_nine: str) -> tuple:
    """A full deck whose first nine cards are given: player, player, dealer, dealer, five community cards."""
    top = parse_cards(first_nine)
    return top + tuple(card for card in FULL_DECK if card not in top)


def betting_round() -> RoundState:
    state = RoundState()
    state, _ = state.place_chip(ALICE, BetSpot.ANTE, 1_000, LIMITS)
    state, _ = state.place_chip(ALICE, BetSpot.TRIPS, 500, LIMITS)
    state, _ = state.place_chip(BOB, BetSpot.ANTE, 200, LIMITS)
    state, _ = state.place_chip(CAROL, BetSpot.ANTE, 400, LIMITS)
    return state


def test_uth_08_amb_38_the_deal_takes_common_player_cards_dealer_cards_then_the_board_from_one_deck() -> None:
    deck = shuffled_deck(random.Random(3))
    state = betting_round().close_betting(deck)
    assert state.cards is not None
    assert state.cards.player == deck[0:2]
    assert state.cards.dealer == deck[2:4]
    assert state.cards.community == deck[4:9]
    assert state.cards.community_visible_in(Phase.PREFLOP) == ()
    assert state.cards.community_visible_in(Phase.FLOP) == deck[4:7]
    assert state.cards.community_visible_in(Phase.RIVER) == deck[4:9]
    assert set(state.hands) == {ALICE, BOB, CAROL}
    assert (state.hands[ALICE].ante, state.hands[ALICE].trips) == (1_000, 500)


def test_uth_04_a_round_needs_one_full_deck() -> None:
    with pytest.raises(RoundError, match="52-card deck"):
        betting_round().close_betting(FULL_DECK[:51])
    with pytest.raises(RoundError, match="52-card deck"):
        betting_round().close_betting((FULL_DECK[0],) * 52)


def test_uth_07_no_bet_or_bet_change_is_accepted_once_betting_has_closed() -> None:
    state = betting_round().close_betting(shuffled_deck(random.Random(1)))
    with pytest.raises(BetRejected, match="Betting is closed"):
        state.place_chip(ALICE, BetSpot.ANTE, 100, LIMITS)
    with pytest.raises(BetRejected, match="Betting is closed"):
        state.undo(ALICE)
    with pytest.raises(BetRejected, match="Betting is closed"):
        state.double(ALICE, LIMITS)


def test_a_round_without_bets_is_not_dealt() -> None:
    with pytest.raises(RoundError, match="nobody has placed a bet"):
        RoundState().close_betting(shuffled_deck(random.Random(1)))


def test_a_player_without_bets_in_the_round_cannot_decide() -> None:
    state = betting_round().close_betting(shuffled_deck(random.Random(1)))
    with pytest.raises(IllegalDecision, match="no bets in this round"):
        state.decide(99, Decision.CHECK)


def test_uth_02_to_12_three_players_decide_independently_and_everyone_pending_is_timed_out() -> None:
    # Player cards Ah 9h, dealer Kc Kd, board 2h 5h Jh 7c 3s: the player makes a flush, the dealer a pair of kings.
    state = betting_round().close_betting(rigged_deck("Ah 9h Kc Kd 2h 5h Jh 7c 3s"))
    state = state.decide(ALICE, Decision.PLAY_4X)
    assert state.pending() == (BOB, CAROL)
    state, automatic = state.advance()  # Bob and Carol run out of time before the flop
    assert state.phase is Phase.FLOP
    assert {key: record.label for key, record in automatic.items()} == {BOB: "AUTO CHECKED", CAROL: "AUTO CHECKED"}
    state = state.decide(BOB, Decision.PLAY_2X)
    state, automatic = state.advance()
    assert state.phase is Phase.RIVER
    assert set(automatic) == {CAROL}
    assert state.pending() == (CAROL,)
    state, automatic = state.advance()  # Carol times out at the last decision
    assert state.phase is Phase.SETTLED
    assert automatic[CAROL].label == "AUTO FOLDED"
    results = state.settlements()
    assert results[ALICE].row is ResultRow.DEALER_QUALIFIES_PLAYER_WINS
    assert results[ALICE].net == 1_000 + 1_500 + 4_000 + 3_500  # ante, blind 1.5:1, play 4x, trips 7:1
    assert results[BOB].net == 200 + 300 + 400
    assert results[CAROL].row is ResultRow.PLAYER_FOLDS
    assert results[CAROL].net == -800


def test_uth_38_leaving_during_betting_voids_the_bets_but_after_betting_they_stay() -> None:
    state, refund = betting_round().void_bets(ALICE)
    assert refund == 2 * 1_000 + 500
    assert ALICE not in state.slips
    dealt = betting_round().close_betting(shuffled_deck(random.Random(1)))
    unchanged, refund = dealt.void_bets(ALICE)
    assert refund == 0
    assert unchanged is dealt


@pytest.mark.parametrize("phases_played", [0, 1, 2, 3])
def test_uth_36_amb_37_a_cancelled_round_refunds_every_stake_including_play_bets(phases_played: int) -> None:
    state = betting_round()
    expected = {ALICE: 2_500, BOB: 400, CAROL: 800}
    if phases_played:
        state = state.close_betting(shuffled_deck(random.Random(5)))
        state = state.decide(ALICE, Decision.PLAY_3X)
        expected[ALICE] += 3_000
        for _ in range(phases_played - 1):
            state, _ = state.advance()
    cancelled = state.cancel()
    assert cancelled.phase is Phase.CANCELLED
    assert cancelled.refunds() == expected
    with pytest.raises(RoundError):
        cancelled.cancel()


def test_a_settled_round_cannot_be_cancelled_and_an_open_round_has_no_results_yet() -> None:
    state = betting_round().close_betting(shuffled_deck(random.Random(2)))
    with pytest.raises(RoundError, match="not settled"):
        state.settlements()
    for _ in range(3):
        state, _ = state.advance()
    with pytest.raises(RoundError, match="cannot be cancelled"):
        state.cancel()
    with pytest.raises(RoundError, match="no decision phase"):
        state.advance()
