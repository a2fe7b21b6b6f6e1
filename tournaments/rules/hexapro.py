"""HexaPro and HexaPro Extreme as data and pure functions (HEX-01..HEX-30, FEE-06, TB-02, TB-06; AMB-04, AMB-05,
AMB-15, AMB-16, AMB-19, AMB-31, AMB-52, AMB-58, AMB-65).

A :class:`HexaProProduct` holds everything the catalog fixes for one product as plain values the back-office can store
as rows (catalog section 0.3: numeric parameters are editable data): the buy-ins offered with their fee components,
one :class:`MultiplierRow` per multiplier (integer probability weight, payout percentages, starting stack, level
duration, timebank row), the blind structure as ``(small blind, big blind, ante)`` rows, the seats (3) and the
published rake equivalent. Every function takes the product as an argument, so the figures are computed from whichever
tables are stored; :data:`HEXAPRO` and :data:`HEXAPRO_EXTREME` are the catalog's defaults (seed 002 › HEXAPRO and the
HexaPro Extreme part after it). A further variant such as "HexaPro Banzai" (HEX-30, AMB-19) is one more product value.

Rules decided here:

* Multipliers are integer tenths (15 = 1.5x) and money integer cents, so a prize pool, multiplier × buy-in (HEX-07,
  HEX-21, HEX-23), is exact: 1.5x of €1 is 150 cents. A product whose buy-in × multiplier is not whole cents is refused.
* Probabilities are integer weights (HEX-06, HEX-22: "in 100,000"); the probability of a row is its weight over the sum.
  :func:`draw_multiplier` draws a ticket ``randrange(sum of weights)`` from the injected source (GEN-08: production
  passes :data:`PRODUCTION_RANDOM_SOURCE`, ``secrets.SystemRandom()``) and walks the rows in their stored order,
  largest multiplier first as in the seed; the ticket is kept with the result so the log of every draw can be checked.
* Payouts (HEX-09, HEX-25) are whole percentages, place 1 first, adding up to 100 (``(100,)``: winner takes all), the
  form :mod:`tournaments.rules.cancellation` takes for CXL-09. A split uses the cent rule of
  :func:`tournaments.rules.payouts.prize_amounts` (down to the cent, leftover cents to the best places); every
  combination of the default tables is exact anyway (:func:`inexact_payouts` is empty).
* Rake equivalent (HEX-08, HEX-24) = 1 − expected multiplier / seats, exact: 279,441 / 100,000 / 3 → 6.853 % for both.
* Fee component (FEE-06, AMB-16): buy-in × the published 6.853 %, rounded half up to the cent (€10 → €0.69); booked for
  reporting and refunded by CXL-09. The prize pool is always multiplier × the full buy-in; the house funds or keeps the
  difference between the pool and the seats' buy-ins (:class:`GameMoney`).
* Blind structure (HEX-12, HEX-27) with the starting stack (HEX-11, HEX-26) and level duration (HEX-13, HEX-28) of the
  drawn multiplier; the last level stays in force until the game ends (HEX-14, AMB-52) and a level applies from the
  first hand dealt after its timer expires (AMB-65) — both by :mod:`tournaments.rules.levels`.
* Timebank (HEX-15, HEX-29, TB-02, TB-06, AMB-31): each row carries the TB-02 HexaPro row of its multiplier (below 25x:
  10 s, +5 s every 5th hand, cap 20 s; 25x and above: 30 s, +5 s every 5th hand, cap 60 s).
* Registration (HEX-03): 1 to ``maximum_games_per_registration`` games at an offered buy-in, paid in full by the
  balance (buy-in × games), else :class:`RuleError` and nothing is registered. The catalog gives no maximum: the
  default of 20 games is a conventional limit, stored with the product.
* Absence (HEX-16): a sitting-out player is dealt in, posts blinds and antes and is acted for at once; a disconnected
  player gets the normal decision time plus 20 s (no timebank, TB-07), is then checked or folded (the engine's
  ``timeout_action``) and set to sitting out at the end of the hand. One player sitting out by choice is allowed; two or
  more at once is flagged for review, since the rule forbids agreements to sit out simultaneously.
* Finishing places (HEX-18): the first player eliminated is 3rd, the next 2nd; players eliminated in the same hand are
  ordered by their chips at the start of it, equal stacks at random (TRN-22). All places are paid at once when the game
  ends (HEX-10, AMB-58).

Matching of registrations is in :mod:`tournaments.rules.hexapro_matching`, the multiplier audit in
:mod:`tournaments.rules.hexapro_audit`, the cancellation split in :mod:`tournaments.rules.cancellation`, the 90-day
queue for incomplete games (HEX-17) in ``wallet.services.unresolved``.

Standard library and the engine only.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from itertools import pairwise
from math import floor
from typing import Final, Protocol

from games.engine.uth.money import format_cents
from tournaments.rules.common import RandomSource, RuleError, require_whole
from tournaments.rules.eliminations import finishing_places
from tournaments.rules.fees import EntryPrice
from tournaments.rules.levels import BlindStructure, structure_from_rows
from tournaments.rules.payouts import prize_amounts
from tournaments.rules.timebank import TimebankRule, hexapro_timebank

PERCENT: Final[int] = 100
TENTHS: Final[int] = 10


class IntegerSource(Protocol):
    """``randrange``, like ``random.Random`` and ``secrets.SystemRandom``."""

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int: ...


PRODUCTION_RANDOM_SOURCE: Final[IntegerSource] = secrets.SystemRandom()
"""GEN-08: the cryptographically secure source production draws multipliers with."""


def multiplier_text(multiplier_tenths: int) -> str:
    """``"1.5x"``, ``"1000x"``: a multiplier in tenths as the seed prints it."""
    whole, tenth = divmod(require_whole(multiplier_tenths, "multiplier (tenths)", minimum=1), TENTHS)
    return f"{whole}.{tenth}x" if tenth else f"{whole}x"


def percent_text(value: Fraction, places: int = 3) -> str:
    """``Fraction(6853, 100000)`` → ``"6.853 %"``: a share as a percentage, rounded half up to ``places`` decimals."""
    scaled = floor(value * PERCENT * 10**places + Fraction(1, 2))
    sign = "-" if scaled < 0 else ""
    units, decimals = divmod(abs(scaled), 10**places)
    return f"{sign}{units}.{decimals:0{places}d} %" if places else f"{sign}{units} %"


def default_fee_component_cents(buy_in_cents: int, rake_equivalent_percent: Decimal) -> int:
    """FEE-06 / AMB-16: buy-in × the published rake equivalent (a percentage), rounded half up to the cent."""
    require_whole(buy_in_cents, "buy-in (cents)", minimum=1)
    if not isinstance(rake_equivalent_percent, Decimal) or not 0 <= rake_equivalent_percent < PERCENT:
        raise RuleError(f"a rake equivalent is a percentage from 0 to 100, not {rake_equivalent_percent!r}")
    return floor(buy_in_cents * Fraction(rake_equivalent_percent) / PERCENT + Fraction(1, 2))


@dataclass(frozen=True, slots=True)
class BuyInLevel:
    """One buy-in offered (HEX-02, HEX-20) and its fee component (FEE-06), in cents."""

    buy_in_cents: int
    fee_component_cents: int

    def __post_init__(self) -> None:
        require_whole(self.buy_in_cents, "buy-in (cents)", minimum=1)
        require_whole(self.fee_component_cents, "fee component (cents)")
        if self.fee_component_cents > self.buy_in_cents:
            raise RuleError(f"the fee component {self.fee_component_cents} cents exceeds the buy-in")


@dataclass(frozen=True, slots=True)
class MultiplierRow:
    """One multiplier of a product: its probability weight (HEX-06, HEX-22), the payout percentages place 1 first
    (HEX-09, HEX-25), the starting stack (HEX-11, HEX-26), the level duration (HEX-13, HEX-28) and the timebank row
    (HEX-15, HEX-29)."""

    multiplier_tenths: int
    weight: int
    payout_percentages: tuple[int, ...]
    starting_stack: int
    level_seconds: int
    timebank: TimebankRule

    def __post_init__(self) -> None:
        label = f"multiplier {self.multiplier_tenths!r} (tenths)"
        require_whole(self.multiplier_tenths, "multiplier (tenths)", minimum=1)
        require_whole(self.weight, f"probability weight of {label}", minimum=1)
        require_whole(self.starting_stack, f"starting stack of {label}", minimum=1)
        require_whole(self.level_seconds, f"level duration (seconds) of {label}", minimum=1)
        if not isinstance(self.timebank, TimebankRule):
            raise RuleError(f"the timebank of {label} is not a TimebankRule: {self.timebank!r}")
        if not isinstance(self.payout_percentages, tuple) or not self.payout_percentages:
            raise RuleError(f"the payout percentages of {label} are a tuple of at least one place")
        for share in self.payout_percentages:
            require_whole(share, f"payout percentage of {label}", minimum=1)
        if sum(self.payout_percentages) != PERCENT:
            raise RuleError(f"the payout percentages of {label} add up to {sum(self.payout_percentages)}, not 100")
        if any(later > earlier for earlier, later in pairwise(self.payout_percentages)):
            raise RuleError(f"a place of {label} cannot pay more than the place above it")

    @property
    def multiplier(self) -> Fraction:
        return Fraction(self.multiplier_tenths, TENTHS)

    @property
    def label(self) -> str:
        return multiplier_text(self.multiplier_tenths)


@dataclass(frozen=True, slots=True)
class HexaProProduct:
    """A HexaPro product (see the module docstring). ``multipliers`` are stored largest first (the order the draw walks
    them in, as the seed prints them); ``blind_rows`` are ``(small blind, big blind, ante)``, level 1 first;
    ``stated_rake_equivalent_percent`` is the published figure (6.853) the fee components and the audit refer to."""

    code: str
    name: str
    buy_ins: tuple[BuyInLevel, ...]
    multipliers: tuple[MultiplierRow, ...]
    blind_rows: tuple[tuple[int, int, int], ...]
    stated_rake_equivalent_percent: Decimal
    seats: int = 3
    maximum_games_per_registration: int = 20
    decision_seconds: int = 10
    reconnect_grace_seconds: int = 20

    def __post_init__(self) -> None:
        if not isinstance(self.code, str) or not self.code or not isinstance(self.name, str) or not self.name:
            raise RuleError("a HexaPro product needs a code and a name")
        require_whole(self.seats, "seats", minimum=2)
        require_whole(self.maximum_games_per_registration, "games per registration (maximum)", minimum=1)
        require_whole(self.decision_seconds, "normal decision time (seconds)", minimum=1)
        require_whole(self.reconnect_grace_seconds, "reconnection grace (seconds)")
        if not isinstance(self.stated_rake_equivalent_percent, Decimal):
            raise RuleError("the stated rake equivalent is a Decimal percentage, e.g. Decimal('6.853')")
        if not self.buy_ins or not all(isinstance(level, BuyInLevel) for level in self.buy_ins):
            raise RuleError(f"{self.name} needs at least one BuyInLevel")
        amounts = [level.buy_in_cents for level in self.buy_ins]
        if amounts != sorted(set(amounts)):
            raise RuleError(f"the buy-ins of {self.name} are distinct and in increasing order, not {amounts}")
        if not self.multipliers or not all(isinstance(row, MultiplierRow) for row in self.multipliers):
            raise RuleError(f"{self.name} needs at least one MultiplierRow")
        tenths = [row.multiplier_tenths for row in self.multipliers]
        if tenths != sorted(set(tenths), reverse=True):
            raise RuleError(f"the multipliers of {self.name} are distinct and largest first, not {tenths}")
        for row in self.multipliers:
            if len(row.payout_percentages) > self.seats:
                raise RuleError(f"{row.label} pays {len(row.payout_percentages)} places at a {self.seats}-seat game")
        for level in self.buy_ins:
            for row in self.multipliers:
                if level.buy_in_cents * row.multiplier_tenths % TENTHS:
                    raise RuleError(
                        f"{row.label} of a {format_cents(level.buy_in_cents)} buy-in is not a whole number of cents"
                    )
        if not self.blind_rows or not all(isinstance(row, tuple) and len(row) == 3 for row in self.blind_rows):
            raise RuleError(f"the blind rows of {self.name} are (small blind, big blind, ante) tuples")
        structure_from_rows(self.name, 1, self.blind_rows, 1)  # refuses impossible blinds

    @property
    def total_weight(self) -> int:
        return sum(row.weight for row in self.multipliers)


@dataclass(frozen=True, slots=True)
class MultiplierDraw:
    """HEX-05: the drawn row, and the ticket ``0 <= ticket < total_weight`` it was drawn by (logged, GEN-07/GEN-08)."""

    row: MultiplierRow
    ticket: int
    total_weight: int


@dataclass(frozen=True, slots=True)
class GameMoney:
    """The money of one game: what the seats paid, the fee components booked for reporting (FEE-06), and the prize
    pool (multiplier × buy-in). ``house_result_cents`` is what the house keeps (negative: what it funds)."""

    buy_ins_cents: int
    fee_components_cents: int
    prize_pool_cents: int

    @property
    def house_result_cents(self) -> int:
        return self.buy_ins_cents - self.prize_pool_cents


@dataclass(frozen=True, slots=True)
class Prize:
    """A finishing place and the cents it is credited at the end of the game (0 for an unpaid place)."""

    player: int
    place: int
    cents: int


@dataclass(frozen=True, slots=True)
class TurnAllowance:
    """HEX-16: how long the server waits for a player whose turn it is before acting for them (check if possible,
    else fold), whether the timebank then runs (TB-04), and whether the player is set to sitting out when the hand
    ends."""

    wait_seconds: int
    timebank_runs: bool
    sit_out_after_hand: bool


# --- looking rows up ---------------------------------------------------------------------------------------------


def product_by_code(products: Iterable[HexaProProduct], code: str) -> HexaProProduct:
    """The product with ``code``, else :class:`RuleError` naming the codes there are."""
    known = list(products)
    for product in known:
        if product.code == code:
            return product
    raise RuleError(f"no HexaPro product {code!r}; there are {', '.join(product.code for product in known)}")


def buy_in_level(product: HexaProProduct, buy_in_cents: int) -> BuyInLevel:
    """The offered buy-in of ``buy_in_cents``, else :class:`RuleError` listing the offered ones."""
    require_whole(buy_in_cents, "buy-in (cents)", minimum=1)
    for level in product.buy_ins:
        if level.buy_in_cents == buy_in_cents:
            return level
    offered = ", ".join(format_cents(level.buy_in_cents) for level in product.buy_ins)
    raise RuleError(f"{product.name} has no {format_cents(buy_in_cents)} buy-in; offered: {offered}")


def multiplier_row(product: HexaProProduct, multiplier_tenths: int) -> MultiplierRow:
    """The row of ``multiplier_tenths``, else :class:`RuleError`."""
    require_whole(multiplier_tenths, "multiplier (tenths)", minimum=1)
    for row in product.multipliers:
        if row.multiplier_tenths == multiplier_tenths:
            return row
    raise RuleError(f"{product.name} has no {multiplier_text(multiplier_tenths)} multiplier")


# --- expected return -----------------------------------------------------------------------------------------------


def probability(product: HexaProProduct, multiplier_tenths: int) -> Fraction:
    """HEX-06 / HEX-22: the chance of drawing ``multiplier_tenths``."""
    return Fraction(multiplier_row(product, multiplier_tenths).weight, product.total_weight)


def expected_multiplier(product: HexaProProduct) -> Fraction:
    """HEX-08 / HEX-24: Σ multiplier × weight / Σ weight (2.79441 for both default products)."""
    total = sum(row.multiplier * row.weight for row in product.multipliers)
    return Fraction(total) / product.total_weight


def rake_equivalent(product: HexaProProduct) -> Fraction:
    """HEX-08 / HEX-24: the expected share of the seats' buy-ins not returned as prizes, 1 − E[multiplier] / seats."""
    return 1 - expected_multiplier(product) / product.seats


