"""The catalog's worked examples for the betting engine, played through the hand state machine.

SX-01 (ENG-15), SX-02 (ENG-22), SX-03 (ENG-20), SX-04 (ENG-21, AMB-50), the ENG-21 derived example, ENG-17 and ENG-27.
"""

from __future__ import annotations

import pytest

from games.engine.actions import AllIn, Bet, Call, Check, Fold, IllegalAction, RaiseTo
from games.engine.config import Variant
from games.engine.events import PotsFormed
from games.engine.state import HandState, Street
from tests.engine.hand_helpers import config, hand


def limp_to_the_flop(state: HandState) -> None:
    """Everyone calls the big blind and the big blind checks."""
    while state.street is Street.PREFLOP:
        legal = state.legal_actions()
        assert legal is not None
        state.apply(Check(legal.seat) if legal.check else Call(legal.seat))


def test_sx_01_eng_15_bet_5_raise_to_15_means_the_next_raise_is_to_at_least_25() -> None:
    state = hand(config({1: 1000, 2: 1000, 3: 1000, 4: 1000}, button=4, small_blind_seat=1, big_blind_seat=2))
    limp_to_the_flop(state)
    state.apply(Bet(1, 5))
    state.apply(RaiseTo(2, 15))
    legal = state.legal_actions()
    assert legal is not None
    assert legal.seat == 3
    assert legal.raise_range == (25, 998)
    with pytest.raises(IllegalAction, match="minimum raise is to 25"):
        state.verify(RaiseTo(3, 24))
    assert state.can(RaiseTo(3, 25))


def test_eng_15_a_bet_must_be_at_least_one_big_blind() -> None:
    state = hand(config({1: 1000, 2: 1000, 3: 1000}, button=3, small_blind_seat=1, big_blind_seat=2, blinds=(5, 10)))
    limp_to_the_flop(state)
    with pytest.raises(IllegalAction, match="minimum bet is 10"):
        state.verify(Bet(1, 9))
    assert state.can(Bet(1, 10))


def test_sx_02_eng_22_a_and_b_put_in_1000_c_all_in_for_100_main_pot_300_side_pot_1800() -> None:
    state = hand(
        config({1: 1000, 2: 5000, 3: 100}, button=3, small_blind_seat=1, big_blind_seat=2, blinds=(5, 10)),
        hole={1: "KsKd", 2: "QsQd", 3: "AsAd"},
        board="2c7h9dJc3s",
    )
    state.apply(AllIn(3))  # C raises all-in to 100
    state.apply(AllIn(1))  # A raises all-in to 1000
    state.apply(Call(2))  # B calls 1000
    formed = [event for event in state.events if isinstance(event, PotsFormed)]
    assert [(pot.amount, pot.eligible) for pot in formed[0].pots] == [(300, (1, 2, 3)), (1800, (1, 2))]
    result = state.result
    assert [(pot.amount, pot.eligible, pot.winners) for pot in result.pots] == [
        (300, (1, 2, 3), (3,)),  # C's aces win the main pot
        (1800, (1, 2), (1,)),  # A's kings beat B's queens for the side pot
    ]
    assert state.stacks == {1: 1800, 2: 4000, 3: 300}


def sx_03_hand() -> HandState:
    """A (1) checks, B (2) bets 10, C (3) calls, D (4) goes all-in for 15 (a raise of 5, less than a full raise)."""
    state = hand(config({1: 1000, 2: 1000, 3: 1000, 4: 17}, button=4, small_blind_seat=1, big_blind_seat=2))
    limp_to_the_flop(state)
    state.apply(Check(1))
    state.apply(Bet(2, 10))
    state.apply(Call(3))
    events = state.apply(AllIn(4))
    assert events[0].total_bet == 15  # type: ignore[union-attr]
    return state


def test_sx_03_eng_20_the_player_still_facing_the_full_bet_keeps_all_options() -> None:
    state = sx_03_hand()
    legal = state.legal_actions()
    assert legal is not None
    assert legal.seat == 1
    assert legal.fold
    assert legal.call_amount == 15
    assert legal.raise_range == (25, 998)


def test_sx_03_eng_20_after_a_calls_b_and_c_may_only_call_or_fold_the_undersized_all_in() -> None:
    state = sx_03_hand()
    state.apply(Call(1))
    for seat in (2, 3):
        legal = state.legal_actions()
        assert legal is not None
        assert legal.seat == seat
        assert legal.kinds == ("fold", "call", "timeout")
        assert legal.call_amount == 5
        with pytest.raises(IllegalAction, match="not reopened"):
            state.verify(RaiseTo(seat, 30))
        with pytest.raises(IllegalAction, match="not reopened"):
            state.verify(AllIn(seat))
        state.apply(Call(seat))
    assert state.street is Street.TURN


def test_sx_03_eng_20_if_a_raises_b_and_c_face_a_full_raise_and_may_reraise() -> None:
    state = sx_03_hand()
    state.apply(RaiseTo(1, 40))
    legal = state.legal_actions()
    assert legal is not None
    assert legal.seat == 2
    assert legal.raise_range is not None


