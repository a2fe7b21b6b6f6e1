"""The HexaPro multiplier audit (HEX-31, LOB-09): games per multiplier against the stated probabilities, with a
chi-square goodness-of-fit test, and the realised rake equivalent against the stated 6.853 %.

* :func:`multiplier_audit` takes the games played per multiplier (for one buy-in, or all buy-ins together: the draw
  does not depend on the buy-in) and gives, per multiplier, the games and the expected games (games × probability),
  the chi-square test and the realised rake equivalent, 1 − Σ prize pools / Σ buy-ins of the seats.
* The chi-square statistic Σ (observed − expected)² / expected is exact (a Fraction). Its chi-square distribution is a
  good approximation only when every expected count is at least 5 (Cochran's rule), and the rare multipliers have
  tiny expectations (1000x: 1 in 100,000 games): a single 1000x game in 1,000 would otherwise count as a near-certain
  anomaly. So multipliers are pooled before the test, rarest first: a group collects multipliers in increasing order
  of probability until its expected count reaches 5, and a last group short of 5 joins the group before it. The
  degrees of freedom are the groups minus one; with fewer than two groups there is no test (``None``).
* The p-value is the chi-square survival function, the regularized upper incomplete gamma function Q(df/2, x/2),
  computed with the standard library (a series below a + 1, a continued fraction above, to about 1e-14).

Standard library and the engine only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import exp, isfinite, lgamma, log
from typing import Final

from tournaments.rules.common import RuleError, require_whole
from tournaments.rules.hexapro import (
    HexaProProduct,
    buy_in_level,
    multiplier_row,
    prize_pool_cents,
    rake_equivalent,
    stated_rake_equivalent,
)

MINIMUM_EXPECTED_COUNT: Final[int] = 5
_PRECISION: Final[float] = 1e-15
_TINY: Final[float] = 1e-300
_MAXIMUM_ITERATIONS: Final[int] = 100_000


def regularized_upper_gamma(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a) for a > 0, x ≥ 0."""
    if not (isfinite(a) and a > 0) or not (isfinite(x) and x >= 0):
        raise RuleError(f"Q(a, x) needs a > 0 and x >= 0, not a={a!r}, x={x!r}")
    if x == 0:
        return 1.0
    prefactor = exp(a * log(x) - x - lgamma(a))
    if x < a + 1:
        return max(0.0, 1.0 - prefactor * _lower_series(a, x))
    return prefactor * _upper_continued_fraction(a, x)


def _lower_series(a: float, x: float) -> float:
    """Σ x^n / (a (a+1) ... (a+n)): P(a, x) without its prefactor (converges fast for x < a + 1)."""
    term = total = 1.0 / a
    for step in range(1, _MAXIMUM_ITERATIONS):
        term *= x / (a + step)
        total += term
        if abs(term) < abs(total) * _PRECISION:
            return total
    raise ArithmeticError(f"the gamma series did not converge for a={a}, x={x}")


def _upper_continued_fraction(a: float, x: float) -> float:
    """The continued fraction for Q(a, x) without its prefactor, evaluated by the modified Lentz method."""
    denominator = x + 1.0 - a
    previous = 1.0 / _TINY
    current = 1.0 / denominator
    value = current
    for step in range(1, _MAXIMUM_ITERATIONS):
        numerator = -step * (step - a)
        denominator += 2.0
        current = numerator * current + denominator
        current = 1.0 / (current if abs(current) > _TINY else _TINY)
        previous = denominator + numerator / previous
        previous = previous if abs(previous) > _TINY else _TINY
        factor = current * previous
        value *= factor
        if abs(factor - 1.0) < _PRECISION:
            return value
    raise ArithmeticError(f"the gamma continued fraction did not converge for a={a}, x={x}")


def chi_square_survival(statistic: float | Fraction, degrees_of_freedom: int) -> float:
    """P(X ≥ ``statistic``) for X chi-square distributed with ``degrees_of_freedom``: the p-value."""
    require_whole(degrees_of_freedom, "degrees of freedom", minimum=1)
    if statistic < 0:
        raise RuleError(f"a chi-square statistic is not negative: {statistic}")
    return regularized_upper_gamma(degrees_of_freedom / 2, float(statistic) / 2)


@dataclass(frozen=True, slots=True)
class ChiSquareTest:
    """A goodness-of-fit test: the exact statistic, its degrees of freedom, the p-value, and which categories
    (indices into the inputs) were pooled into each group."""

    statistic: Fraction
    degrees_of_freedom: int
    p_value: float
    groups: tuple[tuple[int, ...], ...]


def pooled_groups(weights: Sequence[int], total: int, minimum_expected: int) -> tuple[tuple[int, ...], ...]:
    """The categories (indices) pooled so that every group expects at least ``minimum_expected`` of ``total``
    observations (see the module docstring); rarest categories first."""
    weight_sum = sum(weights)
    order = sorted(range(len(weights)), key=lambda index: (weights[index], index))
    groups: list[list[int]] = []
    current: list[int] = []
    current_weight = 0
    for index in order:
        current.append(index)
        current_weight += weights[index]
        if current_weight * total >= minimum_expected * weight_sum:
            groups.append(current)
            current, current_weight = [], 0
    if current:
        if groups:
            groups[-1].extend(current)
        else:
            groups.append(current)
    return tuple(tuple(sorted(group)) for group in groups)


