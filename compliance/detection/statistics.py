"""Small statistics the indicators use: binomial tails, the Wilson interval, the normal tail, a rate shrunk towards a
population rate.

Standard library only.
"""

from __future__ import annotations

import math


def binomial_upper_tail(trials: int, successes: int, probability: float) -> float:
    """P(X >= successes) for X ~ Binomial(trials, probability), summed exactly in log space (trials up to a few
    thousand, which is what one pair of players produces)."""
    if successes <= 0:
        return 1.0
    if successes > trials:
        return 0.0
    if probability <= 0.0:
        return 0.0
    if probability >= 1.0:
        return 1.0
    log_p = math.log(probability)
    log_q = math.log1p(-probability)
    log_terms = [_log_choose(trials, k) + k * log_p + (trials - k) * log_q for k in range(successes, trials + 1)]
    largest = max(log_terms)
    return min(1.0, math.exp(largest) * sum(math.exp(term - largest) for term in log_terms))


def binomial_lower_tail(trials: int, successes: int, probability: float) -> float:
    """P(X <= successes) for X ~ Binomial(trials, probability)."""
    if successes >= trials:
        return 1.0
    if successes < 0:
        return 0.0
    return binomial_upper_tail(trials, trials - successes, 1.0 - probability)


def binomial_sum_upper_tail(groups: list[tuple[int, float]], successes: int) -> float:
    """P(X >= successes) for X the sum of independent Binomial(trials, probability) of ``groups``: several kinds of
    trials with their own rates judged as one count (exact, by convolving the distributions; trials up to a few
    thousand in all)."""
    if successes <= 0:
        return 1.0
    distribution = [1.0]
    for trials, probability in groups:
        if trials <= 0:
            continue
        probability = min(1.0, max(0.0, probability))
        log_p = math.log(probability) if probability > 0 else -math.inf
        log_q = math.log1p(-probability) if probability < 1 else -math.inf
        own = []
        for k in range(trials + 1):
            log_term = _log_choose(trials, k)
            log_term += (k * log_p if k else 0.0) + ((trials - k) * log_q if trials - k else 0.0)
            own.append(math.exp(log_term) if log_term > -745 else 0.0)
        distribution = _convolved(distribution, own)
    if successes >= len(distribution):
        return 0.0
    return min(1.0, sum(distribution[successes:]))


def binomial_sum_lower_tail(groups: list[tuple[int, float]], successes: int) -> float:
    """P(X <= successes) for X the sum of independent Binomial(trials, probability) of ``groups`` (a Poisson-binomial
    count when the groups are single trials): exact, by convolving the distributions truncated at ``successes`` — the
    cost grows with ``successes``, small where the tail is small."""
    if successes < 0:
        return 0.0
    size = successes + 1
    distribution = [1.0] + [0.0] * successes
    for trials, probability in groups:
        if trials <= 0 or probability <= 0.0:
            continue
        if probability >= 1.0:
            distribution = [0.0] * min(trials, size) + distribution[: max(0, size - trials)]
            continue
        log_odds = math.log(probability) - math.log1p(-probability)
        log_term = trials * math.log1p(-probability)  # in logs: no underflow for many trials
        own = [math.exp(log_term)]
        for k in range(min(trials, successes)):
            log_term += math.log((trials - k) / (k + 1)) + log_odds
            own.append(math.exp(log_term))
        combined = [0.0] * size
        for i, left in enumerate(distribution):
            if left:
                for j in range(min(len(own), size - i)):
                    combined[i + j] += left * own[j]
        distribution = combined
    return min(1.0, sum(distribution))


