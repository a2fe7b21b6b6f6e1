"""The automatic decision on timeout: check if possible, otherwise fold (TB-04, TB-07, CASH-22, TRN-31, AMB-20)."""

from __future__ import annotations

from games.engine.actions import Bet, Call, Check, Fold, Timeout
from games.engine.events import ActionTaken
from tests.engine.hand_helpers import config, hand


def three_handed():  # type: ignore[no-untyped-def]
    return hand(config({1: 100, 2: 100, 3: 100}, button=3, small_blind_seat=1, big_blind_seat=2))


def test_tb_04_a_timed_out_player_facing_a_bet_is_folded() -> None:
    state = three_handed()
    assert state.timeout_action() == Fold(3)
    (taken, *_) = state.apply(Timeout(3))
    assert isinstance(taken, ActionTaken)
    assert taken.action == Timeout(3)
    assert taken.resolved == "fold"
    assert state.folded_seats == (3,)


def test_tb_04_a_timed_out_player_who_may_check_checks() -> None:
    state = three_handed()
    state.apply(Call(3))
    state.apply(Call(1))
    assert state.timeout_action() == Check(2)  # the big blind's option
    (taken, *_) = state.apply(Timeout(2))
    assert isinstance(taken, ActionTaken)
    assert taken.resolved == "check"
    assert state.folded_seats == ()


def test_a_timeout_on_the_flop_after_a_bet_folds() -> None:
    state = three_handed()
    state.apply(Call(3))
    state.apply(Call(1))
    state.apply(Check(2))
    state.apply(Bet(1, 4))
    (taken, *_) = state.apply(Timeout(2))
    assert isinstance(taken, ActionTaken)
    assert taken.resolved == "fold"


def test_a_timeout_for_someone_else_is_out_of_turn() -> None:
    state = three_handed()
    assert not state.can(Timeout(1))
