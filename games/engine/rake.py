"""Cash-game rake (RAKE-01..RAKE-08), as a pure function of the stake's rake row, the pots, whether the flop was dealt
and how many players were dealt in. All money is integer cents; rates are integer basis points (350 = 3.5 %).

Rules implemented (catalog section 6, seed 002 › RAKE INFORMATION › Cash Game Rake):

* RAKE-03 no flop, no drop: a hand that ends before the flop is not raked; an all-in preflop hand whose board is run out
  did reach the flop and is raked.
* RAKE-05 / AMB-24: rake = pot total x rate, rounded to the nearest cent with exact half cents rounded up; then the
  RAKE-04 one-cent minimum; then the cap.
* RAKE-06 / AMB-07: a hand dealt to exactly two or three players uses the reduced cap, min(regular cap, €0.50 at
  0.02/0.04 blinds, €1.00 at 0.05/0.10, €1.50 at 0.10/0.25 and above).
* RAKE-07 / AMB-25: the base is the total of all pots after uncalled bets are returned (the caller passes pots without
  them, ENG-23); the rake is taken from the pots in proportion to their size, whole cents by largest remainder, ties
  (and so the leftover cent) going to the main pot first.

The catalog's rake tables (RAKE-02, with the AMB-01/02/03/06 decisions) are exported as :data:`RAKE_TABLE` so the
back-office can seed its editable rake data from them (section 0.3: parameters are data with an effective-from time).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Final

BASIS_POINTS_PER_WHOLE: Final[int] = 10_000


class PokerGame(StrEnum):
    HOLDEM = "holdem"
    OMAHA = "omaha"


class TableType(StrEnum):
    """Which rake table row applies: the same stake label can exist for several table types (AMB-01, AMB-02)."""

    REGULAR = "regular"
    DEEPSTACK = "deepstack"
    SHORTSTACK = "shortstack"
    BANZAI = "banzai"


def reduced_cap_for_blinds(big_blind: int, regular_cap: int) -> int:
    """The RAKE-06 cap for hands dealt to two or three players (AMB-07: never above the regular cap).

    €0.50 at 0.02/0.04 blinds, €1.00 at 0.05/0.10 blinds, €1.50 at 0.10/0.25 blinds and above. Big blinds between the
    published levels use the level below (e.g. 0.06 -> €0.50), so the cap never rises before the seed says it does.
    """
    if big_blind >= 25:
        level_cap = 150
    elif big_blind >= 10:
        level_cap = 100
    else:
        level_cap = 50
    return min(regular_cap, level_cap)


@dataclass(frozen=True)
class RakeRow:
    """One row of a rake table: rate and caps for a game, table type and stake (RAKE-02, RAKE-06).

    Amounts are integer cents; ``rate_basis_points`` is the percentage x 100 (3.5 % -> 350). ``small_hand_cap`` is the
    cap for hands dealt to exactly two or three players. A disabled row is stored data that no table should use yet
    (AMB-06).
    """

    game: PokerGame
    table_type: TableType
    stake: str
    small_blind: int
    big_blind: int
    rate_basis_points: int
    cap: int
    small_hand_cap: int
    enabled: bool = True
    note: str = ""

    def __post_init__(self) -> None:
        for name in ("small_blind", "big_blind", "rate_basis_points", "cap", "small_hand_cap"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
        if self.rate_basis_points > BASIS_POINTS_PER_WHOLE:
            raise ValueError(f"rate cannot exceed 100 %, got {self.rate_basis_points} basis points")
        if self.small_blind > self.big_blind:
            raise ValueError("the small blind cannot exceed the big blind")
        if self.small_hand_cap > self.cap:
            raise ValueError("the two-or-three-player cap cannot exceed the regular cap (AMB-07)")

    @property
    def rate(self) -> Fraction:
        """The rake rate as an exact fraction (350 basis points -> 7/200)."""
        return Fraction(self.rate_basis_points, BASIS_POINTS_PER_WHOLE)

    def cap_for(self, players_dealt_in: int) -> int:
        """The cap that applies to a hand dealt to this many players (RAKE-06)."""
        return self.small_hand_cap if players_dealt_in in (2, 3) else self.cap


@dataclass(frozen=True)
class RakeResult:
    """What was raked from one hand, with the facts RAKE-08 asks to record.

    ``per_pot[i]`` is taken from ``pots[i]`` (index 0 = main pot); ``sum(per_pot) == total``.
    """

    total: int
    per_pot: tuple[int, ...]
    pot_total: int
    rate_basis_points: int
    cap_applied: int
    players_dealt_in: int
    flop_dealt: bool

    @property
    def was_capped(self) -> bool:
        """True when the cap, not the percentage, decided the rake."""
        return self.uncapped_amount > self.cap_applied

    @property
    def uncapped_amount(self) -> int:
        """Rake before the cap: rounded half up, at least one cent (0 when the hand is not raked)."""
        if not self.flop_dealt or self.pot_total == 0 or self.rate_basis_points == 0:
            return 0
        return max(1, _rounded_half_up(self.pot_total * self.rate_basis_points, BASIS_POINTS_PER_WHOLE))


def _rounded_half_up(numerator: int, denominator: int) -> int:
    """numerator / denominator rounded to the nearest integer, exact halves up (both non-negative)."""
    return (2 * numerator + denominator) // (2 * denominator)


def compute_rake(row: RakeRow, pots: Sequence[int], *, flop_dealt: bool, players_dealt_in: int) -> RakeResult:
    """Rake for one cash-game hand and how much of it comes out of each pot (RAKE-03..RAKE-07).

    ``pots`` are the final pot amounts in cents, main pot first, after uncalled bets were returned (ENG-23).
    ``flop_dealt`` is True when the flop was dealt, including a board run out after all-ins (RAKE-03).
    ``players_dealt_in`` is how many players received hole cards this hand (RAKE-06).
    """
    pot_amounts = tuple(pots)
    for amount in pot_amounts:
        if type(amount) is not int or amount < 0:
            raise ValueError(f"pot amounts must be non-negative integer cents, got {amount!r}")
    if type(players_dealt_in) is not int or players_dealt_in < 2:
        raise ValueError(f"a hand is dealt to at least two players, got {players_dealt_in!r}")
    pot_total = sum(pot_amounts)
    cap = row.cap_for(players_dealt_in)
    result = RakeResult(
        total=0,
        per_pot=(0,) * len(pot_amounts),
        pot_total=pot_total,
        rate_basis_points=row.rate_basis_points,
        cap_applied=cap,
        players_dealt_in=players_dealt_in,
        flop_dealt=flop_dealt,
    )
    total = min(result.uncapped_amount, cap)
    if total == 0:
        return result
    return RakeResult(
        total=total,
        per_pot=allocate_proportionally(total, pot_amounts),
        pot_total=pot_total,
        rate_basis_points=row.rate_basis_points,
        cap_applied=cap,
        players_dealt_in=players_dealt_in,
        flop_dealt=flop_dealt,
    )


def allocate_proportionally(amount: int, weights: Sequence[int]) -> tuple[int, ...]:
    """Split ``amount`` cents across ``weights`` in proportion, by largest remainder (RAKE-07, AMB-25).

    Every share is floor(amount x weight / total); the cents left over go one each to the largest fractional
    remainders, earlier positions (the main pot) first among equal remainders. Shares never exceed their weight when
    ``amount <= sum(weights)``.
    """
    if amount < 0 or any(weight < 0 for weight in weights):
        raise ValueError("amount and weights must not be negative")
    if amount == 0:
        return (0,) * len(weights)
    total_weight = sum(weights)
    if amount > total_weight:
        raise ValueError(f"cannot take {amount} from pots holding {total_weight}")
    shares = [amount * weight // total_weight for weight in weights]
    remainders = [amount * weight % total_weight for weight in weights]
    leftover = amount - sum(shares)
    by_largest_remainder = sorted(range(len(weights)), key=lambda position: (-remainders[position], position))
    for position in by_largest_remainder[:leftover]:
        shares[position] += 1
    return tuple(shares)


def rake_by_contribution(pots: Sequence[Mapping[int, int]], per_pot: Sequence[int]) -> dict[int, int]:
    """Who paid the rake, for rakeback and VIP reporting: each pot's rake (``per_pot[i]``, RAKE-07) is attributed to
    the players who put money into that pot, in proportion to what each put in (whole cents by largest remainder, as
    :func:`allocate_proportionally`; among equal remainders the lower seat first). ``pots[i]`` maps each seat to its
    part of pot ``i`` (see :func:`games.engine.pots.layer_contributions`). Every seat that put money in any pot has an
    entry, 0 included; the values add up to ``sum(per_pot)``."""
    attributed: dict[int, int] = {seat: 0 for parts in pots for seat, part in parts.items() if part > 0}
    for index, parts in enumerate(pots):
        taken = per_pot[index] if index < len(per_pot) else 0
        if not taken:
            continue
        seats = sorted(seat for seat, part in parts.items() if part > 0)
        for seat, share in zip(seats, allocate_proportionally(taken, [parts[seat] for seat in seats]), strict=True):
            attributed[seat] += share
    return attributed


def _row(
    game: PokerGame,
    table_type: TableType,
    stake: str,
    blinds: tuple[int, int],
    rate_basis_points: int,
    cap: int,
    *,
    enabled: bool = True,
    note: str = "",
) -> RakeRow:
    small_blind, big_blind = blinds
    return RakeRow(
        game=game,
        table_type=table_type,
        stake=stake,
        small_blind=small_blind,
        big_blind=big_blind,
        rate_basis_points=rate_basis_points,
        cap=cap,
        small_hand_cap=reduced_cap_for_blinds(big_blind, cap),
        enabled=enabled,
        note=note,
    )


_HOLDEM, _OMAHA = PokerGame.HOLDEM, PokerGame.OMAHA
_REGULAR, _DEEPSTACK, _SHORTSTACK, _BANZAI = (
    TableType.REGULAR,
    TableType.DEEPSTACK,
    TableType.SHORTSTACK,
    TableType.BANZAI,
)

HOLDEM_RAKE_ROWS: Final[tuple[RakeRow, ...]] = (
    _row(_HOLDEM, _REGULAR, "NL4", (2, 4), 200, 50),
    _row(_HOLDEM, _REGULAR, "NL10", (5, 10), 350, 100),
    _row(_HOLDEM, _DEEPSTACK, "NL100", (5, 10), 350, 200, note="Texas Deepstack (AMB-01)"),
    _row(_HOLDEM, _REGULAR, "NL25", (10, 25), 450, 200, note="seed prints 0.15/0.25 blinds (AMB-03)"),
    _row(_HOLDEM, _REGULAR, "NL50", (25, 50), 550, 200),
    _row(_HOLDEM, _REGULAR, "NL100", (50, 100), 600, 300),
    _row(_HOLDEM, _REGULAR, "NL200", (100, 200), 600, 300),
    _row(_HOLDEM, _REGULAR, "NL400", (200, 400), 600, 300),
)
"""RAKE-02 Texas Hold'em table (v2.7 EN)."""

