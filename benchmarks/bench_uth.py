"""Ultimate Texas Hold'em speed: rounds simulated per second by the pure engine, and the exact Trips enumeration.

Run standalone: ``.venv/bin/python benchmarks/bench_uth.py [--rounds N] [--seed S] [--repeat R]``.

Rounds per second (one core, best of ``--repeat`` runs):

* ``RoundState``, the engine the tables use: bets on a slip, a freshly shuffled deck (``shuffled_deck``), decisions by
  the basic strategy (games.engine.uth.strategy), the three phase ends, ``settlements()`` with full
  ``HandSettlement`` records — with 1 and with 20 players at the table.
* ``simulate_main_bets``, the lean loop behind ``uth_rtp``'s simulation (nine cards by ``rng.sample``, the same
  strategy and ``main_bet_returns``).
* Peers: a minimal round (deal nine cards, always PLAY 4x, evaluate player and dealer, settle Ante/Blind/Play/Trips
  with ``main_bet_returns`` and ``trips_return``) with the showdown by ours (``holdem_strength``) and the same round
  with treys (``Evaluator.evaluate`` and ``get_rank_class``, the outcome table written out for treys' ranks); the
  script checks both pay the same total on the same deals.

Exact Trips enumeration: the structural count ``uth_rtp`` runs (``seven_card_class_counts`` + ``trips_rtp_exact``),
against brute force over all C(52, 7) = 133,784,560 hands with our evaluator and with treys, extrapolated from the
measured rate on a random sample (running them for real would take minutes to hours).

Exact main-bet return (``basic_strategy_totals``, the count ``uth_rtp`` runs: every deal under the basic strategy) on
one and on two processes, against the two other ways to a figure that tells the published 97.82 % from a wrong
paytable line: the simulation run until its 95 % interval is ±0.05 % of the Ante (rounds needed from the standard
error measured on ``--sample-rounds`` rounds, time from its rate), and brute force — every deal decided with the
strategy functions and settled with ``main_bet_returns`` — extrapolated from ``--brute-force-boards`` boards to all
C(52, 5). ``--skip-exact`` leaves this part out (it takes about a minute).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from games.engine.cards import FULL_DECK, Card, shuffled_deck
from games.engine.evaluation import holdem_strength
from games.engine.uth.betting import BetLimits
from games.engine.uth.main_bet_exact import CASES, RECORDED_BASIC_STRATEGY_TOTALS, basic_strategy_totals
from games.engine.uth.paytables import BLIND_PAYTABLE, TRIPS_PAYTABLE, HandClass
from games.engine.uth.round import Phase, RoundState
from games.engine.uth.rtp import SIMULATION_ANTE, seven_card_class_counts, simulate_main_bets, trips_rtp_exact
from games.engine.uth.settlement import BetSpot, main_bet_returns, trips_return
from games.engine.uth.strategy import basic_strategy, plays_on_river, raises_on_flop, raises_preflop

LIMITS = BetLimits(ante_minimum=100, ante_maximum=100_000, trips_minimum=100, trips_maximum=50_000)


def best_time(function: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - started)
    return best


def engine_rounds(rounds: int, players: int, rng: random.Random) -> int:
    """Play ``rounds`` full rounds through ``RoundState``; returns the number of hands settled."""
    settled = 0
    for _ in range(rounds):
        state = RoundState()
        for player in range(players):
            state, _ = state.place_chip(player, BetSpot.ANTE, 100 * (1 + player % 5) * 2, LIMITS)
            if player % 3 == 0:
                state, _ = state.place_chip(player, BetSpot.TRIPS, 100, LIMITS)
        state = state.close_betting(shuffled_deck(rng))
        cards = state.cards
        assert cards is not None
        while state.phase is not Phase.SETTLED:
            pending = state.pending()
            if pending:
                decision = basic_strategy(state.phase, cards.player, cards.community_visible_in(state.phase))
                for index, player in enumerate(pending):
                    if index % 4 != 3:  # every fourth player lets the clock decide (AUTO CHECKED / AUTO FOLDED)
                        state = state.decide(player, decision)
            state, _ = state.advance()
        settled += len(state.settlements())
    return settled


def minimal_rounds(rounds: int, rng: random.Random) -> int:
    """Deal nine cards, always PLAY 4x, showdown with ``holdem_strength``, settle every bet with the engine."""
    total = 0
    sample = rng.sample
    deck = FULL_DECK
    for _ in range(rounds):
        cards = sample(deck, 9)
        board = cards[4:9]
        player = holdem_strength(cards[0:2] + board)
        dealer = holdem_strength(cards[2:4] + board)
        total += sum(main_bet_returns(2, 8, False, player, dealer)) + trips_return(2, player)
    return total


# treys ranks hands 1 (royal flush) .. 7462 (worst high card) and classes them 1 (straight flush) .. 9 (high card).
_TREYS_CLASSES = {
    1: HandClass.STRAIGHT_FLUSH,
    2: HandClass.FOUR_OF_A_KIND,
    3: HandClass.FULL_HOUSE,
    4: HandClass.FLUSH,
    5: HandClass.STRAIGHT,
    6: HandClass.THREE_OF_A_KIND,
    7: HandClass.TWO_PAIR,
    8: HandClass.PAIR,
    9: HandClass.HIGH_CARD,
}


def treys_minimal_rounds(rounds: int, rng: random.Random) -> int:
    """The same minimal round with treys doing the showdown and the hand classes (the settlement arithmetic is the
    outcome table and paytables of games.engine.uth, written out for treys' ranks)."""
    evaluator = TreysEvaluator()
    deck = [TreysCard.new(str(card)) for card in FULL_DECK]
    total = 0
    sample = rng.sample
    ante, play, trips = 2, 8, 2
    for _ in range(rounds):
        cards = sample(deck, 9)
        board = cards[4:9]
        player = evaluator.evaluate(cards[0:2], board)
        dealer = evaluator.evaluate(cards[2:4], board)
        player_class = HandClass.ROYAL_FLUSH if player == 1 else _TREYS_CLASSES[evaluator.get_rank_class(player)]
        returned = 0
        if player == dealer:
            returned = 2 * ante + play
        elif player > dealer:  # treys: bigger rank is a weaker hand
            qualifies = evaluator.get_rank_class(dealer) <= 8
            returned = 0 if qualifies else ante
        else:
            qualifies = evaluator.get_rank_class(dealer) <= 8
            blind_odds = BLIND_PAYTABLE.get(player_class)
            returned = (2 * ante if qualifies else ante) + (ante + (blind_odds.winnings(ante) if blind_odds else 0))
            returned += 2 * play
        trips_odds = TRIPS_PAYTABLE.get(player_class)
        total += returned + (trips + trips_odds.winnings(trips) if trips_odds else 0)
    return total


def brute_force_board(board: list[Card]) -> int:
    """Every deal of one board: each player holding decided with the strategy functions on each of the ten flop
    splits, each dealer holding settled with ``main_bet_returns``; returns the total paid back (cents, Ante 2)."""
    unseen = [card for card in FULL_DECK if card not in board]
    holdings = list(combinations(unseen, 2))
    strength = {holding: holdem_strength((*holding, *board)) for holding in holdings}
    flops = list(combinations(board, 3))
    ante = SIMULATION_ANTE
    total = 0
    for holding in holdings:
        if raises_preflop(holding):
            multiples = Counter({4: len(flops)})
        else:
            river = 1 if plays_on_river(holding, board) else 0
            multiples = Counter(2 if raises_on_flop(holding, flop) else river for flop in flops)
        player = strength[holding]
        for dealer in holdings:
            if dealer[0] in holding or dealer[1] in holding:
                continue
            for multiple, splits in multiples.items():
                returned = main_bet_returns(ante, multiple * ante, multiple == 0, player, strength[dealer])
                total += splits * sum(returned)
    return total


def exact_main_bet_section(sample_rounds: int, brute_force_boards: int, seed: int) -> None:
    print("Exact main-bet return (uth_rtp's count of every deal) against simulation and brute force")
    print("| method | time | 95 % precision of the Ante return | this ÷ ours on 2 processes |")
    print("|---|---:|---:|---:|")
    timings = {}
    processor_seconds = {}
    for workers in (1, 2):
        started, before = time.perf_counter(), os.times()
        totals = basic_strategy_totals(workers)
        timings[workers], after = time.perf_counter() - started, os.times()
        processor_seconds[workers] = sum(after[:4]) - sum(before[:4])  # this process and its workers, user + system
        assert totals == RECORDED_BASIC_STRATEGY_TOTALS
    figure = float(totals.return_per_ante()) * 100
    for workers in (1, 2):
        print(
            f"| ours: count by board class and card type, {workers} process(es) ({figure:.4f}% per Ante, "
            f"{CASES:,} deals) | {timings[workers]:.1f} s | exact | {timings[workers] / timings[2]:.2f}× |"
        )
    started = time.perf_counter()
    simulation = simulate_main_bets(sample_rounds, random.Random(seed))
    elapsed = time.perf_counter() - started
    half_width = simulation.per_initial_bet().half_width
    rounds_needed = sample_rounds * (half_width / 0.0005) ** 2
    seconds = rounds_needed / (sample_rounds / elapsed) / 2
    print(
        f"| simulate_main_bets on 2 processes, {rounds_needed:,.0f} rounds (extrapolated from ±{half_width * 100:.2f}% "
        f"on {sample_rounds:,}) | {seconds:,.0f} s ({seconds / 3600:.1f} h) | ±0.05 % | "
        f"{seconds / timings[2]:,.0f}× |"
    )
    rng = random.Random(seed)
    boards = [rng.sample(FULL_DECK, 5) for _ in range(brute_force_boards)]
    started = time.perf_counter()
    for board in boards:
        brute_force_board(board)
    per_board = (time.perf_counter() - started) / len(boards)
    seconds = per_board * comb(52, 5) / 2
    print(
        f"| brute force on 2 processes: strategy functions + main_bet_returns for every deal ({per_board:.1f} s a "
        f"board, extrapolated to {comb(52, 5):,} boards) | {seconds:,.0f} s ({seconds / 86400:,.0f} days) | exact | "
        f"{seconds / timings[2]:,.0f}× |"
    )
    print(
        f"(CPU time of the count: {processor_seconds[1]:.1f} s on one process, {processor_seconds[2]:.1f} s over two; "
        "the wall-clock times depend on what else the machine runs)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000, help="rounds for the engine loops (default 20,000)")
    parser.add_argument("--seed", type=int, default=20260301)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sample-rounds", type=int, default=200_000, help="rounds to measure the simulation's error")
    parser.add_argument("--brute-force-boards", type=int, default=2, help="boards to time the brute force on")
    parser.add_argument("--skip-exact", action="store_true", help="leave out the exact main-bet count (about 1 min)")
    arguments = parser.parse_args()
    rounds, repeat = arguments.rounds, arguments.repeat

    print(f"Machine: {os.cpu_count()} cores, {platform.platform()}, CPython {platform.python_version()}")
    with contextlib.suppress(OSError):
        print(f"Load average before the run: {os.getloadavg()[0]:.2f}")
    print()
    print("Rounds simulated per second (pure engine, one core)")
    print("| loop | rounds | rounds/s | hands settled/s |")
    print("|---|---:|---:|---:|")
    for players in (1, 20):
        count = max(1, rounds // (4 if players > 1 else 1))
        elapsed = best_time(
            lambda players=players, count=count: engine_rounds(count, players, random.Random(arguments.seed)), repeat
        )
        print(
            f"| RoundState, {players} player(s), basic strategy | {count:,} | {count / elapsed:,.0f} | "
            f"{count * players / elapsed:,.0f} |"
        )
    lean = rounds * 5
    elapsed = best_time(lambda: simulate_main_bets(lean, random.Random(arguments.seed)), repeat)
    print(f"| simulate_main_bets (uth_rtp's loop) | {lean:,} | {lean / elapsed:,.0f} | {lean / elapsed:,.0f} |")
    print()
    print("Minimal round (deal nine cards, PLAY 4x, showdown, settle Ante/Blind/Play/Trips) by showdown evaluator")
    print("| showdown by | rounds | rounds/s | ours ÷ this |")
    print("|---|---:|---:|---:|")
    count = rounds * 5
    ours_seconds = best_time(lambda: minimal_rounds(count, random.Random(arguments.seed)), repeat)
    treys_seconds = best_time(lambda: treys_minimal_rounds(rounds, random.Random(arguments.seed)), repeat)
    ours_rate, treys_rate = count / ours_seconds, rounds / treys_seconds
    print(f"| ours (holdem_strength + main_bet_returns) | {count:,} | {ours_rate:,.0f} | 1.0× |")
    print(
        f"| treys (Evaluator.evaluate + get_rank_class) | {rounds:,} | {treys_rate:,.0f} | "
        f"{ours_rate / treys_rate:.1f}× |"
    )
    same = minimal_rounds(2_000, random.Random(7)) == treys_minimal_rounds(2_000, random.Random(7))
    print(f"(both loops pay the same total on the same 2,000 deals: {same})")
    print()
    print("Exact Trips RTP (uth_rtp's enumeration) against brute force over all 133,784,560 hands")
    counted = best_time(lambda: trips_rtp_exact(seven_card_class_counts()), repeat)
    rtp = trips_rtp_exact(seven_card_class_counts())
    print("| method | time | ours ÷ this |")
    print("|---|---:|---:|")
    print(
        f"| ours: count by rank multiset and flush structure (Trips RTP {float(rtp) * 100:.4f}%) | "
        f"{counted:.2f} s | 1× |"
    )
    rng = random.Random(arguments.seed)
    sample_hands = [rng.sample(FULL_DECK, 7) for _ in range(100_000)]
    ours_brute = best_time(lambda: [holdem_strength(hand) for hand in sample_hands], repeat) / len(sample_hands)
    treys = TreysEvaluator()
    treys_hands = [[TreysCard.new(str(card)) for card in hand] for hand in sample_hands[:20_000]]
    treys_brute = best_time(lambda: [treys.evaluate(hand[:2], hand[2:]) for hand in treys_hands], repeat) / len(
        treys_hands
    )
    total = comb(52, 7)
    for name, per_hand in (("brute force, holdem_strength", ours_brute), ("brute force, treys", treys_brute)):
        seconds = per_hand * total
        print(
            f"| {name} (extrapolated from a sample) | {seconds:,.0f} s ({seconds / 60:.1f} min) | "
            f"{seconds / counted:,.0f}× |"
        )
    if not arguments.skip_exact:
        print()
        exact_main_bet_section(arguments.sample_rounds, arguments.brute_force_boards, arguments.seed)


if __name__ == "__main__":
    main()
