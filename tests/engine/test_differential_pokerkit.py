"""Differential test: thousands of random NLHE and PLO hands played in our engine and in pokerkit with the same deck
and the same actions end with identical stacks.

Random tables of 2..10 players with mixed (often very short) stacks, antes, dead small blinds, timeouts, undersized
all-ins and side pots. Our engine picks each action from its own legal actions and pokerkit must accept it and agree
on whose turn it is. Known, documented differences are factored out in
:func:`tests.engine.pokerkit_bridge.our_stacks_in_pokerkit_convention` (odd-chip rounding: ENG-27 versus pokerkit's
merged pots) and by keeping the big blind able to post its full blind (see ``random_config``).
"""

from __future__ import annotations

import random

import pytest

from games.engine.config import Variant
from tests.engine.pokerkit_bridge import our_stacks_in_pokerkit_convention, play_both, random_config


def play_many(variant: Variant, hands: int, first_seed: int) -> int:
    showdowns = 0
    for seed in range(first_seed, first_seed + hands):
        rng = random.Random(seed)
        hand_config = random_config(rng, variant)
        played = play_both(hand_config, rng)
        ours = our_stacks_in_pokerkit_convention(played)
        theirs = list(played.theirs.stacks)
        assert ours == theirs, f"seed {seed}: {hand_config}\nactions {played.actions}\nours {ours} pokerkit {theirs}"
        showdowns += played.ours.result.showdown
    return showdowns


@pytest.mark.parametrize("variant", list(Variant))
def test_random_hands_end_with_the_same_stacks_as_in_pokerkit(variant: Variant) -> None:
    hands = 1200
    showdowns = play_many(variant, hands, first_seed=0)
    assert showdowns > hands // 10  # the sample really exercises showdowns and pot splitting


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(Variant))
def test_many_more_random_hands_agree_with_pokerkit(variant: Variant) -> None:
    play_many(variant, 1_500, first_seed=1_000_000)