def sx_04_hand(players: dict[int, int]) -> HandState:
    state = hand(config(players, button=max(players), small_blind_seat=1, big_blind_seat=2))
    limp_to_the_flop(state)
    return state


def test_sx_04_eng_21_two_undersized_all_ins_without_a_call_between_reopen_the_betting() -> None:
    # A (1) bets 10, B (2) calls, C (3) all-in to 18 (raise of 8), D (4) all-in to 25 (raise of 7): 8 + 7 >= 10.
    state = sx_04_hand({1: 1000, 2: 1000, 3: 20, 4: 27})
    state.apply(Bet(1, 10))
    state.apply(Call(2))
    assert state.apply(AllIn(3))[0].total_bet == 18  # type: ignore[union-attr]
    assert state.apply(AllIn(4))[0].total_bet == 25  # type: ignore[union-attr]
    for seat in (1, 2):
        legal = state.legal_actions()
        assert legal is not None
        assert legal.seat == seat
        assert legal.raise_range is not None, f"seat {seat} may raise on its turn"
        if seat == 1:
            # AMB-50: the minimum increment stays the largest full one (10): a re-raise is to at least 35.
            assert legal.raise_range[0] == 35
            with pytest.raises(IllegalAction, match="minimum raise is to 35"):
                state.verify(RaiseTo(1, 34))
        state.apply(Call(seat))


def test_eng_21_derived_a_call_between_the_undersized_all_ins_means_no_reopen() -> None:
    # A (1) bets 10, B (2) calls, C (3) all-in to 18, E (4) calls 18, D (5) all-in to 25: E's call broke the succession.
    state = sx_04_hand({1: 1000, 2: 1000, 3: 20, 4: 1000, 5: 27})
    state.apply(Bet(1, 10))
    state.apply(Call(2))
    state.apply(AllIn(3))
    state.apply(Call(4))
    state.apply(AllIn(5))
    for seat, owed in ((1, 15), (2, 15), (4, 7)):
        legal = state.legal_actions()
        assert legal is not None
        assert legal.seat == seat
        assert legal.kinds == ("fold", "call", "timeout"), f"seat {seat} may only call 25 or fold"
        assert legal.call_amount == owed
        state.apply(Call(seat))


def test_eng_20_a_single_undersized_all_in_does_not_reopen_for_the_bettor() -> None:
    state = sx_04_hand({1: 1000, 2: 1000, 3: 20})
    state.apply(Bet(1, 10))
    state.apply(Call(2))
    state.apply(AllIn(3))  # to 18
    legal = state.legal_actions()
    assert legal is not None
    assert legal.seat == 1
    assert legal.kinds == ("fold", "call", "timeout")


def test_eng_17_pot_limit_first_to_act_preflop_at_5_10_may_raise_to_at_most_35() -> None:
    state = hand(
        config(
            {1: 10_000, 2: 10_000, 3: 10_000, 4: 10_000},
            button=4,
            small_blind_seat=1,
            big_blind_seat=2,
            blinds=(5, 10),
            variant=Variant.POT_LIMIT_OMAHA,
        )
    )
    legal = state.legal_actions()
    assert legal is not None
    assert legal.seat == 3
    assert legal.raise_range == (20, 35)
    with pytest.raises(IllegalAction, match="pot-limit maximum is 35"):
        state.verify(RaiseTo(3, 36))
    with pytest.raises(IllegalAction, match="pot-limit maximum is 35"):
        state.verify(AllIn(3))
    assert legal.all_in_amount is None
    state.apply(RaiseTo(3, 35))
    # Next player: P = 5 + 10 + 35 = 50, C = 35 -> may raise by 85 to 120.
    legal = state.legal_actions()
    assert legal is not None
    assert legal.raise_range == (60, 120)


def test_eng_17_pot_limit_bet_on_the_flop_is_at_most_the_pot() -> None:
    state = hand(
        config(
            {1: 1000, 2: 1000, 3: 1000},
            button=3,
            small_blind_seat=1,
            big_blind_seat=2,
            blinds=(5, 10),
            variant=Variant.POT_LIMIT_OMAHA,
        )
    )
    limp_to_the_flop(state)
    legal = state.legal_actions()
    assert legal is not None
    assert legal.bet_range == (10, 30)


def test_eng_27_derived_101_cents_split_between_seats_2_and_5_with_the_button_on_4() -> None:
    """Pot €1.01 split between seats 2 and 5, button at seat 4: seat 5 gets €0.51, seat 2 gets €0.50."""
    state = hand(
        config({2: 1000, 4: 1000, 5: 1000}, button=4, small_blind_seat=5, big_blind_seat=2, ante=1),
        hole={2: "2c3d", 4: "6c7d", 5: "4c5d"},
        board="AsKhQdJcTs",
    )
    state.apply(Call(4))
    state.apply(Call(5))
    state.apply(Check(2))
    state.apply(Bet(5, 46))
    state.apply(Call(2))
    state.apply(Fold(4))
    while not state.is_complete:
        state.apply(Check(state.actor))  # type: ignore[arg-type]
    (pot,) = state.result.pots
    assert pot.amount == 101
    assert pot.winners == (5, 2)
    assert pot.shares == ((5, 51), (2, 50))
