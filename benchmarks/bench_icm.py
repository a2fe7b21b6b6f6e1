"""ICM chop speed (CXL-11, AMB-17): the fixed-point method (``icm_chop``'s default between the exact method's
2^15 steps and 2^20 terms) against the exact sum over sets, the recursion over finishing orders and the set-probability
programme; the exact subset programme against the recursion; and the Monte-Carlo approximation for big fields against
the exact values where both run.

Run standalone: ``.venv/bin/python benchmarks/bench_icm.py [--repeat N] [--samples N] [--deep] [--seed S]``.

* Fixed point (``icm_chop`` by its default method, the cents included): 10/10 to 20/20 players/paid places, and
  bigger fields paying few places (30/5, 60/3, 100/3: the sums by levels). Target (issue 25, AMB-17): 18 players paid
  9 places in under 0.5 s of one core (the best process time of ``--repeat`` runs: the machine may be shared by other
  work, which the wall-clock time, printed beside it, would count); the script exits 1 when it is missed. Peers
  in the same run: the exact sum over sets (``method=EXACT``, exact fractions; the earlier default) wherever it visits
  at most 16,384 sets — beyond, it takes over 5 s (18 players paid 7 places about 10 s, paid 9 about 40 s) and is
  skipped; ``--deep`` runs it up to 131,072 sets (18 paid 9) — and the recursion over finishing orders wherever it
  has at most 100,000 orders: the cents must be the same as theirs, or the script stops. A third peer, up to 18
  players: the programme over q(S), the probability that the players of S took the top |S| places (q(S) =
  Σ_{j∈S} q(S∖j) × s_j / R(S∖j), by bit masks, level by level), in the same kind of fixed point (128 bits) — the way
  issue 25's brief suggested; its equities must agree with ours to 10^-9 cents.
* Exact (``icm_equities``, exact rationals): 10 players paying 3, 5 and all 10 places; 18 players paying 3 to 6
  places (``--deep`` adds 18 players paying 7 and 9, and 12 paying all 12: minutes). The peer is
  ``icm_equities_by_permutations`` (the recursion over the n!/(n−k)! finishing orders, also exact) wherever it has at
  most 100,000 orders; both must give the same fractions.
* Approximation (``approximate_icm_equities``: places 1–2 exact, the rest by conditional Monte Carlo over
  ``--samples`` sampled finishing orders, default 10,000):
  100, 500 and 1,000 players, with every remaining player paid (a cancelled final stage in the money) and with 15 %
  paid. Reported: time, the largest standard error and the largest as a share of the prize pool.
* Approximation against exact where both run: the largest error in cents and in standard errors.

Stacks are random whole chips (1,000–60,000), prizes a harmonic structure (place k ∝ 1/k) of a €1,000 or €100,000
pool in cents. Times are one core, best of ``--repeat`` runs for the quick cases, one run for cases over a second.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.rules.icm import (
    DEFAULT_SAMPLES,
    ERROR_BOUND_IN_STANDARD_ERRORS,
    IcmMethod,
    approximate_icm_equities,
    chop_equities,
    default_method,
    exact_sets,
    exact_steps,
    icm_chop,
    icm_equities,
    icm_equities_by_permutations,
    round_shares_to_cents,
)

PEER_ORDER_LIMIT = 100_000
EXACT_PEER_SET_LIMIT = 16_384
DEEP_EXACT_PEER_SET_LIMIT = 131_072  # with --deep: 18 players paid 9 places (106,762 sets, about 40 s), not 18/18
TARGET_CASE = (18, 9)
TARGET_SECONDS = 0.5
FIXED_POINT_CASES = [(10, 10), (12, 12), (13, 13), (14, 14), (16, 16), (18, 3), (18, 6), (18, 7), (18, 9), (18, 18)]
FIXED_POINT_CASES += [(20, 10), (20, 20), (30, 5), (60, 3), (100, 3)]
EXACT_CASES = [(3, 3), (9, 3), (10, 3), (10, 5), (10, 10), (18, 3), (18, 4), (18, 5), (18, 6)]
DEEP_CASES = [(12, 12), (18, 7), (18, 9)]
APPROXIMATION_FIELDS = [100, 500, 1_000]
EARLIER_CASES = [(10, 10), (12, 12), (13, 13), (14, 14), (18, 5), (18, 6)]
EARLIER_DEEP_CASES = [(18, 9)]
CHECKED_CASES = [(10, 10), (12, 6), (18, 5), (30, 3), (60, 3)]


def stacks_for(players: int, seed: int) -> list[int]:
    generator = random.Random(seed * 1_000 + players)
    return [generator.randint(1_000, 60_000) for _ in range(players)]


def harmonic_prizes(pool_cents: int, places: int) -> list[int]:
    """Place k gets pool × (1/k) / Σ 1/j, rounded down; the cents left over go to first place."""
    weights = [Fraction(1, place) for place in range(1, places + 1)]
    total = sum(weights)
    prizes = [math.floor(pool_cents * weight / total) for weight in weights]
    prizes[0] += pool_cents - sum(prizes)
    return prizes


def timed(function: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Seconds of the best of ``repeat`` runs (one run if the first takes over a second) and the last result."""
    best = math.inf
    result = None
    for _ in range(repeat):
        started = time.perf_counter()
        result = function()
        elapsed = time.perf_counter() - started
        best = min(best, elapsed)
        if elapsed > 1:
            break
    return best, result


