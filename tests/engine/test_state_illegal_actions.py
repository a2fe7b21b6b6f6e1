"""Illegal actions get a clear IllegalAction (a ValueError) saying why, and change nothing (architecture: bad input)."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.actions import (
    MAXIMUM_AMOUNT,
    AllIn,
    Bet,
    Call,
    Check,
    Fold,
    IllegalAction,
    RaiseTo,
    action_from_dict,
)
from games.engine.config import ConfigurationError, HandConfig, SeatedPlayer, Variant
from games.engine.state import HandState
from tests.engine.hand_helpers import config, hand


def fresh_hand() -> HandState:
    """Seats 1..4, button 4: seat 3 is first to act preflop facing the big blind of 10."""
    return hand(
        config({1: 1000, 2: 1000, 3: 1000, 4: 1000}, button=4, small_blind_seat=1, big_blind_seat=2, blinds=(5, 10))
    )


def assert_refused(state: HandState, action: Any, message: str) -> None:
    events_before = state.events
    stacks_before = state.stacks
    with pytest.raises(IllegalAction, match=message):
        state.verify(action)
    assert not state.can(action)
    with pytest.raises(IllegalAction, match=message):
        state.apply(action)
    assert state.events == events_before
    assert state.stacks == stacks_before


def test_illegal_action_is_a_value_error() -> None:
    assert issubclass(IllegalAction, ValueError)


def test_acting_out_of_turn_names_whose_turn_it_is() -> None:
    assert_refused(fresh_hand(), Call(1), "it is seat 3's turn, not seat 1's")


def test_a_seat_that_is_not_in_the_hand_is_refused() -> None:
    assert_refused(fresh_hand(), Fold(6), "seat 6 is not dealt into this hand")


def test_a_folded_seat_cannot_act_again() -> None:
    state = fresh_hand()
    state.apply(Fold(3))
    assert_refused(state, Call(3), "seat 3 has folded")


def test_checking_facing_a_bet_is_refused() -> None:
    assert_refused(fresh_hand(), Check(3), "cannot check facing a bet of 10")


def test_calling_when_there_is_nothing_to_call_is_refused() -> None:
    state = fresh_hand()
    for seat in (3, 4, 1):
        state.apply(Call(seat))
    assert_refused(state, Call(2), "no bet to call")


def test_a_raise_below_the_minimum_is_refused() -> None:
    assert_refused(fresh_hand(), RaiseTo(3, 19), "minimum raise is to 20")


def test_a_raise_above_the_stack_is_refused() -> None:
    assert_refused(fresh_hand(), RaiseTo(3, 1001), "seat 3 has only 1000 in total")


def test_betting_when_there_is_already_a_bet_is_refused() -> None:
    assert_refused(fresh_hand(), Bet(3, 30), "already a bet of 10")


def test_raising_when_there_is_no_bet_is_refused() -> None:
    state = fresh_hand()
    for seat in (3, 4, 1):
        state.apply(Call(seat))
    state.apply(Check(2))
    assert_refused(state, RaiseTo(1, 20), "no bet to raise")


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (-20, "must be positive"),
        (0, "must be positive"),
        (20.0, "whole number"),
        (True, "whole number"),
        ("20", "whole number"),
        (None, "whole number"),
        (MAXIMUM_AMOUNT + 1, "too large"),
        (10**40, "too large"),
    ],
)
def test_nonsense_amounts_are_refused(amount: Any, message: str) -> None:
    assert_refused(fresh_hand(), RaiseTo(3, amount), message)


@pytest.mark.parametrize("seat", [True, 3.0, "3", None])
def test_a_seat_must_be_a_whole_number(seat: Any) -> None:
    assert_refused(fresh_hand(), Call(seat), "seat must be a whole number")


def test_non_actions_are_refused() -> None:
    assert_refused(fresh_hand(), object(), "not an action")


def test_nothing_is_legal_once_the_hand_is_over() -> None:
    state = fresh_hand()
    for seat in (3, 4, 1):
        state.apply(Fold(seat))
    assert state.is_complete
    assert state.legal_actions() is None
    assert state.actor is None
    assert_refused(state, Check(2), "the hand is over")


def test_all_in_is_refused_when_the_betting_was_not_reopened() -> None:
    state = hand(config({1: 1000, 2: 1000, 3: 20}, button=3, small_blind_seat=1, big_blind_seat=2))
    for seat in (3, 1):
        state.apply(Call(seat))
    state.apply(Check(2))
    state.apply(Bet(1, 10))
    state.apply(Call(2))
    state.apply(AllIn(3))
    assert_refused(state, AllIn(1), "cannot go all-in: the betting was not reopened")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "shove", "seat": 3}, "unknown action type"),
        ({"type": "raise_to", "seat": 3}, "needs an amount"),
        ({"type": "raise_to", "seat": 3, "amount": 1.5}, "whole number"),
        ({"type": "raise_to", "seat": 3, "amount": -5}, "must be positive"),
        ({"type": "bet", "seat": "x", "amount": 5}, "seat must be a whole number"),
        ({"type": "fold", "seat": 3, "amount": 5}, "unexpected field"),
        (["fold", 3], "must be an object"),
    ],
)
def test_malformed_action_messages_are_refused_when_parsed(data: Any, message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        action_from_dict(data)


def test_action_dictionaries_round_trip() -> None:
    assert action_from_dict({"type": "raise_to", "seat": 3, "amount": 25}) == RaiseTo(3, 25)
    assert action_from_dict({"type": "timeout", "seat": 2}).kind == "timeout"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": (SeatedPlayer(1, 100),)}, "2 to 10 players"),
        ({"players": (SeatedPlayer(1, 100), SeatedPlayer(1, 100))}, "listed twice"),
        ({"players": (SeatedPlayer(1, 0), SeatedPlayer(2, 100))}, "positive whole number"),
        ({"players": (SeatedPlayer(1, 10.5), SeatedPlayer(2, 100))}, "positive whole number"),
        ({"players": (SeatedPlayer(1, 100), SeatedPlayer(7, 100))}, "seat number 1..6"),
        ({"big_blind_seat": 3}, "big blind seat 3 is not dealt in"),
        ({"small_blind_seat": 2}, "both blinds"),
        ({"big_blind": 0}, "big blind must be positive"),
        ({"ante": -1}, "non-negative"),
        ({"table_size": 11}, "table size"),
        ({"out_of_position_seats": (2,)}, "already posts a blind"),
    ],
)
def test_impossible_configurations_are_refused(changes: dict[str, Any], message: str) -> None:
    values: dict[str, Any] = {
        "variant": Variant.NO_LIMIT_HOLDEM,
        "table_size": 6,
        "button": 1,
        "players": (SeatedPlayer(1, 100), SeatedPlayer(2, 100)),
        "small_blind": 1,
        "big_blind": 2,
        "small_blind_seat": 1,
        "big_blind_seat": 2,
    }
    values.update(changes)
    with pytest.raises(ConfigurationError, match=message):
        HandConfig(**values)


def test_a_hand_needs_a_deck_or_a_shuffler_and_a_proper_deck() -> None:
    hand_config = config({1: 100, 2: 100}, button=1, small_blind_seat=1, big_blind_seat=2)
    with pytest.raises(ValueError, match="deck order or a shuffler"):
        HandState.create(hand_config)
    with pytest.raises(ValueError, match="52 distinct cards"):
        HandState.create(hand_config, deck=[])