def stated_rake_equivalent(product: HexaProProduct) -> Fraction:
    """The published rake equivalent as a share (6.853 % → 6853/100000)."""
    return Fraction(product.stated_rake_equivalent_percent) / PERCENT


# --- money of a game -------------------------------------------------------------------------------------------------


def prize_pool_cents(product: HexaProProduct, buy_in_cents: int, multiplier_tenths: int) -> int:
    """HEX-07 / HEX-21 / HEX-23: multiplier × buy-in, in cents (the buy-in must be offered)."""
    level = buy_in_level(product, buy_in_cents)
    row = multiplier_row(product, multiplier_tenths)
    return level.buy_in_cents * row.multiplier_tenths // TENTHS


def prize_pool_range_cents(product: HexaProProduct, buy_in_cents: int) -> tuple[int, int]:
    """HEX-03: the smallest and largest prize pool the confirmation dialogue shows for a buy-in."""
    smallest, largest = product.multipliers[-1], product.multipliers[0]
    return (
        prize_pool_cents(product, buy_in_cents, smallest.multiplier_tenths),
        prize_pool_cents(product, buy_in_cents, largest.multiplier_tenths),
    )


def payout_percentages(product: HexaProProduct, multiplier_tenths: int) -> tuple[int, ...]:
    """HEX-09 / HEX-25: the percentages of the pool per place, place 1 first (the form CXL-09's split takes)."""
    return multiplier_row(product, multiplier_tenths).payout_percentages