def orders(players: int, places: int) -> int:
    return math.perm(players, places)


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:,.2f} ms" if seconds < 10 else f"{seconds:,.1f} s"


def timed_cpu(function: Callable[[], Any], repeat: int) -> tuple[float, float, Any]:
    """Best wall-clock seconds and best CPU seconds of ``repeat`` runs, and the last result."""
    best_wall = best_cpu = math.inf
    result = None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = function()
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    return best_wall, best_cpu, result


def bench_fixed_point(cases: list[tuple[int, int]], repeat: int, seed: int, deep: bool) -> tuple[float, float]:
    """The table of the fixed-point method against its peers; returns the best CPU and wall-clock times of the target
    case."""
    print("ICM chop by the default method (fixed point above 2^15 exact steps): ours = icm_chop, cents included;")
    print(f"exact = the exact sum over sets (fractions), run up to {EXACT_PEER_SET_LIMIT:,} sets (over 5 s beyond)")
    print("unless --deep; recursion = the finishing orders, up to 100,000 orders. Best of --repeat runs; CPU is the")
    print("best process time (the target counts it: one core's work, whatever else runs on the machine).")
    print(
        f"{'players':>7} {'paid':>4} {'method':>11} {'ours':>10} {'ours CPU':>10} {'exact sets':>10} {'exact':>10}"
        f" {'exact ÷ ours':>12} {'recursion':>10} {'q(S) fixed':>10} {'q(S) ÷ ours':>11} {'cents':>6}"
    )
    target = (math.inf, math.inf)
    for players, places in cases:
        stacks = stacks_for(players, seed)
        prizes = harmonic_prizes(100_000_00, places)
        wall, cpu, chop = timed_cpu(partial(icm_chop, stacks, prizes), repeat)
        if (players, places) == TARGET_CASE:
            target = (cpu, wall)
        assert sum(chop.cents) == sum(prizes)
        exact_text = ratio_text = recursion_text = "skipped"
        cents_text = "—"
        sets = exact_sets(players, places)
        if sets <= (DEEP_EXACT_PEER_SET_LIMIT if deep else EXACT_PEER_SET_LIMIT):
            started = time.perf_counter()
            exact = icm_chop(stacks, prizes, method=IcmMethod.EXACT)
            exact_seconds = time.perf_counter() - started
            if exact.cents != chop.cents:
                raise SystemExit(f"the fixed-point chop pays other cents than the exact one: {players}/{places}")
            exact_text, ratio_text, cents_text = milliseconds(exact_seconds), f"{exact_seconds / wall:,.0f}×", "same"
        if orders(players, places) <= PEER_ORDER_LIMIT:
            started = time.perf_counter()
            reference = icm_equities_by_permutations(stacks, prizes)
            recursion_text = milliseconds(time.perf_counter() - started)
            if round_shares_to_cents(reference, stacks, range(1, players + 1)) != chop.cents:
                raise SystemExit(f"the fixed-point chop pays other cents than the recursion: {players}/{places}")
            cents_text = "same"
        programme_text = programme_ratio = "skipped"
        if players <= 18:
            started = time.perf_counter()
            peer_equities = set_probability_fixed_point(stacks, prizes)
            programme_seconds = time.perf_counter() - started
            programme_text, programme_ratio = milliseconds(programme_seconds), f"{programme_seconds / wall:,.1f}×"
            ours = [Fraction(numerator, chop.equities.denominator) for numerator in chop.equities.numerators]
            if max(abs(mine - theirs) for mine, theirs in zip(ours, peer_equities, strict=True)) > Fraction(1, 10**9):
                raise SystemExit(f"the q(S) programme and the sum over sets differ for {players}/{places}")
        print(
            f"{players:>7} {places:>4} {chop.equities.method.value:>11} {milliseconds(wall):>10}"
            f" {milliseconds(cpu):>10} {sets:>10,} {exact_text:>10} {ratio_text:>12} {recursion_text:>10}"
            f" {programme_text:>10} {programme_ratio:>11} {cents_text:>6}"
        )
    print()
    return target


