"""Return to player (UTH-21): the Trips bet exactly, the main bets by simulation (their exact count is in
games.engine.uth.main_bet_exact; the simulation is its independent cross-check).

**Trips, exactly.** The Trips bet pays on the class of the player's best five of seven cards, so its return is
``Σ count(class) × (odds + 1) / C(52, 7)``. Instead of evaluating all 133,784,560 seven-card hands,
:func:`seven_card_class_counts` counts them by structure:

1. Every multiset of seven ranks (no rank more than four times; 49,205 of them) occurs with
   ``Π C(4, cᵣ)`` suit assignments. Ignoring flushes, the hand class depends on the ranks alone, so each multiset's
   count goes to the class of its best non-flush hand (evaluated once on a representative hand whose suits cannot
   make a flush).
2. Some of those assignments are flushes. Seven cards hold at most one suit five or more times, and such a hand's
   best hand is always a flush or straight flush (quads or a full house would need three cards outside the suit).
   For the flush suit (×4 by symmetry), each set of k = 5, 6 or 7 ranks in it, and each way to fill the other 7 − k
   cards from the other three suits, the assignment is moved from the class step 1 gave its rank multiset to the
   flush class of the suited ranks (Royal Flush, Straight Flush or Flush).

Everything is integer arithmetic; the total is checked against C(52, 7); the return is a :class:`fractions.Fraction`.

**Main bets, by simulation.** :func:`simulate_main_bets` plays rounds with the documented basic strategy
(games.engine.uth.strategy) and estimates the Ante/Blind/Play return per initial main bet (the Ante) and per total
main bet (Ante + Blind + Play), each with a normal-approximation confidence interval (the second by the delta method,
as it is a ratio of two means).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb, prod
from typing import Final

from games.engine.cards import FULL_DECK, Card
from games.engine.evaluation import holdem_strength
from games.engine.uth.paytables import TRIPS_PAYTABLE, HandClass, hand_class
from games.engine.uth.settlement import main_bet_returns
from games.engine.uth.strategy import plays_on_river, raises_on_flop, raises_preflop

SEVEN_CARD_HANDS: Final[int] = comb(52, 7)
RANKS: Final[tuple[int, ...]] = tuple(range(2, 15))
_SUIT_CYCLE: Final[str] = "cdhs"

PUBLISHED_TRIPS_RTP: Final[Fraction] = Fraction(9650, 10000)
PUBLISHED_INITIAL_MAIN_BET_RTP: Final[Fraction] = Fraction(9782, 10000)
PUBLISHED_TOTAL_MAIN_BET_RTP: Final[Fraction] = Fraction(9947, 10000)


def _rank_multisets(remaining: int, first_rank_index: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``remaining`` ranks from RANKS[first_rank_index:], each rank at most four times, as a
    non-decreasing tuple."""
    if remaining == 0:
        yield ()
        return
    for index in range(first_rank_index, len(RANKS)):
        rank = RANKS[index]
        for copies in range(1, min(4, remaining) + 1):
            for rest in _rank_multisets(remaining - copies, index + 1):
                yield (rank,) * copies + rest


def _non_flush_class(ranks: tuple[int, ...], cache: dict[tuple[int, ...], HandClass]) -> HandClass:
    """The class of the best hand these ranks make without a flush (suits dealt round-robin: at most two per suit)."""
    key = tuple(sorted(ranks))
    found = cache.get(key)
    if found is None:
        cards = [Card(rank, _SUIT_CYCLE[position % 4]) for position, rank in enumerate(key)]
        found = hand_class(holdem_strength(cards))
        cache[key] = found
    return found


