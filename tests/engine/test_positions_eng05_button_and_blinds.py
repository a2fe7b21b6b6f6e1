"""Button and blind progression: ENG-05 with its four derived examples, heads-up (ENG-04), the first hand (ENG-06,
TRN-05), new players waiting for the big blind or posting out of position (CASH-07, CASH-21, AMB-46) and the cash
start condition (CASH-06, AMB-11)."""

from __future__ import annotations

import random

import pytest

from games.engine.positions import (
    HandPositions,
    PositionError,
    PreviousHand,
    cash_hand_may_start,
    next_hand_positions,
    tournament_first_button,
)

SIX_PLAYING = PreviousHand(button=1, small_blind=2, big_blind=3, dealt_in=frozenset(range(1, 7)))


def positions(previous: PreviousHand, ready: set[int], **options: set[int]) -> HandPositions:
    return next_hand_positions(table_size=6, previous=previous, ready=ready, **options)  # type: ignore[arg-type]


def test_eng_05_derived_1_everyone_stays_the_blinds_and_button_move_one_seat() -> None:
    result = positions(SIX_PLAYING, set(range(1, 7)))
    assert (result.button, result.small_blind, result.big_blind) == (2, 3, 4)
    assert result.dealt_in == (3, 4, 5, 6, 1, 2)


def test_eng_05_derived_2_the_big_blind_leaves_no_small_blind_then_the_button_stays_stuck() -> None:
    first = positions(SIX_PLAYING, {1, 2, 4, 5, 6})
    assert (first.button, first.small_blind, first.big_blind) == (2, None, 4)
    second = positions(first.as_previous(), {1, 2, 4, 5, 6})
    assert (second.button, second.small_blind, second.big_blind) == (2, 4, 5)


def test_eng_05_derived_3_the_small_blind_leaves_dead_button_on_the_empty_seat() -> None:
    first = positions(SIX_PLAYING, {1, 3, 4, 5, 6})
    assert (first.button, first.small_blind, first.big_blind) == (2, 3, 4)
    assert first.dealt_in == (3, 4, 5, 6, 1)  # post-flop action starts with seat 3
    second = positions(first.as_previous(), {1, 3, 4, 5, 6})
    assert (second.button, second.small_blind, second.big_blind) == (3, 4, 5)


def test_eng_05_derived_4_three_players_become_two_and_the_small_blind_holds_the_button() -> None:
    previous = PreviousHand(button=1, small_blind=2, big_blind=3, dealt_in=frozenset({1, 2, 3}))
    result = positions(previous, {2, 3})
    assert (result.button, result.small_blind, result.big_blind) == (3, 3, 2)


def test_eng_04_heads_up_the_blinds_alternate_and_the_button_is_always_the_small_blind() -> None:
    previous = PreviousHand(button=3, small_blind=3, big_blind=2, dealt_in=frozenset({2, 3}))
    for _ in range(4):
        result = positions(previous, {2, 3})
        assert result.button == result.small_blind != result.big_blind
        assert result.big_blind != previous.big_blind
        previous = result.as_previous()


def test_eng_05_a_sitting_out_big_blind_does_not_post_the_small_blind_amb_66() -> None:
    # Seat 3 (last big blind) is still seated but sitting out, so it is not ready.
    result = positions(SIX_PLAYING, {1, 2, 4, 5, 6})
    assert result.small_blind is None


def test_eng_06_the_first_hand_of_a_cash_table_gives_the_button_to_a_random_player() -> None:
    buttons = set()
    for seed in range(40):
        result = next_hand_positions(table_size=6, previous=None, ready={1, 3, 5}, chooser=random.Random(seed))
        order = [1, 3, 5]
        position = order.index(result.button)
        assert result.small_blind == order[(position + 1) % 3]
        assert result.big_blind == order[(position + 2) % 3]
        buttons.add(result.button)
    assert buttons == {1, 3, 5}


