"""A raked hand written as PHH (RAKE-01/07, ENG-28): ``finishing_stacks`` are the settled stacks (after the rake) and
the user-defined field ``_rake`` states the rake; the engine replays such a file, accepting finishing stacks exactly
``_rake`` below its own result and nothing else; the export refuses settled stacks that do not add up."""

from __future__ import annotations

import random
import tomllib

import pytest

from games.engine.config import Variant
from games.engine.phh import RAKE_FIELD, PhhError, dumps_phh, hand_to_phh, replay_phh
from games.engine.simulation import play_random_hand
from games.engine.state import HandState
from tests.engine.pokerkit_bridge import random_config


def a_hand_with_a_winner() -> HandState:
    for seed in range(200):
        rng = random.Random(seed)
        state = play_random_hand(random_config(rng, Variant.NO_LIMIT_HOLDEM), rng)
        if any(state.stacks[seat] > state.starting_stacks[seat] for seat in state.seats):
            return state
    raise AssertionError("no hand with a winner")


def raked(state: HandState, rake: int) -> dict[int, int]:
    """The settled stacks: the biggest winner pays the rake."""
    stacks = dict(state.stacks)
    winner = max(state.seats, key=lambda seat: stacks[seat] - state.starting_stacks[seat])
    stacks[winner] -= rake
    return stacks


def test_the_export_writes_the_settled_stacks_and_the_rake_and_the_engine_replays_it() -> None:
    state = a_hand_with_a_winner()
    settled = raked(state, 3)
    fields = hand_to_phh(state, settled_stacks=settled, rake=3)
    assert fields[RAKE_FIELD] == 3
    assert fields["finishing_stacks"] == [settled[seat] for seat in state.seats]
    text = dumps_phh(fields)
    assert tomllib.loads(text) == fields
    assert replay_phh(tomllib.loads(text)).finishing_stacks == fields["finishing_stacks"]


def test_an_unraked_export_is_unchanged() -> None:
    state = a_hand_with_a_winner()
    fields = hand_to_phh(state)
    assert RAKE_FIELD not in fields
    assert fields["finishing_stacks"] == [state.stacks[seat] for seat in state.seats]


def test_stacks_that_the_rake_does_not_explain_are_refused() -> None:
    state = a_hand_with_a_winner()
    fields = hand_to_phh(state, settled_stacks=raked(state, 3), rake=3)
    with pytest.raises(PhhError, match="before a rake of 2"):
        replay_phh(dict(fields, _rake=2))
    with pytest.raises(PhhError, match="the file says"):
        replay_phh({key: value for key, value in fields.items() if key != RAKE_FIELD})
    with pytest.raises(ValueError, match="do not add up"):
        hand_to_phh(state, settled_stacks=raked(state, 3), rake=4)