def seven_card_class_counts() -> dict[HandClass, int]:
    """How many of the C(52, 7) seven-card hands have each best-five class (see the module docstring)."""
    counts = dict.fromkeys(HandClass, 0)
    cache: dict[tuple[int, ...], HandClass] = {}
    for ranks in _rank_multisets(7, 0):
        ways = prod(comb(4, ranks.count(rank)) for rank in set(ranks))
        counts[_non_flush_class(ranks, cache)] += ways
    if sum(counts.values()) != SEVEN_CARD_HANDS:
        raise AssertionError("rank multisets do not cover every seven-card hand")

    flush_suit_choices = 4
    for suited_count in (5, 6, 7):
        others = 7 - suited_count
        # The other cards come from three suits: (rank multiset, number of suit choices for it).
        other_fillings: list[tuple[tuple[int, ...], int]]
        if others == 0:
            other_fillings = [((), 1)]
        elif others == 1:
            other_fillings = [((rank,), 3) for rank in RANKS]
        else:
            other_fillings = [((rank, rank), comb(3, 2)) for rank in RANKS]
            other_fillings += [((low, high), 3 * 3) for low, high in combinations(RANKS, 2)]
        for suited_ranks in combinations(RANKS, suited_count):
            flush_class = hand_class(holdem_strength([Card(rank, "s") for rank in suited_ranks]))
            for other_ranks, suit_choices in other_fillings:
                ways = flush_suit_choices * suit_choices
                counts[_non_flush_class(suited_ranks + other_ranks, cache)] -= ways
                counts[flush_class] += ways
    if sum(counts.values()) != SEVEN_CARD_HANDS or min(counts.values()) < 0:
        raise AssertionError("flush correction broke the total")
    return counts


def trips_rtp_exact(counts: dict[HandClass, int] | None = None) -> Fraction:
    """The exact Trips return per unit staked: Σ count × (odds + 1) over C(52, 7) (UTH-19, UTH-21)."""
    counts = counts if counts is not None else seven_card_class_counts()
    returned = Fraction(0)
    for hand, odds in TRIPS_PAYTABLE.items():
        returned += counts[hand] * (Fraction(odds.numerator, odds.denominator) + 1)
    return returned / SEVEN_CARD_HANDS


@dataclass(frozen=True, slots=True)
class Estimate:
    """A simulated return with its confidence interval (as fractions of the stake: 0.9782 is 97.82 %)."""

    value: float
    low: float
    high: float

    def contains(self, target: float) -> bool:
        return self.low <= target <= self.high

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


@dataclass(frozen=True, slots=True)
class StratumTotals:
    """Running sums of one stratum (the player's hand class): rounds, Σnet, Σnet², Σwagered, Σwagered², Σnet·wagered.
    Amounts are in cents of a 2-cent Ante."""

    rounds: int = 0
    net: int = 0
    net_squared: int = 0
    wagered: int = 0
    wagered_squared: int = 0
    net_times_wagered: int = 0

    def __add__(self, other: StratumTotals) -> StratumTotals:
        return StratumTotals(
            self.rounds + other.rounds,
            self.net + other.net,
            self.net_squared + other.net_squared,
            self.wagered + other.wagered,
            self.wagered_squared + other.wagered_squared,
            self.net_times_wagered + other.net_times_wagered,
        )


SIMULATION_ANTE: Final[int] = 2
"""The simulation's Ante in cents: the smallest Ante whose Blind pays whole cents at 1.5:1."""

MINIMUM_STRATUM_ROUNDS: Final[int] = 30


