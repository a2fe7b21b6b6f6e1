"""Property tests over random hands with random legal actions (hypothesis).

For 2..10 players, both variants, random stacks (many short), blinds, antes, dead small blinds and out-of-position
posters: chips are conserved, no stack goes negative, the pots always hold exactly what was contributed, replaying the
event log reproduces the state, every pot goes only to the best hands among its eligible seats (ENG-22, ENG-26,
ENG-27), and everything legal_actions() offers is accepted while its boundaries are not exceeded.
"""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.actions import AllIn, Bet, Call, Check, Fold, RaiseTo
from games.engine.cards import FULL_DECK, parse_cards
from games.engine.config import HandConfig, Variant
from games.engine.events import HandEvaluated, PotAwarded
from games.engine.simulation import choose_random_action
from games.engine.state import HandState, arrange_deck, replay


@st.composite
def hand_configs(draw: st.DrawFn) -> HandConfig:
    table_size = draw(st.integers(2, 10))
    count = draw(st.integers(2, table_size))
    seats = sorted(draw(st.lists(st.integers(1, table_size), min_size=count, max_size=count, unique=True)))
    big_blind = draw(st.sampled_from([2, 10, 25]))
    stacks = {
        seat: draw(st.one_of(st.integers(1, big_blind * 5), st.integers(big_blind * 5, big_blind * 300)))
        for seat in seats
    }
    button_index = draw(st.integers(0, count - 1))
    button = seats[button_index]
    order = seats[button_index + 1 :] + seats[: button_index + 1]  # clockwise from the first seat after the button
    if count == 2:
        small_blind_seat, big_blind_seat = button, order[0]
        posters: list[int] = []
    else:
        dead_small_blind = draw(st.booleans()) and draw(st.booleans())
        small_blind_seat = None if dead_small_blind else order[0]
        big_blind_seat = order[0] if dead_small_blind else order[1]
        candidates = [seat for seat in order if seat not in (small_blind_seat, big_blind_seat)]
        posters = draw(st.lists(st.sampled_from(candidates), unique=True, max_size=2)) if candidates else []
    return HandConfig.create(
        variant=draw(st.sampled_from(list(Variant))),
        stacks=stacks,
        button=button,
        small_blind_seat=small_blind_seat,
        big_blind_seat=big_blind_seat,
        small_blind=big_blind // 2,
        big_blind=big_blind,
        ante=draw(st.sampled_from([0, 0, 1, big_blind // 2])),
        table_size=table_size,
        out_of_position_seats=posters,
    )


def check_invariants(state: HandState, total_chips: int) -> None:
    stacks = state.stacks
    assert all(stack >= 0 for stack in stacks.values())
    in_pots = sum(pot.amount for pot in state.pots)
    assert in_pots == state.pot_total == sum(state.contributions.values())
    if state.is_complete:
        assert sum(stacks.values()) == total_chips
    else:
        assert sum(stacks.values()) + state.pot_total == total_chips


def check_legal_actions_are_exact(state: HandState) -> None:
    legal = state.legal_actions()
    assert legal is not None
    if legal.forced is not None:
        assert state.can(legal.forced)
        return
    seat = legal.seat
    assert state.can(Fold(seat))
    assert state.can(Check(seat)) == legal.check
    assert state.can(Call(seat)) == (legal.call_amount is not None)
    assert state.can(AllIn(seat)) == (legal.all_in_amount is not None or legal.call_amount == state.stacks[seat])
    for action_type, amount_range in ((Bet, legal.bet_range), (RaiseTo, legal.raise_range)):
        if amount_range is None:
            assert not state.can(action_type(seat, 10**6))
            continue
        low, high = amount_range
        assert state.can(action_type(seat, low))
        assert state.can(action_type(seat, high))
        assert not state.can(action_type(seat, high + 1))
        if low > 1:
            assert not state.can(action_type(seat, low - 1))


def check_awards(state: HandState) -> None:
    strengths = {event.seat: event.strength for event in state.events if isinstance(event, HandEvaluated)}
    live = set(state.live_seats)
    for pot in state.result.pots:
        assert set(pot.winners) <= set(pot.eligible) <= live
        assert sum(share for _, share in pot.shares) == pot.amount
        assert [seat for seat, _ in pot.shares] == list(pot.winners)
        amounts = [share for _, share in pot.shares]
        assert max(amounts) - min(amounts) <= 1
        assert amounts == sorted(amounts, reverse=True)
        if strengths:
            best = max(strengths[seat] for seat in pot.eligible)
            assert {seat for seat in pot.eligible if strengths[seat] == best} == set(pot.winners)
        else:
            assert pot.winners == tuple(live)
    awarded = [event for event in state.events if isinstance(event, PotAwarded)]
    assert [event.pot for event in awarded] == list(state.result.pots)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand_config=hand_configs(), seed=st.integers(0, 2**32), timeouts=st.booleans())
def test_random_hands_keep_every_invariant(hand_config: HandConfig, seed: int, timeouts: bool) -> None:
    rng = random.Random(seed)
    total_chips = sum(hand_config.stacks.values())
    state = HandState.create(hand_config, shuffler=rng, auto_post=rng.random() < 0.5)
    check_invariants(state, total_chips)
    while not state.is_complete:
        check_legal_actions_are_exact(state)
        legal = state.legal_actions()
        assert legal is not None
        state.apply(choose_random_action(legal, rng, timeouts=timeouts))
        check_invariants(state, total_chips)
    check_awards(state)
    rebuilt = replay(hand_config, state.events)
    assert rebuilt.events == state.events
    assert rebuilt.stacks == state.stacks


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand_config=hand_configs(), seed=st.integers(0, 2**32))
def test_random_hands_on_a_board_everyone_plays_split_every_pot_with_odd_chips_clockwise(
    hand_config: HandConfig, seed: int
) -> None:
    """A royal flush on the board: every Hold'em showdown is a tie among the pot's eligible seats (ENG-27 on every
    pot). (In Omaha a player must use two hole cards, so the board alone does not tie everyone.)"""
    hand_config = replace(hand_config, variant=Variant.NO_LIMIT_HOLDEM)
    rng = random.Random(seed)
    board = parse_cards("AsKsQsJsTs")
    rest = [card for card in FULL_DECK if card not in board]
    rng.shuffle(rest)
    deck = arrange_deck(hand_config, {}, board, filler=rest)
    total_chips = sum(hand_config.stacks.values())
    state = HandState.create(hand_config, deck=deck)
    while not state.is_complete:
        legal = state.legal_actions()
        assert legal is not None
        state.apply(choose_random_action(legal, rng))
        check_invariants(state, total_chips)
    check_awards(state)
    if state.result.showdown:
        for pot in state.result.pots:
            assert pot.winners == pot.eligible