def hypergeometric_sum_upper_tail(strata: list[tuple[int, int, int, int]], successes: int) -> float:
    """P(X >= successes) for X the sum of the first rows' successes of independent 2x2 tables with their margins fixed:
    the one-sided exact conditional test that the first row's rate is higher than the second's, stratified (each
    stratum a kind of trial with its own rate; one stratum is Fisher's exact test). ``strata`` are (first row's
    successes, first row's trials, second row's successes, second row's trials); the first rows' successes given each
    stratum's total are hypergeometric, and their sum's tail is exact, by convolving the distributions. Unlike a
    binomial at the second row's rate, the test allows for how little the second row may say: a rate measured on a few
    trials is no yardstick."""
    if successes <= 0:
        return 1.0
    offset = 0
    distribution = [1.0]
    for first_successes, first_trials, second_successes, second_trials in strata:
        if first_trials <= 0:
            continue
        total = first_successes + second_successes
        trials = first_trials + second_trials
        low, high = max(0, total - second_trials), min(first_trials, total)
        base = _log_choose(trials, total)
        own = []
        for k in range(low, high + 1):
            log_term = _log_choose(first_trials, k) + _log_choose(second_trials, total - k) - base
            own.append(math.exp(log_term) if log_term > -745 else 0.0)
        distribution = _convolved(distribution, own)
        offset += low
    start = max(0, successes - offset)
    if start >= len(distribution):
        return 0.0
    return min(1.0, sum(distribution[start:]))


def _convolved(distribution: list[float], own: list[float]) -> list[float]:
    """The distribution of the sum of two independent counts, each given as probabilities from its lowest value."""
    combined = [0.0] * (len(distribution) + len(own) - 1)
    for i, left in enumerate(distribution):
        if left:
            for j, right in enumerate(own):
                combined[i + j] += left * right
    return combined


def _log_choose(n: int, k: int) -> float:
    """log of the binomial coefficient ``n`` choose ``k``."""
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def wilson_interval(successes: float, trials: float, z: float) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / trials`` at ``z`` standard deviations (1.96: 95 %,
    2.58: 99 %); (0, 1) without trials."""
    if trials <= 0:
        return 0.0, 1.0
    rate = successes / trials
    denominator = 1.0 + z * z / trials
    centre = (rate + z * z / (2.0 * trials)) / denominator
    half = z * math.sqrt(rate * (1.0 - rate) / trials + z * z / (4.0 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def normal_upper_tail(z: float) -> float:
    """P(Z >= z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def normal_upper_quantile(tail_probability: float) -> float:
    """The ``z`` with ``P(Z >= z) = tail_probability`` for a standard normal Z (bisection on :func:`normal_upper_tail`;
    +-40 at the ends)."""
    if tail_probability <= 0.0:
        return 40.0
    if tail_probability >= 1.0:
        return -40.0
    low, high = -40.0, 40.0
    for _ in range(200):
        middle = (low + high) / 2.0
        if normal_upper_tail(middle) > tail_probability:
            low = middle
        else:
            high = middle
    return (low + high) / 2.0


def surprise(tail_probability: float) -> float:
    """-log10 of a probability: 2 means 1 in 100, 4 means 1 in 10,000 (capped at 300 for a probability of 0)."""
    if tail_probability <= 0.0:
        return 300.0
    return -math.log10(tail_probability)


def multiple_testing_threshold(ceiling: float, tests: int, players: int, chance_flags_per_player: float) -> float:
    """The score (``-log10`` of a chance) from which one of ``tests`` pair tests among ``players`` players flags: the
    chance ``chance_flags_per_player * players / tests`` each, so that by Bonferroni's inequality honest play is
    expected to flag at most ``chance_flags_per_player * players`` pairs in all; never above ``ceiling``."""
    budget = chance_flags_per_player * players
    if tests <= 0 or budget <= 0:
        return ceiling
    return min(ceiling, math.log10(tests / budget))


def shrunk_rate(events: float, trials: float, prior_rate: float, prior_weight: float) -> float:
    """``events / trials`` pulled towards ``prior_rate`` as if ``prior_weight`` trials at that rate had been seen: a
    player with few observations gets the population's rate, one with many gets their own."""
    return (events + prior_rate * prior_weight) / (trials + prior_weight) if trials + prior_weight > 0 else prior_rate


__all__ = [
    "binomial_lower_tail",
    "binomial_sum_lower_tail",
    "binomial_sum_upper_tail",
    "binomial_upper_tail",
    "multiple_testing_threshold",
    "normal_upper_quantile",
    "normal_upper_tail",
    "shrunk_rate",
    "surprise",
    "wilson_interval",
]