def payout_split_cents(product: HexaProProduct, buy_in_cents: int, multiplier_tenths: int) -> tuple[int, ...]:
    """HEX-09 / HEX-25: the prize of each paid place in cents, place 1 first, adding up to exactly the pool."""
    pool = prize_pool_cents(product, buy_in_cents, multiplier_tenths)
    return prize_amounts(pool, payout_percentages(product, multiplier_tenths))


def inexact_payouts(product: HexaProProduct) -> tuple[tuple[int, int], ...]:
    """``(buy-in cents, multiplier tenths)`` of every combination whose percentages do not give whole cents (the cent
    rule then decides); empty for the default products, as the catalog says."""
    return tuple(
        (level.buy_in_cents, row.multiplier_tenths)
        for level in product.buy_ins
        for row in product.multipliers
        if any(
            prize_pool_cents(product, level.buy_in_cents, row.multiplier_tenths) * share % PERCENT
            for share in row.payout_percentages
        )
    )


def entry_price(product: HexaProProduct, buy_in_cents: int) -> EntryPrice:
    """FEE-04 / FEE-06: a HexaPro buy-in booked as two amounts for reporting and refunds — the fee component and the
    rest. (The prize pool is not the sum of the rests: it is drawn, multiplier × the full buy-in.)"""
    level = buy_in_level(product, buy_in_cents)
    return EntryPrice(level.buy_in_cents - level.fee_component_cents, level.fee_component_cents)