@dataclass(frozen=True)
class MainBetSimulation:
    """The totals of a main-bet simulation, kept per player hand class so the estimate can be post-stratified.

    The player's hand class does not depend on decisions or on the dealer, and its exact probability is known from
    :func:`seven_card_class_counts`. Weighting each class's sample mean by that probability (post-stratification)
    removes the variance due to how often rare hands — above all the Royal Flush, whose Blind pays 500:1 — turn up,
    which roughly halves the variance of the plain mean. Classes with fewer than 30 rounds are pooled with the next
    weaker class so that every stratum's variance is estimated from a reasonable sample.
    """

    strata: dict[HandClass, StratumTotals]

    @property
    def rounds(self) -> int:
        return sum(totals.rounds for totals in self.strata.values())

    def merged_with(self, other: MainBetSimulation) -> MainBetSimulation:
        """Combine two independent simulations (e.g. from parallel workers)."""
        keys = set(self.strata) | set(other.strata)
        return MainBetSimulation(
            {key: self.strata.get(key, StratumTotals()) + other.strata.get(key, StratumTotals()) for key in keys}
        )

    def _pooled_strata(self) -> list[tuple[Fraction, StratumTotals]]:
        counts = _class_counts()
        pooled: list[tuple[Fraction, StratumTotals]] = []
        weight = 0
        totals = StratumTotals()
        for hand in sorted(HandClass, reverse=True):
            weight += counts[hand]
            totals = totals + self.strata.get(hand, StratumTotals())
            if totals.rounds >= MINIMUM_STRATUM_ROUNDS:
                pooled.append((Fraction(weight, SEVEN_CARD_HANDS), totals))
                weight, totals = 0, StratumTotals()
        if weight:
            if not pooled:
                raise ValueError(f"simulate at least {MINIMUM_STRATUM_ROUNDS} rounds")
            last_weight, last_totals = pooled.pop()
            pooled.append((last_weight + Fraction(weight, SEVEN_CARD_HANDS), last_totals + totals))
        return pooled

    def _moments(self) -> tuple[float, float, float, float, float]:
        """(E[net], E[wagered], Var(net estimate), Var(wagered estimate), Cov of the two), post-stratified."""
        mean_net = mean_wagered = variance_net = variance_wagered = covariance = 0.0
        for probability, totals in self._pooled_strata():
            p = float(probability)
            n = totals.rounds
            stratum_net = totals.net / n
            stratum_wagered = totals.wagered / n
            correction = n / (n - 1)
            s_net = (totals.net_squared / n - stratum_net**2) * correction
            s_wagered = (totals.wagered_squared / n - stratum_wagered**2) * correction
            s_both = (totals.net_times_wagered / n - stratum_net * stratum_wagered) * correction
            mean_net += p * stratum_net
            mean_wagered += p * stratum_wagered
            variance_net += p * p * s_net / n
            variance_wagered += p * p * s_wagered / n
            covariance += p * p * s_both / n
        return mean_net, mean_wagered, variance_net, variance_wagered, covariance

    def per_initial_bet(self, z: float = 1.96) -> Estimate:
        """Return per Ante (the "initial main bet"): 1 + E[net] / Ante, with a ``z``-sigma interval."""
        mean_net, _, variance_net, _, _ = self._moments()
        half_width = z * math.sqrt(max(variance_net, 0.0))
        return Estimate(
            1 + mean_net / SIMULATION_ANTE,
            1 + (mean_net - half_width) / SIMULATION_ANTE,
            1 + (mean_net + half_width) / SIMULATION_ANTE,
        )

    def per_total_bet(self, z: float = 1.96) -> Estimate:
        """Return per total main bet (Ante + Blind + Play): 1 + E[net] / E[wagered]; interval by the delta method."""
        mean_net, mean_wagered, variance_net, variance_wagered, covariance = self._moments()
        ratio = mean_net / mean_wagered
        variance_ratio = (variance_net - 2 * ratio * covariance + ratio**2 * variance_wagered) / mean_wagered**2
        half_width = z * math.sqrt(max(variance_ratio, 0.0))
        return Estimate(1 + ratio, 1 + ratio - half_width, 1 + ratio + half_width)


_CLASS_COUNTS: dict[HandClass, int] = {}


def _class_counts() -> dict[HandClass, int]:
    if not _CLASS_COUNTS:
        _CLASS_COUNTS.update(seven_card_class_counts())
    return _CLASS_COUNTS


def simulate_main_bets(rounds: int, rng: random.Random) -> MainBetSimulation:
    """Play ``rounds`` independent rounds with the basic strategy and total the main bets' results per player class.

    Each round deals the nine cards a round uses from a fresh deck (``rng.sample``: player cards, dealer cards, five
    community cards), decides with games.engine.uth.strategy and settles with
    :func:`~games.engine.uth.settlement.main_bet_returns` — the same rules the tables use.
    """
    if rounds <= 0:
        raise ValueError("simulate at least one round")
    ante = SIMULATION_ANTE
    sums: dict[HandClass, list[int]] = {hand: [0, 0, 0, 0, 0, 0] for hand in HandClass}
    deck = FULL_DECK
    sample = rng.sample
    for _ in range(rounds):
        cards = sample(deck, 9)
        hole = cards[0:2]
        board = cards[4:9]
        player = holdem_strength(hole + board)
        if raises_preflop(hole):
            play = 4 * ante
        elif raises_on_flop(hole, board[:3]):
            play = 2 * ante
        elif plays_on_river(hole, board):
            play = ante
        else:
            play = -1
        if play < 0:
            wagered = 2 * ante
            net = -wagered
        else:
            wagered = 2 * ante + play
            net = sum(main_bet_returns(ante, play, False, player, holdem_strength(cards[2:9]))) - wagered
        row = sums[hand_class(player)]
        row[0] += 1
        row[1] += net
        row[2] += net * net
        row[3] += wagered
        row[4] += wagered * wagered
        row[5] += net * wagered
    return MainBetSimulation({hand: StratumTotals(*row) for hand, row in sums.items() if row[0]})
