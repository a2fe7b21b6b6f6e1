"""Prize pools and payout structures (TRN-06, TRN-07, TRN-13, TRN-21, AMB-33).

* A :class:`PayoutTemplate` gives, for a range of entrant counts (and optionally one table size), the share of the
  prize pool of each paid place in basis points (1/100 of a percent; the shares add up to 10,000). The template for a
  tournament is the one whose range holds its entrant count, a template for its exact table size winning over a
  template for any table size (TRN-06).
* The prize pool is the players' prize contributions (entries, re-entries, re-buys and add-ons net of fees), raised to
  the guarantee if they fall short; the operator funds the difference, the overlay (TRN-07).
* **Cent rule**: every place gets its share of the pool rounded down to the cent, and the cents left over (fewer than
  the number of paid places) go one each to the best places, 1st place first. The prizes add up to exactly the pool
  and never increase from a place to the next.
* The structure is provisional until registration closes (TRN-06): more entrants can change the template and the pool.

:data:`DEFAULT_PAYOUT_TEMPLATES` are conventional defaults (the catalog gives none): winner takes all up to 4
entrants, 65/35 for 5-6 (the 5-handed Sit & Go), 50/30/20 for 7-20, then roughly 12-19 % of the field paid with
harmonically falling shares on top of a minimum cash of at least 1.2 buy-ins (:func:`harmonic_template`).

Standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from typing import Final

from tournaments.rules.common import RuleError, require_whole

BASIS_POINTS_PER_WHOLE: Final[int] = 10_000


@dataclass(frozen=True, slots=True)
class PayoutTemplate:
    """Shares per place (place 1 first) for ``minimum_entrants``..``maximum_entrants`` entrants (``None``: no upper
    bound), for tables of ``seats_per_table`` seats (``None``: any). Shares are positive, never increase from one
    place to the next and add up to 10,000; a template never pays more places than its smallest field has entrants."""

    minimum_entrants: int
    maximum_entrants: int | None
    basis_points: tuple[int, ...]
    seats_per_table: int | None = None

    def __post_init__(self) -> None:
        require_whole(self.minimum_entrants, "minimum entrants", minimum=2)
        if self.maximum_entrants is not None:
            require_whole(self.maximum_entrants, "maximum entrants", minimum=self.minimum_entrants)
        if self.seats_per_table is not None:
            require_whole(self.seats_per_table, "seats per table", minimum=2)
        if not self.basis_points:
            raise RuleError("a payout template pays at least one place")
        for share in self.basis_points:
            require_whole(share, "share of a place (basis points)", minimum=1)
        if sum(self.basis_points) != BASIS_POINTS_PER_WHOLE:
            raise RuleError(f"the shares add up to {sum(self.basis_points)} basis points, not 10,000")
        if any(later > earlier for earlier, later in pairwise(self.basis_points)):
            raise RuleError("a place cannot pay more than the place above it")
        if len(self.basis_points) > self.minimum_entrants:
            raise RuleError(f"{len(self.basis_points)} paid places for as few as {self.minimum_entrants} entrants")

    @property
    def paid_places(self) -> int:
        return len(self.basis_points)

    def holds(self, entrants: int) -> bool:
        return self.minimum_entrants <= entrants and (
            self.maximum_entrants is None or entrants <= self.maximum_entrants
        )


def check_template_set(templates: Iterable[PayoutTemplate]) -> None:
    """:class:`RuleError` when two templates for the same table size (or both for any size) share an entrant count."""
    by_table_size: dict[int | None, list[PayoutTemplate]] = {}
    for template in templates:
        by_table_size.setdefault(template.seats_per_table, []).append(template)
    for table_size, group in by_table_size.items():
        group.sort(key=lambda template: template.minimum_entrants)
        for lower, upper in pairwise(group):
            if lower.maximum_entrants is None or lower.maximum_entrants >= upper.minimum_entrants:
                size = "any table size" if table_size is None else f"{table_size}-seat tables"
                raise RuleError(f"payout templates for {size} overlap at {upper.minimum_entrants} entrants")


def select_template(templates: Iterable[PayoutTemplate], entrants: int, seats_per_table: int) -> PayoutTemplate:
    """TRN-06: the template for ``entrants`` at tables of ``seats_per_table`` seats (exact table size first)."""
    require_whole(entrants, "entrants", minimum=2)
    candidates = [template for template in templates if template.holds(entrants)]
    for key in (seats_per_table, None):
        matching = [template for template in candidates if template.seats_per_table == key]
        if len(matching) > 1:
            raise RuleError(f"{len(matching)} payout templates hold {entrants} entrants")
        if matching:
            return matching[0]
    raise RuleError(f"no payout template holds {entrants} entrants at {seats_per_table}-seat tables")


@dataclass(frozen=True, slots=True)
class PrizePool:
    """TRN-07: the players' prize contributions (cents) and the guarantee (0 = none)."""

    contributions_cents: int
    guarantee_cents: int = 0

    def __post_init__(self) -> None:
        require_whole(self.contributions_cents, "prize contributions (cents)")
        require_whole(self.guarantee_cents, "guarantee (cents)")

    @property
    def total_cents(self) -> int:
        return max(self.contributions_cents, self.guarantee_cents)

    @property
    def overlay_cents(self) -> int:
        """What the operator adds to reach the guarantee."""
        return self.total_cents - self.contributions_cents