def game_money(product: HexaProProduct, buy_in_cents: int, multiplier_tenths: int) -> GameMoney:
    """The buy-ins of all seats, their fee components and the prize pool of a game at ``buy_in_cents``."""
    level = buy_in_level(product, buy_in_cents)
    return GameMoney(
        buy_ins_cents=level.buy_in_cents * product.seats,
        fee_components_cents=level.fee_component_cents * product.seats,
        prize_pool_cents=prize_pool_cents(product, buy_in_cents, multiplier_tenths),
    )


def registration_total_cents(product: HexaProProduct, buy_in_cents: int, games: int, balance_cents: int) -> int:
    """HEX-03: the total buy-in (buy-in × games) of registering ``games`` games, if the buy-in is offered, the number
    of games is from 1 to the product's maximum and the balance covers the total; else :class:`RuleError`."""
    level = buy_in_level(product, buy_in_cents)
    if type(games) is not int or not 1 <= games <= product.maximum_games_per_registration:
        raise RuleError(
            f"the number of games is a whole number from 1 to {product.maximum_games_per_registration}, not {games!r}"
        )
    require_whole(balance_cents, "balance (cents)")
    total = level.buy_in_cents * games
    if total > balance_cents:
        raise RuleError(
            f"{games} × {format_cents(level.buy_in_cents)} = {format_cents(total)} is more than the balance of "
            f"{format_cents(balance_cents)}"
        )
    return total