OMAHA_RAKE_ROWS: Final[tuple[RakeRow, ...]] = (
    _row(_OMAHA, _REGULAR, "PL4", (2, 4), 200, 50),
    _row(_OMAHA, _REGULAR, "PL10", (5, 10), 300, 150),
    _row(_OMAHA, _REGULAR, "PL25", (10, 25), 300, 250),
    _row(_OMAHA, _SHORTSTACK, "PL10", (25, 50), 300, 150, note="Omaha Shortstack (AMB-02)"),
    _row(_OMAHA, _REGULAR, "PL50", (25, 50), 350, 300),
    _row(_OMAHA, _REGULAR, "PL100", (50, 100), 600, 300),
    _row(_OMAHA, _REGULAR, "PL200", (100, 200), 600, 300),
    _row(_OMAHA, _REGULAR, "PL400", (200, 400), 600, 300),
)
"""RAKE-02 Omaha table (v2.7 EN)."""

BANZAI_HOLDEM_RAKE_ROWS: Final[tuple[RakeRow, ...]] = (
    _row(_HOLDEM, _BANZAI, "NL1", (5, 10), 100, 300, note="v2.7 EN; 001/004: 2 % / €0.25 (AMB-06)"),
    _row(_HOLDEM, _BANZAI, "NL5", (25, 50), 100, 300, note="v2.7 EN; 001/004: 2 % / €0.50 (AMB-06)"),
    _row(_HOLDEM, _BANZAI, "NL20", (100, 200), 100, 300, note="v2.7 EN; 001: 2.5 % / €1, 004: 2 % / €1 (AMB-06)"),
    _row(_HOLDEM, _BANZAI, "NL50", (250, 500), 250, 150),
    _row(_HOLDEM, _BANZAI, "NL100", (500, 1000), 250, 200, enabled=False, note="only in 001/004 (AMB-06)"),
)
"""RAKE-02 Banzai Texas table (v2.7 EN, plus the disabled NL100 row from 001/004)."""

RAKE_TABLE: Final[tuple[RakeRow, ...]] = HOLDEM_RAKE_ROWS + OMAHA_RAKE_ROWS + BANZAI_HOLDEM_RAKE_ROWS
"""Every catalog rake row, to seed the back-office's editable rake data."""


def find_rake_row(
    game: PokerGame | str,
    table_type: TableType | str,
    stake: str,
    rows: Sequence[RakeRow] = RAKE_TABLE,
) -> RakeRow:
    """The row for a game, table type and stake label, e.g. ``find_rake_row("holdem", "deepstack", "NL100")``."""
    for row in rows:
        if row.game == game and row.table_type == table_type and row.stake == stake:
            return row
    raise LookupError(f"no rake row for {game} {table_type} {stake}")


__all__ = [
    "BANZAI_HOLDEM_RAKE_ROWS",
    "HOLDEM_RAKE_ROWS",
    "OMAHA_RAKE_ROWS",
    "RAKE_TABLE",
    "PokerGame",
    "RakeResult",
    "RakeRow",
    "TableType",
    "allocate_proportionally",
    "compute_rake",
    "find_rake_row",
    "rake_by_contribution",
    "reduced_cap_for_blinds",
]