def prize_amounts(pool_cents: int, basis_points: Sequence[int]) -> tuple[int, ...]:
    """The prize of each place in cents (see the cent rule in the module docstring)."""
    require_whole(pool_cents, "prize pool (cents)")
    total = sum(basis_points)
    prizes = [pool_cents * share // total for share in basis_points]
    for place in range(pool_cents - sum(prizes)):
        prizes[place] += 1
    return tuple(prizes)


@dataclass(frozen=True, slots=True)
class PayoutTable:
    """What the lobby shows: the prize of each place (cents, place 1 first), the pool, and whether it can still change
    (TRN-06: provisional until registration closes)."""

    prizes_cents: tuple[int, ...]
    pool: PrizePool
    provisional: bool

    @property
    def paid_places(self) -> int:
        return len(self.prizes_cents)


def payout_table(
    templates: Iterable[PayoutTemplate],
    *,
    entrants: int,
    seats_per_table: int,
    pool: PrizePool,
    registration_closed: bool,
) -> PayoutTable:
    """TRN-06 / TRN-07: the payouts for ``entrants`` and ``pool``."""
    template = select_template(templates, entrants, seats_per_table)
    return PayoutTable(prize_amounts(pool.total_cents, template.basis_points), pool, not registration_closed)


def harmonic_template(minimum_entrants: int, maximum_entrants: int | None, paid_places: int) -> PayoutTemplate:
    """A default-style template: every paid place gets a floor of at least 1.2 buy-ins at the smallest field
    (12,000 / ``minimum_entrants`` basis points, rounded up), and the rest is shared in proportion to 1/place; the
    basis points left over by rounding down go one each to the best places."""
    require_whole(paid_places, "paid places", minimum=1)
    floor = -(-BASIS_POINTS_PER_WHOLE * 6 // (5 * minimum_entrants))
    rest = BASIS_POINTS_PER_WHOLE - floor * paid_places
    if rest < 0:
        raise RuleError(f"{paid_places} places cannot each get {floor} basis points")
    weights = [Fraction(1, place) for place in range(1, paid_places + 1)]
    total_weight = sum(weights, Fraction(0))
    shares = [floor + int(rest * weight / total_weight) for weight in weights]
    for place in range(BASIS_POINTS_PER_WHOLE - sum(shares)):
        shares[place] += 1
    return PayoutTemplate(minimum_entrants, maximum_entrants, tuple(shares))


# (minimum entrants, maximum entrants, paid places) of the generated default templates.
DEFAULT_HARMONIC_RANGES: Final[tuple[tuple[int, int | None, int], ...]] = (
    (21, 30, 4),
    (31, 45, 6),
    (46, 70, 9),
    (71, 100, 12),
    (101, 150, 18),
    (151, 200, 27),
    (201, 300, 36),
    (301, 400, 54),
    (401, 500, 72),
    (501, 700, 90),
    (701, 1_000, 126),
    (1_001, 1_500, 180),
    (1_501, 2_000, 270),
    (2_001, 3_000, 360),
    (3_001, 4_000, 540),
    (4_001, 5_000, 720),
    (5_001, 7_000, 750),
    (7_001, 10_000, 1_000),
    (10_001, None, 1_400),
)

DEFAULT_PAYOUT_TEMPLATES: Final[tuple[PayoutTemplate, ...]] = (
    PayoutTemplate(2, 4, (10_000,)),
    PayoutTemplate(5, 6, (6_500, 3_500)),
    PayoutTemplate(7, 20, (5_000, 3_000, 2_000)),
    *(harmonic_template(minimum, maximum, places) for minimum, maximum, places in DEFAULT_HARMONIC_RANGES),
)