# --- the draw --------------------------------------------------------------------------------------------------------


def multiplier_for_ticket(product: HexaProProduct, ticket: int) -> MultiplierRow:
    """The row a ticket ``0 <= ticket < total weight`` falls on, walking the rows in their stored order."""
    require_whole(ticket, "ticket")
    remaining = ticket
    for row in product.multipliers:
        if remaining < row.weight:
            return row
        remaining -= row.weight
    raise RuleError(f"ticket {ticket} is outside 0..{product.total_weight - 1}")


def draw_multiplier(product: HexaProProduct, random_source: IntegerSource) -> MultiplierDraw:
    """HEX-05: draw a multiplier with exactly the probabilities of the product's weights (HEX-06, HEX-22).

    Production passes :data:`PRODUCTION_RANDOM_SOURCE`; tests a seeded ``random.Random``."""
    total = product.total_weight
    ticket = random_source.randrange(total)
    if type(ticket) is not int or not 0 <= ticket < total:
        raise RuleError(f"the random source gave {ticket!r} for randrange({total})")
    return MultiplierDraw(multiplier_for_ticket(product, ticket), ticket, total)


# --- the game --------------------------------------------------------------------------------------------------------


def blind_structure(product: HexaProProduct, multiplier_tenths: int) -> BlindStructure:
    """HEX-11..HEX-14, HEX-26..HEX-28: the blinds with the starting stack and level duration of the multiplier. Past
    the last level, ``BlindStructure.level`` and ``LevelClock`` keep the last level in force (AMB-52)."""
    row = multiplier_row(product, multiplier_tenths)
    return structure_from_rows(f"{product.name} {row.label}", row.starting_stack, product.blind_rows, row.level_seconds)


