"""Hands played per second: random 6-max hands played to the end by games.engine and by pokerkit.

    .venv/bin/python benchmarks/bench_hands.py [--seconds 5] [--profile]

Both engines play the same kind of hand: six players with 100 big blinds (blinds 1/2), a freshly shuffled deck, and
the same random action policy (games.engine.simulation.choose_random_action) fed with each engine's own legal
actions, until the hand is over (showdown and pots included). Prints hands per CPU-second for each engine and variant
and the ratio; the engines alternate in half-second slices of CPU time. The target is at least 20x pokerkit.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pokerkit import Automation, NoLimitTexasHoldem, PotLimitOmahaHoldem
from pokerkit import State as PokerkitState

from games.engine.actions import AllIn, Bet, Check, Fold, LegalActions, RaiseTo
from games.engine.config import HandConfig, Variant
from games.engine.simulation import choose_random_action, play_random_hand

PLAYERS = 6
STACK = 200
BLINDS = (1, 2)
POKERKIT_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def our_config(variant: Variant) -> HandConfig:
    return HandConfig.create(
        variant=variant,
        stacks={seat: STACK for seat in range(1, PLAYERS + 1)},
        button=PLAYERS,
        small_blind_seat=1,
        big_blind_seat=2,
        small_blind=BLINDS[0],
        big_blind=BLINDS[1],
        table_size=PLAYERS,
    )


def play_ours(variant: Variant) -> Callable[[random.Random], None]:
    config = our_config(variant)

    def play(rng: random.Random) -> None:
        play_random_hand(config, rng)

    return play


def pokerkit_legal_actions(state: PokerkitState) -> LegalActions:
    """Describe pokerkit's options the way the shared policy reads them."""
    actor = state.actor_index
    assert actor is not None
    stack = state.stacks[actor]
    owed = state.checking_or_calling_amount or 0
    raise_range = bet_range = None
    all_in_amount = stack if owed >= stack else None
    if state.can_complete_bet_or_raise_to():
        low = state.min_completion_betting_or_raising_to_amount
        high = state.max_completion_betting_or_raising_to_amount
        assert low is not None
        assert high is not None
        if max(state.bets) == 0:
            bet_range = (low, high)
        else:
            raise_range = (low, high)
        if high == stack + state.bets[actor]:
            all_in_amount = stack
    return LegalActions(actor, True, owed == 0, owed or None, bet_range, raise_range, all_in_amount)


def play_pokerkit(variant: Variant) -> Callable[[random.Random], None]:
    game_type = PotLimitOmahaHoldem if variant is Variant.POT_LIMIT_OMAHA else NoLimitTexasHoldem
    stacks = (STACK,) * PLAYERS

    def play(rng: random.Random) -> None:
        state = game_type.create_state(POKERKIT_AUTOMATIONS, True, 0, BLINDS, BLINDS[1], stacks, PLAYERS)
        while state.status:
            legal = pokerkit_legal_actions(state)
            action = choose_random_action(legal, rng)
            if isinstance(action, Fold):
                state.fold()
            elif isinstance(action, Bet | RaiseTo):
                state.complete_bet_or_raise_to(action.amount)
            elif isinstance(action, AllIn) and (legal.bet_range or legal.raise_range):
                state.complete_bet_or_raise_to(state.stacks[legal.seat] + state.bets[legal.seat])
            else:  # Check, Call, or an all-in that is a call
                assert not isinstance(action, Check) or legal.check
                state.check_or_call()

    return play


def interleaved_rates(
    engines: list[Callable[[random.Random], None]], seconds: float, slice_seconds: float = 0.5
) -> list[tuple[float, int]]:
    """Hands per CPU-second of each engine, measured in alternating slices so that load from other processes on this
    shared machine falls on all engines alike, and in this process's CPU time (``time.process_time``): time the
    scheduler gave to other processes is counted for neither. Returns ``(hands per second, hands played)`` per
    engine."""
    generators = [random.Random(1) for _ in engines]
    for play, rng in zip(engines, generators, strict=True):
        for _ in range(10):  # warm up (lookup tables, caches)
            play(rng)
    hands = [0] * len(engines)
    elapsed = [0.0] * len(engines)
    while min(elapsed) < seconds:
        for position, (play, rng) in enumerate(zip(engines, generators, strict=True)):
            start = time.process_time()
            stop = start + slice_seconds
            played = 0
            while True:
                play(rng)
                played += 1
                now = time.process_time()
                if now >= stop:
                    break
            hands[position] += played
            elapsed[position] += now - start
    return [(count / duration, count) for count, duration in zip(hands, elapsed, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per engine and variant (default 5)")
    parser.add_argument("--profile", action="store_true", help="profile our engine instead of comparing")
    arguments = parser.parse_args()
    warnings.simplefilter("ignore")
    if arguments.profile:
        import cProfile
        import pstats

        play = play_ours(Variant.NO_LIMIT_HOLDEM)
        rng = random.Random(1)
        profiler = cProfile.Profile()
        profiler.runcall(lambda: [play(rng) for _ in range(5000)])
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
        return
    print(
        f"Random {PLAYERS}-max hands played to the end ({arguments.seconds:g} s per engine and variant,"
        f" in alternating 0.5 s slices of CPU time; Python {sys.version.split()[0]}):"
    )
    for variant, name in ((Variant.NO_LIMIT_HOLDEM, "NLHE"), (Variant.POT_LIMIT_OMAHA, "PLO")):
        (ours, our_hands), (theirs, their_hands) = interleaved_rates(
            [play_ours(variant), play_pokerkit(variant)], arguments.seconds
        )
        print(
            f"  {name:4}  games.engine {ours:10,.0f} hands/s ({our_hands:,} hands)   "
            f"pokerkit {theirs:8,.0f} hands/s ({their_hands:,} hands)   ratio {ours / theirs:5.1f}x"
        )


if __name__ == "__main__":
    main()
