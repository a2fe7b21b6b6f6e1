"""``manage.py uth_rtp``: the return to player of Ultimate Texas Hold'em (UTH-21).

* Trips, exactly: every one of the C(52, 7) = 133,784,560 seven-card hands is counted by its best-five class (by
  structure, see games.engine.uth.rtp), and the paytable applied to the counts. It must show 96.50 %.
* Ante / Blind / Play, exactly: every deal (board, flop split, player cards, dealer cards: 27.8 × 10¹² cases) played
  with the basic strategy (games.engine.uth.strategy) and settled (games.engine.uth.main_bet_exact), next to the
  published perfect-play figures, 97.82 % per initial main bet (the Ante) and 99.47 % per total main bet. The count
  takes about 40 s of CPU; ``--skip-enumeration`` shows the recorded totals of that count instead.
* The same by simulation (unless ``--skip-simulation``): rounds dealt at random and played with the same strategy, a
  cross-check whose 95 % confidence interval must hold the exact figures.
"""

from __future__ import annotations

import os
import random
import time
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.engine.uth.main_bet_exact import (
    CASES,
    RECORDED_BASIC_STRATEGY_TOTALS,
    MainBetTotals,
    basic_strategy_totals,
)
from games.engine.uth.paytables import TRIPS_PAYTABLE, HandClass
from games.engine.uth.rtp import (
    PUBLISHED_INITIAL_MAIN_BET_RTP,
    PUBLISHED_TOTAL_MAIN_BET_RTP,
    PUBLISHED_TRIPS_RTP,
    SEVEN_CARD_HANDS,
    Estimate,
    MainBetSimulation,
    seven_card_class_counts,
    simulate_main_bets,
    trips_rtp_exact,
)


def _simulate_part(rounds: int, seed: int) -> MainBetSimulation:
    return simulate_main_bets(rounds, random.Random(seed))


def _percent(value: float) -> str:
    return f"{value * 100:.2f}%"


def _exact_percent(value: Fraction) -> str:
    return f"{float(value) * 100:.4f}%"


