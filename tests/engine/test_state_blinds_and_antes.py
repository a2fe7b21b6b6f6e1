"""Forced bets: blinds (ENG-03), heads-up blinds (ENG-04), antes (ENG-08), short stacks all-in (ENG-09), a hand with
no small blind (ENG-05) and live big blinds posted out of position (CASH-07, AMB-46)."""

from __future__ import annotations

import pytest

from games.engine.actions import Call, Check, Fold, IllegalAction, PostAnte, PostBlind, RaiseTo
from games.engine.events import ForcedBetPosted, HoleCardsDealt
from games.engine.state import HandState, Phase, Street, arrange_deck
from tests.engine.hand_helpers import config, hand


def forced_bets(state: HandState) -> list[tuple[int, str, int, bool]]:
    return [
        (event.seat, event.blind, event.amount, event.all_in)
        for event in state.events
        if isinstance(event, ForcedBetPosted)
    ]


def test_eng_03_the_two_seats_after_the_button_post_small_and_big_blind() -> None:
    state = hand(config({1: 100, 2: 100, 3: 100, 4: 100}, button=1, small_blind_seat=2, big_blind_seat=3))
    assert forced_bets(state) == [(2, "small_blind", 1, False), (3, "big_blind", 2, False)]
    assert state.bets == {2: 1, 3: 2, 4: 0, 1: 0}
    assert state.current_bet == 2


def test_eng_08_every_player_dealt_in_posts_the_ante_before_the_blinds_and_antes_are_dead_money() -> None:
    state = hand(config({1: 100, 2: 100, 3: 100}, button=1, small_blind_seat=2, big_blind_seat=3, ante=5))
    assert forced_bets(state) == [
        (2, "ante", 5, False),
        (3, "ante", 5, False),
        (1, "ante", 5, False),
        (2, "small_blind", 1, False),
        (3, "big_blind", 2, False),
    ]
    assert state.pot_total == 18
    assert state.bets == {2: 1, 3: 2, 1: 0}  # antes are not part of the preflop bets
    legal = state.legal_actions()
    assert legal is not None
    assert legal.seat == 1
    assert legal.call_amount == 2


def test_eng_09_a_stack_smaller_than_the_ante_posts_it_all_and_is_all_in() -> None:
    state = hand(config({1: 100, 2: 3, 3: 100}, button=1, small_blind_seat=2, big_blind_seat=3, ante=5))
    assert (2, "ante", 3, True) in forced_bets(state)
    assert all(blind != "small_blind" for _, blind, _, _ in forced_bets(state))  # nothing left to post
    assert state.stacks[2] == 0


def test_eng_09_a_short_small_blind_posts_what_it_has() -> None:
    state = hand(config({1: 100, 2: 1, 3: 100}, button=1, small_blind_seat=2, big_blind_seat=3, blinds=(5, 10)))
    assert forced_bets(state)[0] == (2, "small_blind", 1, True)


def test_eng_09_a_short_big_blind_is_all_in_and_the_others_still_call_the_full_big_blind() -> None:
    state = hand(config({1: 100, 2: 100, 3: 4}, button=1, small_blind_seat=2, big_blind_seat=3, blinds=(5, 10)))
    assert forced_bets(state)[1] == (3, "big_blind", 4, True)
    assert state.current_bet == 10
    legal = state.legal_actions()
    assert legal is not None
    assert legal.seat == 1
    assert legal.call_amount == 10
    state.apply(Call(1))
    state.apply(Fold(2))
    # Seat 1 called 10; only the folded small blind's 5 matched part of it: 5 are uncalled and come back (ENG-23).
    assert state.street is Street.RIVER
    assert state.is_complete
    assert state.result.uncalled == ((1, 5),)
    assert [(pot.amount, pot.eligible) for pot in state.result.pots] == [(12, (3, 1)), (2, (1,))]


def test_eng_04_heads_up_the_button_posts_the_small_blind_and_acts_first_preflop_but_last_after() -> None:
    state = hand(config({3: 100, 5: 100}, button=5, small_blind_seat=5, big_blind_seat=3))
    assert forced_bets(state) == [(5, "small_blind", 1, False), (3, "big_blind", 2, False)]
    assert state.actor == 5
    state.apply(Call(5))
    assert state.actor == 3
    state.apply(Check(3))
    assert state.street is Street.FLOP
    assert state.actor == 3  # the big blind acts first on the flop, turn and river


def test_eng_05_a_hand_without_a_small_blind_starts_after_the_big_blind() -> None:
    # Dead small blind: button 2 (stuck), seat 3 empty, big blind 4.
    state = hand(config({1: 100, 2: 100, 4: 100, 5: 100}, button=2, small_blind_seat=None, big_blind_seat=4))
    assert forced_bets(state) == [(4, "big_blind", 2, False)]
    assert state.pot_total == 2
    assert state.actor == 5


def test_cash_07_an_out_of_position_big_blind_is_live_and_may_check_when_nobody_raises() -> None:
    state = hand(
        config(
            {1: 100, 2: 100, 3: 100, 5: 100}, button=1, small_blind_seat=2, big_blind_seat=3, out_of_position_seats=(5,)
        )
    )
    assert forced_bets(state) == [
        (2, "small_blind", 1, False),
        (3, "big_blind", 2, False),
        (5, "out_of_position_big_blind", 2, False),
    ]
    # Action still starts after the big blind: seat 5 (who posted) then the button.
    legal = state.legal_actions()
    assert legal is not None
    assert legal.seat == 5
    assert legal.check
    assert legal.raise_range is not None
    state.apply(Check(5))
    state.apply(Call(1))
    state.apply(Call(2))
    legal = state.legal_actions()
    assert legal is not None
    assert legal.seat == 3
    assert legal.check
    state.apply(Check(3))
    assert state.street is Street.FLOP
    assert state.pot_total == 8


def test_forced_bets_can_be_posted_as_actions_in_order() -> None:
    hand_config = config({1: 100, 2: 100, 3: 100}, button=1, small_blind_seat=2, big_blind_seat=3, ante=1)
    state = HandState.create(hand_config, deck=arrange_deck(hand_config, {}), auto_post=False)
    assert state.phase is Phase.POSTING
    legal = state.legal_actions()
    assert legal is not None
    assert legal.forced == PostAnte(2)
    assert legal.kinds == ("post_ante",)
    with pytest.raises(IllegalAction, match="seat 2 must post the ante first"):
        state.verify(PostAnte(3))
    with pytest.raises(IllegalAction, match="must post the ante first"):
        state.verify(RaiseTo(2, 10))
    for action in (PostAnte(2), PostAnte(3), PostAnte(1), PostBlind(2)):
        state.apply(action)
    assert not any(isinstance(event, HoleCardsDealt) for event in state.events)
    state.apply(PostBlind(3))
    assert state.phase is Phase.BETTING
    assert sum(isinstance(event, HoleCardsDealt) for event in state.events) == 3
    with pytest.raises(IllegalAction, match="already been posted"):
        state.verify(PostBlind(1))
