"""End of the hand: uncalled bets (ENG-23), everyone else folds (ENG-24), all-in run-out (ENG-25), showdown order
and automatic show (ENG-26, AMB-51), side pots with antes (ENG-08, ENG-22), Omaha's exactly-two rule at showdown."""

from __future__ import annotations

from games.engine.actions import AllIn, Bet, Call, Check, Fold, RaiseTo
from games.engine.config import Variant
from games.engine.events import HandEvaluated, HandShown, PotAwarded, StreetDealt, UncalledBetReturned
from games.engine.state import Street
from tests.engine.hand_helpers import config, hand


def check_down(state) -> None:  # type: ignore[no-untyped-def]
    while not state.is_complete:
        state.apply(Check(state.actor))


def test_eng_23_an_uncalled_bet_goes_back_to_its_owner_and_is_in_no_pot() -> None:
    state = hand(config({1: 100, 2: 100, 3: 100}, button=3, small_blind_seat=1, big_blind_seat=2))
    state.apply(RaiseTo(3, 30))
    state.apply(Fold(1))
    state.apply(Fold(2))
    returned = [event for event in state.events if isinstance(event, UncalledBetReturned)]
    assert [(event.seat, event.amount) for event in returned] == [(3, 28)]
    assert state.result.pot_amounts == (5,)
    assert state.stacks == {1: 99, 2: 98, 3: 103}


def test_eng_24_when_everyone_else_folds_the_last_player_wins_without_showing() -> None:
    state = hand(config({1: 100, 2: 100, 3: 100}, button=3, small_blind_seat=1, big_blind_seat=2))
    state.apply(Call(3))
    state.apply(Call(1))
    state.apply(Check(2))
    state.apply(Bet(1, 10))
    state.apply(Fold(2))
    state.apply(Fold(3))
    assert state.is_complete
    assert not any(isinstance(event, HandShown | HandEvaluated) for event in state.events)
    awarded = [event for event in state.events if isinstance(event, PotAwarded)]
    assert len(awarded) == 1
    assert awarded[0].hand_name is None
    assert awarded[0].pot.shares == ((1, 6),)
    result = state.result
    assert not result.showdown
    assert result.flop_dealt
    assert result.street_reached is Street.FLOP
    assert result.net == {1: 4, 2: -2, 3: -2}


def test_eng_25_when_all_are_all_in_the_hands_are_shown_and_the_board_is_run_out() -> None:
    state = hand(
        config({1: 100, 2: 100}, button=1, small_blind_seat=1, big_blind_seat=2),
        hole={1: "AsAh", 2: "KsKh"},
        board="2c7d9hJs3c",
    )
    state.apply(AllIn(1))
    state.apply(Call(2))
    kinds = [type(event).__name__ for event in state.events]
    first_street = kinds.index("StreetDealt")
    assert kinds.index("HandShown") < first_street  # cards face up before the run-out
    assert [event.street for event in state.events if isinstance(event, StreetDealt)] == ["flop", "turn", "river"]
    assert state.stacks == {2: 0, 1: 200}
    assert state.result.flop_dealt
    assert state.result.showdown


def test_eng_26_the_last_river_aggressor_shows_first_then_clockwise() -> None:
    state = hand(config({1: 100, 2: 100, 3: 100}, button=3, small_blind_seat=1, big_blind_seat=2))
    state.apply(Call(3))
    state.apply(Call(1))
    state.apply(Check(2))
    for _ in range(3):
        for seat in (1, 2, 3):
            if state.street is not Street.RIVER:
                state.apply(Check(seat))
    state.apply(Check(1))
    state.apply(Bet(2, 10))
    state.apply(Call(3))
    state.apply(Call(1))
    shown = [event.seat for event in state.events if isinstance(event, HandShown)]
    assert shown == [2, 3, 1]


def test_eng_26_without_a_river_bet_the_first_seat_after_the_button_shows_first_and_nobody_mucks() -> None:
    state = hand(config({1: 100, 2: 100, 3: 100}, button=2, small_blind_seat=3, big_blind_seat=1))
    state.apply(Call(2))
    state.apply(Call(3))
    state.apply(Check(1))
    check_down(state)
    assert [event.seat for event in state.events if isinstance(event, HandShown)] == [3, 1, 2]
    assert [event.seat for event in state.events if isinstance(event, HandEvaluated)] == [3, 1, 2]


def test_eng_22_eng_08_antes_count_for_side_pots_and_each_pot_goes_to_its_best_eligible_hand() -> None:
    state = hand(
        config({1: 50, 2: 200, 3: 200}, button=3, small_blind_seat=1, big_blind_seat=2, blinds=(5, 10), ante=5),
        hole={1: "AsAh", 2: "KsKh", 3: "QsQh"},
        board="2c7d9hJs3c",
    )
    state.apply(AllIn(3))  # to 195 (200 - ante)
    state.apply(AllIn(1))  # to 45 (50 - ante)
    state.apply(Call(2))
    pots = state.result.pots
    assert [(pot.amount, pot.eligible, pot.winners) for pot in pots] == [
        (150, (1, 2, 3), (1,)),
        (300, (2, 3), (2,)),
    ]
    assert state.stacks == {1: 150, 2: 300, 3: 0}


def test_omaha_showdown_uses_exactly_two_hole_cards_sx_05() -> None:
    # Seat 1 holds one club only: no flush on a four-club board (CARD-09), just kings and sixes;
    # seat 2 has a full house.
    state = hand(
        config({1: 100, 2: 100}, button=1, small_blind_seat=1, big_blind_seat=2, variant=Variant.POT_LIMIT_OMAHA),
        hole={1: "AcKdTd8h", 2: "QdQh3s4s"},
        board="Kc9c6c6hQc",
    )
    state.apply(Call(1))
    state.apply(Check(2))
    check_down(state)
    evaluated = {event.seat: event.hand_name for event in state.events if isinstance(event, HandEvaluated)}
    assert evaluated[1] == "Two Pair, Kings and Sixes"
    assert evaluated[2] == "Full House, Queens full of Sixes"
    assert state.result.pots[0].winners == (2,)


def test_a_tie_splits_the_pot_and_the_winning_hand_is_named() -> None:
    state = hand(
        config({1: 100, 2: 100}, button=1, small_blind_seat=1, big_blind_seat=2),
        hole={1: "2c3d", 2: "4c5d"},
        board="AsKhQdJcTs",
    )
    state.apply(Call(1))
    state.apply(Check(2))
    check_down(state)
    awarded = [event for event in state.events if isinstance(event, PotAwarded)]
    assert awarded[0].hand_name == "Straight, Ace High"
    assert awarded[0].pot.shares == ((2, 2), (1, 2))