def timebank(product: HexaProProduct, multiplier_tenths: int) -> TimebankRule:
    """HEX-15 / HEX-29 / TB-02 / TB-06: the timebank row of the multiplier."""
    return multiplier_row(product, multiplier_tenths).timebank


def turn_allowance(product: HexaProProduct, *, connected: bool, sitting_out: bool) -> TurnAllowance:
    """HEX-16 (with TB-04, TB-07, TRN-19): a sitting-out player is acted for at once; a disconnected one waits the
    normal decision time plus the reconnection grace, without the timebank, and sits out after the hand; a connected
    one has the normal decision time and then the timebank."""
    if sitting_out:
        return TurnAllowance(0, timebank_runs=False, sit_out_after_hand=False)
    if not connected:
        wait = product.decision_seconds + product.reconnect_grace_seconds
        return TurnAllowance(wait, timebank_runs=False, sit_out_after_hand=True)
    return TurnAllowance(product.decision_seconds, timebank_runs=True, sit_out_after_hand=False)


def sitting_out_needs_review(players_sitting_out_by_choice: Collection[int]) -> bool:
    """HEX-16: one player may choose to sit out; two or more sitting out by choice at once may be an agreement, which
    the rule forbids, so the game is flagged for review (sitting out after a disconnection does not count)."""
    return len(set(players_sitting_out_by_choice)) >= 2


