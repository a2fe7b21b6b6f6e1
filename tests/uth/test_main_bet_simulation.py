"""The main bets' return under the basic strategy, estimated by simulation (UTH-21) and the strategy behind it.

The simulation is a cross-check of the exact count (games.engine.uth.main_bet_exact): it plays the same strategy, so
its confidence interval must hold the strategy's exact return (the published figures are for perfect play)."""

from __future__ import annotations

import random

from games.engine.cards import parse_cards
from games.engine.uth.main_bet_exact import RECORDED_BASIC_STRATEGY_TOTALS
from games.engine.uth.round import Decision, Phase
from games.engine.uth.rtp import simulate_main_bets
from games.engine.uth.strategy import basic_strategy, dealer_outs, raises_on_flop, raises_preflop


def test_uth_21_the_simulated_main_bet_returns_agree_with_the_exact_count_of_the_same_strategy() -> None:
    simulation = simulate_main_bets(60_000, random.Random(2026)).merged_with(
        simulate_main_bets(60_000, random.Random(2027))
    )
    assert simulation.rounds == 120_000
    initial = simulation.per_initial_bet()
    total = simulation.per_total_bet()
    assert initial.contains(float(RECORDED_BASIC_STRATEGY_TOTALS.return_per_ante()))
    assert total.contains(float(RECORDED_BASIC_STRATEGY_TOTALS.return_per_total_bet()))
    # With ~120k rounds the interval is a few percent wide, not a rubber band.
    assert initial.half_width < 0.03
    assert total.half_width < 0.01


def test_the_same_seed_gives_the_same_simulation() -> None:
    first = simulate_main_bets(2_000, random.Random(9))
    second = simulate_main_bets(2_000, random.Random(9))
    assert first.strata == second.strata


def test_basic_strategy_before_the_flop_follows_the_published_list() -> None:
    raise_4x = ["3c 3d", "Ac 2d", "Kc 5d", "Kh 2h", "Qc 8d", "Qh 6h", "Jc Td", "Jh 8h"]
    check = ["2c 2d", "Kc 4d", "Qc 7d", "Qh 5h", "Jc 9d", "Jh 7h", "Tc 9c", "7c 2d"]
    assert all(raises_preflop(parse_cards(hole)) for hole in raise_4x)
    assert not any(raises_preflop(parse_cards(hole)) for hole in check)
    assert basic_strategy(Phase.PREFLOP, parse_cards("Ac 2d"), ()) is Decision.PLAY_4X


def test_basic_strategy_after_the_flop_bets_hidden_pairs_two_pair_and_strong_flush_draws() -> None:
    assert raises_on_flop(parse_cards("9c 4d"), parse_cards("9h Ks 2c"))  # hidden pair
    assert not raises_on_flop(parse_cards("2c 2d"), parse_cards("9h Ks 5c"))  # pocket deuces
    assert raises_on_flop(parse_cards("Th 4d"), parse_cards("2h 7h 9h"))  # four to a flush with a hidden ten
    assert not raises_on_flop(parse_cards("9h 4d"), parse_cards("2h 7h Kh"))  # flush draw, hidden card below ten
    assert not raises_on_flop(parse_cards("9c 4d"), parse_cards("Kh Ks Kc"))  # trips on the board only


def test_basic_strategy_at_the_river_plays_hidden_pairs_and_folds_against_many_dealer_outs() -> None:
    board = parse_cards("Kh 9s 6c 3d 2h")
    assert basic_strategy(Phase.RIVER, parse_cards("9c 4d"), board) is Decision.PLAY_1X
    assert dealer_outs(parse_cards("7c 4d"), board) >= 21
    assert basic_strategy(Phase.RIVER, parse_cards("7c 4d"), board) is Decision.FOLD
