"""Who acts when: preflop from the seat after the big blind, later from the first seat after the button (ENG-10);
rounds end when everyone acted and matched (ENG-11); the big blind's option (ENG-13, ENG-14); no cap on raises
(ENG-16); a dead button (ENG-05)."""

from __future__ import annotations

from games.engine.actions import Bet, Call, Check, Fold, RaiseTo
from games.engine.state import Street
from tests.engine.hand_helpers import config, hand


def test_eng_10_preflop_starts_left_of_the_big_blind_and_later_streets_left_of_the_button() -> None:
    state = hand(config({seat: 100 for seat in range(1, 7)}, button=1, small_blind_seat=2, big_blind_seat=3))
    order = []
    while state.street is Street.PREFLOP:
        seat = state.actor
        assert seat is not None
        order.append(seat)
        legal = state.legal_actions()
        assert legal is not None
        state.apply(Check(seat) if legal.check else Call(seat))
    assert order == [4, 5, 6, 1, 2, 3]
    assert state.actor == 2


def test_eng_05_with_a_dead_button_post_flop_action_starts_with_the_small_blind() -> None:
    # Example: seat 2 (small blind) left; dead button on seat 2, small blind 3, big blind 4.
    state = hand(config({1: 100, 3: 100, 4: 100, 5: 100, 6: 100}, button=2, small_blind_seat=3, big_blind_seat=4))
    assert state.actor == 5
    for seat in (5, 6, 1, 3):
        state.apply(Call(seat))
    state.apply(Check(4))
    assert state.street is Street.FLOP
    assert state.actor == 3


def test_eng_11_the_round_continues_until_everyone_matched_the_last_raise() -> None:
    state = hand(config({1: 100, 2: 100, 3: 100, 4: 100}, button=4, small_blind_seat=1, big_blind_seat=2))
    state.apply(Call(3))
    state.apply(Call(4))
    state.apply(Call(1))
    state.apply(RaiseTo(2, 8))  # the big blind uses its option
    assert state.actor == 3
    state.apply(Call(3))
    state.apply(Fold(4))
    state.apply(Call(1))
    assert state.street is Street.FLOP  # the raiser is not asked again


def test_eng_13_eng_14_the_big_blind_may_check_its_option_and_others_call_the_big_blind() -> None:
    state = hand(config({1: 100, 2: 100, 3: 100}, button=3, small_blind_seat=1, big_blind_seat=2))
    legal = state.legal_actions()
    assert legal is not None
    assert legal.seat == 3
    assert legal.call_amount == 2
    assert not legal.check
    state.apply(Call(3))
    legal = state.legal_actions()
    assert legal is not None
    assert legal.seat == 1
    assert legal.call_amount == 1
    state.apply(Call(1))
    legal = state.legal_actions()
    assert legal is not None
    assert legal.seat == 2
    assert legal.check
    assert legal.call_amount is None
    assert legal.raise_range == (4, 100)


def test_eng_16_there_is_no_cap_on_the_number_of_raises() -> None:
    state = hand(config({1: 10**9, 2: 10**9}, button=1, small_blind_seat=1, big_blind_seat=2))
    amount = 2
    for _ in range(20):
        seat = state.actor
        assert seat is not None
        amount *= 2
        state.apply(RaiseTo(seat, amount))
    assert state.current_bet == 2 * 2**20


def test_a_player_who_cannot_be_raised_against_is_not_asked_to_act() -> None:
    # Small blind calls all-in; the big blind has nobody left to bet against, so the board runs out (ENG-25).
    state = hand(config({1: 2, 2: 100, 3: 100}, button=3, small_blind_seat=1, big_blind_seat=2))
    state.apply(Fold(3))
    state.apply(Call(1))
    assert state.is_complete
    assert len(state.board) == 5


def test_after_the_flop_betting_checks_around_then_a_bet_must_be_answered_by_everyone() -> None:
    state = hand(config({1: 100, 2: 100, 3: 100}, button=3, small_blind_seat=1, big_blind_seat=2))
    state.apply(Call(3))
    state.apply(Call(1))
    state.apply(Check(2))
    state.apply(Check(1))
    state.apply(Bet(2, 4))
    assert state.actor == 3
    state.apply(Call(3))
    assert state.actor == 1
    state.apply(Call(1))
    assert state.street is Street.TURN