def finishing_order(
    players: Sequence[int], eliminations: Sequence[Mapping[int, int]], randomness: RandomSource
) -> tuple[int, ...]:
    """HEX-18: the players of a finished game, place 1 first. ``eliminations`` lists, hand by hand in playing order,
    ``{player: chips at the start of that hand}`` of the players eliminated in it; the player never eliminated wins.
    Same-hand eliminations are ordered by TRN-22 (more chips finishes higher, equal stacks at random)."""
    if len(set(players)) != len(players) or len(players) < 2:
        raise RuleError(f"a game has at least two distinct players, not {list(players)}")
    left = list(players)
    worst_first: list[int] = []
    for hand, eliminated in enumerate(eliminations, start=1):
        strangers = [player for player in eliminated if player not in left]
        if not eliminated or strangers:
            raise RuleError(f"elimination {hand} names no player still in the game: {dict(eliminated)}")
        places = finishing_places(dict(eliminated), len(left), randomness)
        worst_first.extend(place.player for place in reversed(places))
        left = [player for player in left if player not in eliminated]
    if len(left) != 1:
        raise RuleError(f"the game is not over: {len(left)} players are left")
    return (left[0], *reversed(worst_first))


def game_prizes(
    product: HexaProProduct, buy_in_cents: int, multiplier_tenths: int, order: Sequence[int]
) -> tuple[Prize, ...]:
    """HEX-09 / HEX-10 / HEX-25 / AMB-58: every place's prize, all credited at once when the game ends. ``order``:
    the players place 1 first (:func:`finishing_order`)."""
    if len(order) != product.seats or len(set(order)) != len(order):
        raise RuleError(f"a {product.name} game ends with {product.seats} distinct players placed, not {list(order)}")
    split = payout_split_cents(product, buy_in_cents, multiplier_tenths)
    return tuple(
        Prize(player, place, split[place - 1] if place <= len(split) else 0)
        for place, player in enumerate(order, start=1)
    )


# --- the catalog's products ------------------------------------------------------------------------------------------

STATED_RAKE_EQUIVALENT_PERCENT: Final[Decimal] = Decimal("6.853")
WINNER_TAKES_ALL: Final[tuple[int, ...]] = (100,)
EIGHTY_TWELVE_EIGHT: Final[tuple[int, ...]] = (80, 12, 8)
EIGHTY_SIXTEEN_FOUR: Final[tuple[int, ...]] = (80, 16, 4)
MINUTE: Final[int] = 60


def _buy_ins(amounts_cents: Iterable[int]) -> tuple[BuyInLevel, ...]:
    return tuple(
        BuyInLevel(amount, default_fee_component_cents(amount, STATED_RAKE_EQUIVALENT_PERCENT))
        for amount in amounts_cents
    )


def _row(multiplier_tenths: int, weight: int, payout: tuple[int, ...], stack: int, minutes: int) -> MultiplierRow:
    timebank_row = hexapro_timebank(Fraction(multiplier_tenths, TENTHS))
    return MultiplierRow(multiplier_tenths, weight, payout, stack, minutes * MINUTE, timebank_row)


# HEX-12: 28 levels, antes from level 2.
HEXAPRO_BLIND_ROWS: Final[tuple[tuple[int, int, int], ...]] = (
    (10, 20, 0),
    (15, 30, 4),
    (20, 40, 5),
    (25, 50, 6),
    (30, 60, 7),
    (40, 80, 10),
    (50, 100, 12),
    (60, 120, 15),
    (75, 150, 20),
    (100, 200, 25),
    (125, 250, 30),
    (150, 300, 40),
    (200, 400, 50),
    (250, 500, 60),
    (300, 600, 70),
    (350, 700, 85),
    (400, 800, 100),
    (500, 1_000, 125),
    (600, 1_200, 150),
    (700, 1_400, 175),
    (800, 1_600, 200),
    (900, 1_800, 225),
    (1_000, 2_000, 250),
    (1_200, 2_400, 300),
    (1_400, 2_800, 350),
    (1_600, 3_200, 400),
    (1_800, 3_600, 450),
    (2_000, 4_000, 500),
)