def chi_square_test(
    observed: Sequence[int], weights: Sequence[int], minimum_expected: int = MINIMUM_EXPECTED_COUNT
) -> ChiSquareTest | None:
    """The chi-square test of ``observed`` counts against probabilities proportional to ``weights``, categories pooled
    to at least ``minimum_expected`` expected (0: no pooling); ``None`` when fewer than two groups remain."""
    if len(observed) != len(weights) or not observed:
        raise RuleError("observed counts and weights are two lists of the same, non-zero length")
    for count in observed:
        require_whole(count, "observed count")
    for weight in weights:
        require_whole(weight, "weight", minimum=1)
    require_whole(minimum_expected, "minimum expected count")
    total = sum(observed)
    weight_sum = sum(weights)
    groups = pooled_groups(weights, total, minimum_expected)
    if total == 0 or len(groups) < 2:
        return None
    statistic = Fraction(0)
    for group in groups:
        count = sum(observed[index] for index in group)
        weight = sum(weights[index] for index in group)
        # (O − N w / W)² / (N w / W) = (W O − N w)² / (W N w): exact in integers.
        statistic += Fraction((weight_sum * count - total * weight) ** 2, weight_sum * total * weight)
    degrees = len(groups) - 1
    return ChiSquareTest(statistic, degrees, chi_square_survival(statistic, degrees), groups)


@dataclass(frozen=True, slots=True)
class MultiplierCount:
    """One multiplier in the audit: its probability, the games played with it and the games expected."""

    multiplier_tenths: int
    probability: Fraction
    games: int
    expected_games: Fraction


@dataclass(frozen=True, slots=True)
class MultiplierAudit:
    """HEX-31 for one product and buy-in (``buy_in_cents`` ``None``: all buy-ins together).

    ``realised_rake_equivalent`` is ``None`` without games; ``expected_rake_equivalent`` is computed from the tables,
    ``stated_rake_equivalent`` is the published figure (6.853 % for the default products, where the two agree)."""

    product_code: str
    buy_in_cents: int | None
    games: int
    rows: tuple[MultiplierCount, ...]
    test: ChiSquareTest | None
    realised_rake_equivalent: Fraction | None
    expected_rake_equivalent: Fraction
    stated_rake_equivalent: Fraction


def multiplier_audit(
    product: HexaProProduct,
    games_by_buy_in: Mapping[int, Mapping[int, int]],
    buy_in_cents: int | None = None,
    minimum_expected: int = MINIMUM_EXPECTED_COUNT,
) -> MultiplierAudit:
    """HEX-31: ``games_by_buy_in`` is ``{buy-in cents: {multiplier tenths: games}}``; the audit covers the buy-in
    ``buy_in_cents``, or all of them when it is ``None``. Buy-ins and multipliers the product does not have are
    refused (audit a product with the tables its games were played with)."""
    games_by_multiplier = {row.multiplier_tenths: 0 for row in product.multipliers}
    pools = seat_buy_ins = 0
    if buy_in_cents is not None:
        buy_in_level(product, buy_in_cents)
    for buy_in, counts in games_by_buy_in.items():
        buy_in_level(product, buy_in)
        for multiplier_tenths, games in counts.items():
            multiplier_row(product, multiplier_tenths)
            require_whole(games, f"games at {multiplier_tenths} tenths")
            if buy_in_cents is not None and buy_in != buy_in_cents:
                continue
            games_by_multiplier[multiplier_tenths] += games
            pools += games * prize_pool_cents(product, buy_in, multiplier_tenths)
            seat_buy_ins += games * buy_in * product.seats
    total_games = sum(games_by_multiplier.values())
    weights = [row.weight for row in product.multipliers]
    observed = [games_by_multiplier[row.multiplier_tenths] for row in product.multipliers]
    rows = tuple(
        MultiplierCount(
            row.multiplier_tenths,
            Fraction(row.weight, product.total_weight),
            games,
            Fraction(total_games * row.weight, product.total_weight),
        )
        for row, games in zip(product.multipliers, observed, strict=True)
    )
    return MultiplierAudit(
        product_code=product.code,
        buy_in_cents=buy_in_cents,
        games=total_games,
        rows=rows,
        test=chi_square_test(observed, weights, minimum_expected),
        realised_rake_equivalent=1 - Fraction(pools, seat_buy_ins) if seat_buy_ins else None,
        expected_rake_equivalent=rake_equivalent(product),
        stated_rake_equivalent=stated_rake_equivalent(product),
    )


def product_audits(
    product: HexaProProduct, games_by_buy_in: Mapping[int, Mapping[int, int]]
) -> tuple[MultiplierAudit, ...]:
    """HEX-31 for every offered buy-in of ``product`` (smallest first), then all buy-ins together."""
    per_buy_in = tuple(multiplier_audit(product, games_by_buy_in, level.buy_in_cents) for level in product.buy_ins)
    return (*per_buy_in, multiplier_audit(product, games_by_buy_in))