class Command(BaseCommand):
    help = (
        "Print the exact Trips RTP, the exact Ante/Blind/Play RTP of the basic strategy (every deal counted) and a "
        "simulated cross-check (UTH-21)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rounds", type=int, default=1_000_000, help="rounds to simulate (default 1,000,000)")
        parser.add_argument("--seed", type=int, default=None, help="seed for a reproducible simulation")
        parser.add_argument(
            "--workers",
            type=int,
            default=os.cpu_count() or 1,
            help="processes for the count and the simulation (default: CPUs)",
        )
        parser.add_argument("--skip-simulation", action="store_true", help="no simulated cross-check")
        parser.add_argument(
            "--skip-enumeration",
            action="store_true",
            help="show the recorded totals of the main-bet count instead of counting every deal again (~40 s of CPU)",
        )

    def handle(
        self,
        *args: Any,
        rounds: int,
        seed: int | None,
        workers: int,
        skip_simulation: bool,
        skip_enumeration: bool,
        **options: Any,
    ) -> None:
        write = self.stdout.write
        write("Ultimate Texas Hold'em — return to player (UTH-21)")
        write("")
        self._trips()
        write("")
        totals = self._main_bets_exact(max(1, workers), skip_enumeration)
        if skip_simulation:
            return
        write("")
        self._main_bets_simulated(rounds, seed, max(1, min(workers, rounds)), totals)

    def _trips(self) -> None:
        write = self.stdout.write
        started = time.perf_counter()
        counts = seven_card_class_counts()
        exact = trips_rtp_exact(counts)
        elapsed = time.perf_counter() - started
        write(f"Trips bet, exact: all {SEVEN_CARD_HANDS:,} seven-card hands counted by their best five cards")
        for hand in sorted(HandClass, reverse=True):
            odds = TRIPS_PAYTABLE.get(hand)
            pays = f"pays {odds}" if odds is not None else "loses"
            write(f"  {hand.display_name:<16} {counts[hand]:>12,}  {pays}")
        returned = exact * SEVEN_CARD_HANDS
        verdict = "matches" if round(exact, 4) == PUBLISHED_TRIPS_RTP else "DIFFERS"
        write(
            f"  Trips RTP: {_percent(float(exact))} ({float(exact) * 100:.4f}% = {int(returned):,} / "
            f"{SEVEN_CARD_HANDS:,}); published {_percent(float(PUBLISHED_TRIPS_RTP))}: {verdict}"
        )
        write(f"  exact enumeration took {elapsed:.2f} s")

    def _main_bets_exact(self, workers: int, skip_enumeration: bool) -> MainBetTotals:
        write = self.stdout.write
        write("Ante / Blind / Play under the basic strategy (games.engine.uth.strategy), exact:")
        if skip_enumeration:
            totals = RECORDED_BASIC_STRATEGY_TOTALS
            write(
                f"  the recorded totals of the count of all {CASES:,} deals (board, flop split, player cards, dealer "
                "cards); not counted again"
            )
        else:
            write(
                f"  counting all {CASES:,} deals (board, flop split, player cards, dealer cards; 134,459 boards up to "
                f"suit symmetry) on {workers} process(es)"
            )
            started = time.perf_counter()
            totals = basic_strategy_totals(workers)
            elapsed = time.perf_counter() - started
            same = "equal to" if totals == RECORDED_BASIC_STRATEGY_TOTALS else "DIFFERENT FROM"
            write(f"  counted in {elapsed:.1f} s; the totals are {same} the recorded ones")
        self._exact("per initial main bet (Ante)", totals.return_per_ante(), PUBLISHED_INITIAL_MAIN_BET_RTP)
        self._exact("per total main bet       ", totals.return_per_total_bet(), PUBLISHED_TOTAL_MAIN_BET_RTP)
        write(
            "  Every deal is counted, so the figures have no sampling error; the published figures assume perfect "
            "play, which this strategy approaches."
        )
        return totals

    def _exact(self, label: str, exact: Fraction, published: Fraction) -> None:
        given_up = published - exact
        self.stdout.write(
            f"  {label}: {_exact_percent(exact)} ± 0.0000% (exact); published {_percent(float(published))} "
            f"(perfect play); the basic strategy gives up {float(given_up) * 100:.4f}%"
        )

    def _main_bets_simulated(self, rounds: int, seed: int | None, workers: int, totals: MainBetTotals) -> None:
        write = self.stdout.write
        base_seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
        write(
            f"Ante / Blind / Play under the basic strategy, simulated (a cross-check of the count): {rounds:,} rounds, "
            f"{workers} process(es), seed {base_seed}"
        )
        started = time.perf_counter()
        shares = [rounds // workers + (1 if index < rounds % workers else 0) for index in range(workers)]
        if workers == 1:
            parts = [_simulate_part(shares[0], base_seed)]
        else:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                parts = list(pool.map(_simulate_part, shares, [base_seed + index for index in range(workers)]))
        simulation = parts[0]
        for part in parts[1:]:
            simulation = simulation.merged_with(part)
        elapsed = time.perf_counter() - started
        self._estimate("per initial main bet (Ante)", simulation.per_initial_bet(), totals.return_per_ante())
        self._estimate("per total main bet       ", simulation.per_total_bet(), totals.return_per_total_bet())
        write(f"  simulated in {elapsed:.1f} s ({simulation.rounds / elapsed:,.0f} rounds/s)")

    def _estimate(self, label: str, estimate: Estimate, exact: Fraction) -> None:
        inside = "inside" if estimate.contains(float(exact)) else "OUTSIDE"
        self.stdout.write(
            f"  {label}: {_percent(estimate.value)}  (95% CI {_percent(estimate.low)} – {_percent(estimate.high)}); "
            f"the exact {_exact_percent(exact)} is {inside} the interval"
        )