# HEX-27: 19 levels, no antes.
HEXAPRO_EXTREME_BLIND_ROWS: Final[tuple[tuple[int, int, int], ...]] = (
    (10, 20, 0),
    (15, 30, 0),
    (20, 40, 0),
    (30, 60, 0),
    (40, 80, 0),
    (50, 100, 0),
    (60, 120, 0),
    (75, 150, 0),
    (100, 200, 0),
    (125, 250, 0),
    (150, 300, 0),
    (200, 400, 0),
    (250, 500, 0),
    (300, 600, 0),
    (350, 700, 0),
    (400, 800, 0),
    (500, 1_000, 0),
    (600, 1_200, 0),
    (700, 1_400, 0),
)

HEXAPRO: Final[HexaProProduct] = HexaProProduct(
    code="hexapro",
    name="HexaPro",
    # HEX-02: €1, €2, €5, €10, €25, €50, €100.
    buy_ins=_buy_ins((100, 200, 500, 1_000, 2_500, 5_000, 10_000)),
    # HEX-06 weights in 100,000; HEX-09 payouts (above 10x: 80/12/8); HEX-11 500 chips; HEX-13 level minutes.
    multipliers=(
        _row(10_000, 1, EIGHTY_TWELVE_EIGHT, 500, 4),
        _row(1_000, 5, EIGHTY_TWELVE_EIGHT, 500, 4),
        _row(250, 100, EIGHTY_TWELVE_EIGHT, 500, 4),
        _row(100, 4_600, WINNER_TAKES_ALL, 500, 3),
        _row(50, 14_000, WINNER_TAKES_ALL, 500, 3),
        _row(30, 25_000, WINNER_TAKES_ALL, 500, 2),
        _row(15, 56_294, WINNER_TAKES_ALL, 500, 1),
    ),
    blind_rows=HEXAPRO_BLIND_ROWS,
    stated_rake_equivalent_percent=STATED_RAKE_EQUIVALENT_PERCENT,
)

HEXAPRO_EXTREME: Final[HexaProProduct] = HexaProProduct(
    code="hexapro_extreme",
    name="HexaPro Extreme",
    # HEX-20: €0.2, €0.5, €1, €2, €5, €10, €20, €25, €50, €100.
    buy_ins=_buy_ins((20, 50, 100, 200, 500, 1_000, 2_000, 2_500, 5_000, 10_000)),
    # HEX-22 weights; HEX-25 payouts (up to 20x winner takes all, 125x 80/16/4, 1000x 80/12/8); HEX-26 stacks
    # (AMB-05: "1.x" is 1x); HEX-28 level minutes (AMB-04: the column the seed heads "Starting Stack").
    multipliers=(
        _row(10_000, 1, EIGHTY_TWELVE_EIGHT, 500, 3),
        _row(1_250, 202, EIGHTY_SIXTEEN_FOUR, 500, 3),
        _row(200, 100, WINNER_TAKES_ALL, 300, 2),
        _row(100, 3_550, WINNER_TAKES_ALL, 300, 2),
        _row(40, 12_000, WINNER_TAKES_ALL, 200, 1),
        _row(30, 41_772, WINNER_TAKES_ALL, 200, 1),
        _row(10, 42_375, WINNER_TAKES_ALL, 100, 1),
    ),
    blind_rows=HEXAPRO_EXTREME_BLIND_ROWS,
    stated_rake_equivalent_percent=STATED_RAKE_EQUIVALENT_PERCENT,
)

DEFAULT_PRODUCTS: Final[tuple[HexaProProduct, ...]] = (HEXAPRO, HEXAPRO_EXTREME)