def test_eng_06_the_first_hand_needs_an_injected_random_chooser() -> None:
    with pytest.raises(PositionError, match="random chooser"):
        next_hand_positions(table_size=6, previous=None, ready={1, 2, 3})


def test_trn_05_a_tournament_starts_with_the_button_on_the_highest_occupied_seat() -> None:
    button = tournament_first_button([2, 4, 7, 9])
    result = next_hand_positions(table_size=9, previous=None, ready={2, 4, 7, 9}, first_button=button)
    assert (result.button, result.small_blind, result.big_blind) == (9, 2, 4)


def test_amb_46_players_at_the_first_hand_are_dealt_in_without_posting() -> None:
    result = next_hand_positions(
        table_size=6,
        previous=None,
        ready={1, 2},
        waiting_for_big_blind={4},
        posting_out_of_position={5},
        first_button=1,
    )
    assert set(result.dealt_in) == {1, 2, 4, 5}
    assert result.out_of_position == ()
    assert result.waiting == ()


def test_cash_07_a_new_player_waiting_for_the_big_blind_is_dealt_in_when_it_reaches_them() -> None:
    # New player in seat 5 waits; big blind goes 4 then 5.
    first = positions(SIX_PLAYING, {1, 2, 3, 4, 6}, waiting_for_big_blind={5})
    assert first.big_blind == 4
    assert first.waiting == (5,)
    assert 5 not in first.dealt_in
    second = positions(first.as_previous(), {1, 2, 3, 4, 6}, waiting_for_big_blind={5})
    assert second.big_blind == 5
    assert 5 in second.dealt_in
    assert second.waiting == ()


def test_cash_07_a_new_player_may_post_a_big_blind_out_of_position_and_play_at_once() -> None:
    result = positions(SIX_PLAYING, {1, 2, 3, 4, 6}, posting_out_of_position={5})
    assert result.out_of_position == (5,)
    assert 5 in result.dealt_in


def test_amb_46_posting_is_refused_between_the_button_and_the_small_blind() -> None:
    # Dead small blind hand: button stuck on 2, seat 3 empty, big blind 4. A new player in seat 3 must wait.
    first = positions(SIX_PLAYING, {1, 2, 4, 5, 6}, posting_out_of_position={3})
    assert (first.button, first.small_blind, first.big_blind) == (2, None, 4)
    assert first.out_of_position == ()
    assert first.waiting == (3,)


def test_amb_46_posting_is_refused_on_a_dead_button_seat() -> None:
    # Seat 2 (small blind) left; a new player sat down there: the dead button is on seat 2 this hand.
    result = positions(SIX_PLAYING, {1, 3, 4, 5, 6}, posting_out_of_position={2})
    assert result.button == 2
    assert result.waiting == (2,)


def test_cash_21_a_returning_player_whose_big_blind_reaches_them_needs_no_extra_post() -> None:
    result = positions(SIX_PLAYING, {1, 2, 3, 5, 6}, posting_out_of_position={4})
    assert result.big_blind == 4
    assert result.out_of_position == ()


def test_positions_need_two_players() -> None:
    with pytest.raises(PositionError, match="fewer than two"):
        positions(SIX_PLAYING, {1})
    with pytest.raises(PositionError, match="more than one"):
        positions(SIX_PLAYING, {1, 2}, waiting_for_big_blind={2})
    with pytest.raises(PositionError, match="not a seat"):
        positions(SIX_PLAYING, {1, 2, 7})


@pytest.mark.parametrize(
    ("available", "previous", "flag", "starts"),
    [
        (3, None, False, True),
        (2, None, False, False),
        (2, 3, False, True),  # hand 6 of the derived example: heads-up after a three-handed hand
        (2, 2, False, False),  # hand 7 waits for a third player
        (2, 2, True, True),  # back-office flag "continue heads-up while >= 2"
        (1, 5, True, False),
    ],
)
def test_cash_06_hand_start_condition(available: int, previous: int | None, flag: bool, starts: bool) -> None:
    assert cash_hand_may_start(available, previous, continue_heads_up=flag) is starts