def set_probability_fixed_point(stacks: list[int], prizes: list[int], shift: int = 128) -> list[Fraction]:
    """The peer: the programme over q(S) by bit masks in fixed point (units of 2^-shift), level by level: u(S) =
    ⌊q(S) / R(S)⌋, q(S') = Σ_{i∈S'} u(S'∖i) × s_i, and player i's chance of place |S| + 1 summed from u(S) × s_i over
    the sets S without i. Returns the equities in cents (the fixed-point values, for the comparison to 10^-9 cents)."""
    players = len(stacks)
    places = min(len(prizes), players)
    bits = [1 << player for player in range(players)]
    rate: dict[int, int] = {0: (1 << shift) // sum(stacks)}
    outside = {0: sum(stacks)}
    reached = [[0] * players for _ in range(places)]
    level: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    for size in range(1, places + 1):
        last = size == places
        next_rate: dict[int, int] = {}
        next_level = []
        own = reached[size - 1]
        for members_bits, members in level:
            for player in range(members[-1] + 1 if members else 0, players):
                grown_bits = members_bits | bits[player]
                grown = (*members, player)
                chance = 0
                for member in grown:
                    step = rate[grown_bits ^ bits[member]]
                    own[member] += step
                    chance += step * stacks[member]
                if not last:
                    chips_outside = outside[members_bits] - stacks[player]
                    outside[grown_bits] = chips_outside
                    next_rate[grown_bits] = chance // chips_outside
                    next_level.append((grown_bits, grown))
        rate, level = next_rate, next_level
    return [
        Fraction(stacks[player] * sum(prizes[place] * reached[place][player] for place in range(places)), 2**shift)
        for player in range(players)
    ]


def bench_exact(cases: list[tuple[int, int]], repeat: int, seed: int) -> None:
    print("Exact ICM (exact rationals): ours = subset programme; peer = recursion over finishing orders")
    print(f"{'players':>7} {'paid':>4} {'steps':>9} {'ours':>12} {'orders':>11} {'peer':>12} {'peer ÷ ours':>11}")
    for players, places in cases:
        stacks = stacks_for(players, seed)
        prizes = harmonic_prizes(100_000, places)
        ours, equities = timed(lambda stacks=stacks, prizes=prizes: icm_equities(stacks, prizes), repeat)
        assert sum(equities) == sum(prizes)
        peer_text = ratio_text = "—"
        if orders(players, places) <= PEER_ORDER_LIMIT:
            peer, reference = timed(
                lambda stacks=stacks, prizes=prizes: icm_equities_by_permutations(stacks, prizes), repeat
            )
            if reference != equities:
                raise SystemExit(f"the recursion and the programme disagree for {players} players, {places} paid")
            peer_text, ratio_text = milliseconds(peer), f"{peer / ours:,.1f}×"
        print(
            f"{players:>7} {places:>4} {exact_steps(players, places):>9,} {milliseconds(ours):>12}"
            f" {orders(players, places):>11,} {peer_text:>12} {ratio_text:>11}"
        )
    print()


def earlier_exact(stacks: list[int], prizes: list[int]) -> tuple[list[int], int]:
    """The exact method before the sum over sets (AMB-17, issue 25): the programme over q(S), the probability that the
    players of S took the top |S| places, in integers over the product of each level's lcm of R(S). Kept here as the
    peer of the time comparison; the same folding of the last place and the same division by the stacks' gcd."""
    players = len(stacks)
    certain = 0
    if len(prizes) == players:
        certain = prizes[-1]
        prizes = [prize - certain for prize in prizes[:-1]]
    while prizes and prizes[-1] == 0:
        prizes = prizes[:-1]
    if not prizes:
        return [certain] * players, 1
    divisor = math.gcd(*stacks)
    chips = [stack // divisor for stack in stacks]
    places = len(prizes)
    bits = [1 << player for player in range(players)]
    levels: list[dict[int, int]] = [{0: sum(chips)}]
    for _ in range(1, places):
        level: dict[int, int] = {}
        for members, chips_outside in levels[-1].items():
            for player in range(members.bit_length(), players):
                level[members | bits[player]] = chips_outside - chips[player]
        levels.append(level)
    denominator = 1
    for level in levels:
        denominator *= math.lcm(*level.values())
    probability: dict[int, int] = {0: denominator}
    expected = [0] * players
    for place in range(places):
        last = place == places - 1
        next_probability: dict[int, int] = {}
        finishing_here = [0] * players
        for members, scaled in probability.items():
            share = scaled // levels[place][members]
            for player in range(players):
                if members & bits[player]:
                    continue
                finishing_here[player] += share
                if not last:
                    grown = members | bits[player]
                    next_probability[grown] = next_probability.get(grown, 0) + share * chips[player]
        for player in range(players):
            expected[player] += finishing_here[player] * prizes[place]
        probability = next_probability
    return [certain * denominator + expected[player] * chips[player] for player in range(players)], denominator


def bench_against_earlier(cases: list[tuple[int, int]], seed: int) -> None:
    print("Exact ICM: the sum over sets (icm_chop's exact method) beside the earlier set-probability programme")
    print(f"{'players':>7} {'paid':>4} {'sets':>7} {'sum over sets':>14} {'earlier':>12} {'earlier ÷ now':>14}")
    for players, places in cases:
        stacks = stacks_for(players, seed)
        prizes = harmonic_prizes(100_000_00, places)
        now, ours = timed(partial(chop_equities, stacks, prizes, method=IcmMethod.EXACT), 1)
        before, theirs = timed(partial(earlier_exact, stacks, prizes), 1)
        if Fraction(ours.numerators[0], ours.denominator) != Fraction(theirs[0][0], theirs[1]):
            raise SystemExit(f"the two exact methods differ for {players} players paid {places} places")
        print(
            f"{players:>7} {places:>4} {exact_sets(players, places):>7,} {milliseconds(now):>14}"
            f" {milliseconds(before):>12} {before / now:>13.1f}×"
        )
    print()


def bench_approximation(samples: int, seed: int) -> None:
    print(f"Approximation: places 1–2 exact, the rest over {samples:,} sampled finishing orders (pool €100,000)")
    print(f"{'players':>7} {'paid':>5} {'time':>10} {'largest SE':>12} {'÷ pool':>9} {'mean SE':>10}")
    for players in APPROXIMATION_FIELDS:
        for places in (players, max(3, players * 15 // 100)):
            stacks = stacks_for(players, seed)
            prizes = harmonic_prizes(10_000_000, places)
            started = time.perf_counter()
            estimate = approximate_icm_equities(stacks, prizes, samples=samples, seed=seed)
            elapsed = time.perf_counter() - started
            errors = estimate.standard_errors
            assert errors is not None
            print(
                f"{players:>7} {places:>5} {elapsed:>9.2f}s {max(errors) / 100:>10.2f} €"
                f" {max(errors) / 10_000_000:>9.4%} {sum(errors) / len(errors) / 100:>8.2f} €"
            )
    print()


def bench_against_exact(samples: int, seed: int) -> None:
    print(f"Approximation ({samples:,} samples) against the exact values (pool €1,000)")
    print(f"{'players':>7} {'paid':>4} {'exact':>10} {'approx.':>10} {'largest error':>14} {'largest error ÷ SE':>19}")
    for players, places in CHECKED_CASES:
        stacks = stacks_for(players, seed)
        prizes = harmonic_prizes(100_000, places)
        started = time.perf_counter()
        exact = icm_equities(stacks, prizes)
        exact_seconds = time.perf_counter() - started
        started = time.perf_counter()
        estimate = approximate_icm_equities(stacks, prizes, samples=samples, seed=seed)
        approximation_seconds = time.perf_counter() - started
        assert estimate.standard_errors is not None
        errors = [abs(float(guess - truth)) for guess, truth in zip(estimate.equities, exact, strict=True)]
        in_errors = [
            error / standard_error
            for error, standard_error in zip(errors, estimate.standard_errors, strict=True)
            if standard_error
        ]
        worst_ratio = max(in_errors, default=0.0)
        flag = "" if worst_ratio <= ERROR_BOUND_IN_STANDARD_ERRORS else "  OUTSIDE THE BOUND"
        print(
            f"{players:>7} {places:>4} {exact_seconds:>9.2f}s {approximation_seconds:>9.2f}s"
            f" {max(errors):>11.2f} ct {worst_ratio:>18.2f}{flag}"
        )
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--seed", type=int, default=20261125)
    parser.add_argument(
        "--deep", action="store_true", help="also 12/12, 18/7 and 18/9 exactly, and the exact peer everywhere (minutes)"
    )
    parser.add_argument(
        "--earlier", action="store_true", help="only the exact method beside the earlier one (10/10 to 18/6)"
    )
    arguments = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, load average {os.getloadavg()[0]:.2f}")
    print()
    if arguments.earlier:
        bench_against_earlier(EARLIER_CASES + (EARLIER_DEEP_CASES if arguments.deep else []), arguments.seed)
        return
    assert default_method(*TARGET_CASE) is IcmMethod.FIXED_POINT
    target_cpu, target_wall = bench_fixed_point(FIXED_POINT_CASES, arguments.repeat, arguments.seed, arguments.deep)
    bench_exact(EXACT_CASES + (DEEP_CASES if arguments.deep else []), arguments.repeat, arguments.seed)
    bench_approximation(arguments.samples, arguments.seed)
    bench_against_exact(arguments.samples, arguments.seed)
    players, places = TARGET_CASE
    verdict = "met" if target_cpu < TARGET_SECONDS else "MISSED"
    print(
        f"Target: {players} players paid {places} places under {TARGET_SECONDS} s of one core:"
        f" {milliseconds(target_cpu)} {verdict} (wall-clock {milliseconds(target_wall)},"
        f" load average {os.getloadavg()[0]:.2f})"
    )
    if target_cpu >= TARGET_SECONDS:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
