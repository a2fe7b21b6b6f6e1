"""The betting window: bet limits and a player's bet slip (UTH-05..UTH-07, UTH-22, UTH-26, UTH-28..UTH-31).

A :class:`BetSlip` is the ordered list of :class:`BetStep` values a player made this round, so that UNDO can take them
back one at a time in reverse order (UTH-30). Each step adds to the ANTE and/or TRIPS spots; the BLIND always equals
the ANTE (UTH-05), so a step's *stake* — the money it moves from the player — is ``2 × ante + trips``.

The rules, with the words a player sees when a bet is refused (:class:`BetRejected`):

* Only ANTE and TRIPS take chips; the BLIND follows the ANTE and PLAY is a decision after the deal (UTH-05, UTH-09).
* TRIPS only after an ANTE has been placed (UTH-06).
* Each chip adds its value to the spot, capped at the spot's maximum; a spot already at its maximum refuses further
  chips with a "maximum" message (UTH-26). A spot must reach its minimum with the chip that opens it (AMB-55 limits).
* ANTE amounts are whole 2-cent steps: the Blind's 1.5:1 payout is then a whole number of cents, never rounded.
* DOUBLE (x2) doubles every spot, each capped at its maximum; refused when nothing is placed or every spot is already
  at its maximum (UTH-29). Whether the balance covers it is the wallet's business: the whole step is one transfer.
* REPEAT places the previous round's bets in one step, only before the first chip of this round, and only if they are
  within this table's current limits (UTH-28).
* UNDO removes the last step; CLEAR removes them all (holding UNDO, UTH-30).

Betting closes when the betting time expires (UTH-07); the round state refuses bets after that.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from games.engine.uth.money import format_cents
from games.engine.uth.settlement import BetSpot

ANTE_STEP_CENTS: Final[int] = 2
"""Every Ante is a multiple of this, so the Blind's 1.5:1 (UTH-18) pays whole cents."""

MAXIMUM_BET_CENTS: Final[int] = 10**12
"""No single chip or limit above €10 billion is taken seriously: such numbers are refused as malformed input."""


class BetRejected(ValueError):
    """A bet that the rules do not allow now; the message says why in plain words."""


class StepKind(StrEnum):
    CHIP = "chip"
    DOUBLE = "double"
    REPEAT = "repeat"


@dataclass(frozen=True, slots=True)
class BetAmounts:
    """What sits on the ANTE and TRIPS spots (the BLIND equals the ANTE)."""

    ante: int = 0
    trips: int = 0

    @property
    def blind(self) -> int:
        return self.ante

    @property
    def stake(self) -> int:
        """Money on the table: ANTE + BLIND + TRIPS (UTH-31 TOTAL BET before any PLAY bet)."""
        return 2 * self.ante + self.trips


@dataclass(frozen=True, slots=True)
class BetLimits:
    """A table's limits per bet in cents (UTH-22, AMB-55): ANTE and TRIPS each have a minimum and maximum; the
    BLIND equals the ANTE and PLAY is a multiple of it, so they have no limits of their own.

    Raises ``ValueError`` when constructed with limits that make no sense (not positive, minimum above maximum, an
    ANTE limit that is not a whole number of 2-cent steps).
    """

    ante_minimum: int
    ante_maximum: int
    trips_minimum: int
    trips_maximum: int

    def __post_init__(self) -> None:
        for name in ("ante_minimum", "ante_maximum", "trips_minimum", "trips_maximum"):
            value = getattr(self, name)
            if type(value) is not int or not 0 < value <= MAXIMUM_BET_CENTS:
                raise ValueError(f"{name} must be a positive whole number of cents, not {value!r}")
        if self.ante_minimum > self.ante_maximum:
            raise ValueError("the minimum Ante is above the maximum Ante")
        if self.trips_minimum > self.trips_maximum:
            raise ValueError("the minimum Trips bet is above the maximum Trips bet")
        if self.ante_minimum % ANTE_STEP_CENTS or self.ante_maximum % ANTE_STEP_CENTS:
            raise ValueError(f"Ante limits must be multiples of {ANTE_STEP_CENTS} cents")

    def bounds(self, spot: BetSpot) -> tuple[int, int]:
        """(minimum, maximum) of a chip spot."""
        if spot is BetSpot.ANTE:
            return self.ante_minimum, self.ante_maximum
        if spot is BetSpot.TRIPS:
            return self.trips_minimum, self.trips_maximum
        raise ValueError(f"{spot} has no limits of its own")

    def allows(self, amounts: BetAmounts) -> bool:
        """Whether these amounts, placed at once, are within the limits (a TRIPS of 0 means no Trips bet)."""
        return (
            self.ante_minimum <= amounts.ante <= self.ante_maximum
            and amounts.ante % ANTE_STEP_CENTS == 0
            and (amounts.trips == 0 or self.trips_minimum <= amounts.trips <= self.trips_maximum)
        )


@dataclass(frozen=True, slots=True)
class BetStep:
    """One undoable placement: a chip, a DOUBLE or a REPEAT, with what it added to ANTE and TRIPS."""

    kind: StepKind
    ante: int = 0
    trips: int = 0

    @property
    def stake(self) -> int:
        """Money this step moves from the player: the ANTE added, the equal BLIND, and the TRIPS added."""
        return 2 * self.ante + self.trips


def _spot_name(spot: BetSpot) -> str:
    return "Ante" if spot is BetSpot.ANTE else "Trips bet"


@dataclass(frozen=True, slots=True)
class BetSlip:
    """A player's bets in the current betting window, as undoable steps (oldest first)."""

    steps: tuple[BetStep, ...] = ()

    @property
    def amounts(self) -> BetAmounts:
        return BetAmounts(sum(step.ante for step in self.steps), sum(step.trips for step in self.steps))

    @property
    def ante(self) -> int:
        return sum(step.ante for step in self.steps)

    @property
    def trips(self) -> int:
        return sum(step.trips for step in self.steps)

    @property
    def stake(self) -> int:
        return sum(step.stake for step in self.steps)

    @property
    def is_empty(self) -> bool:
        return not self.steps

    # --- chips ------------------------------------------------------------------------------------------------------

    def verify_chip(self, spot: BetSpot, chip: object, limits: BetLimits) -> BetStep:
        """The step a chip of ``chip`` cents on ``spot`` would make, or :class:`BetRejected` saying why not."""
        if spot is BetSpot.BLIND:
            raise BetRejected("The Blind is placed for you automatically and always equals your Ante.")
        if spot is BetSpot.PLAY:
            raise BetRejected("The Play bet is made with a PLAY decision after the cards are dealt.")
        if type(chip) is not int or not 0 < chip <= MAXIMUM_BET_CENTS:
            raise BetRejected("A chip must be a positive whole number of cents.")
        if spot is BetSpot.TRIPS and self.ante == 0:
            raise BetRejected("Place your Ante before the Trips bet.")
        minimum, maximum = limits.bounds(spot)
        current = self.ante if spot is BetSpot.ANTE else self.trips
        name = _spot_name(spot)
        if current >= maximum:
            raise BetRejected(f"You have already bet the maximum {name} of {format_cents(maximum)}.")
        new_amount = min(current + chip, maximum)
        if new_amount < minimum:
            raise BetRejected(f"The minimum {name} at this table is {format_cents(minimum)}; choose a larger chip.")
        if spot is BetSpot.ANTE and new_amount % ANTE_STEP_CENTS:
            raise BetRejected(
                "The Ante must be a whole number of 2-cent steps, so that the Blind's 1.5:1 payout is exact."
            )
        added = new_amount - current
        if spot is BetSpot.ANTE:
            return BetStep(StepKind.CHIP, ante=added)
        return BetStep(StepKind.CHIP, trips=added)

    def can_chip(self, spot: BetSpot, chip: object, limits: BetLimits) -> bool:
        try:
            self.verify_chip(spot, chip, limits)
        except BetRejected:
            return False
        return True

    def with_chip(self, spot: BetSpot, chip: object, limits: BetLimits) -> tuple[BetSlip, BetStep]:
        """Place a chip: the new slip and the step taken (raises :class:`BetRejected`)."""
        step = self.verify_chip(spot, chip, limits)
        return BetSlip((*self.steps, step)), step

    # --- DOUBLE -----------------------------------------------------------------------------------------------------

    def verify_double(self, limits: BetLimits) -> BetStep:
        """The step DOUBLE would make: every spot doubled, capped at its maximum (UTH-29)."""
        if self.is_empty:
            raise BetRejected("Place a bet before doubling.")
        ante, trips = self.ante, self.trips
        add_ante = min(2 * ante, limits.ante_maximum) - ante
        add_trips = min(2 * trips, limits.trips_maximum) - trips if trips else 0
        if add_ante <= 0 and add_trips <= 0:
            raise BetRejected("Your bets are already at the table maximum; they cannot be doubled.")
        return BetStep(StepKind.DOUBLE, ante=max(add_ante, 0), trips=max(add_trips, 0))

    def can_double(self, limits: BetLimits) -> bool:
        try:
            self.verify_double(limits)
        except BetRejected:
            return False
        return True

    def with_double(self, limits: BetLimits) -> tuple[BetSlip, BetStep]:
        step = self.verify_double(limits)
        return BetSlip((*self.steps, step)), step

    # --- REPEAT -----------------------------------------------------------------------------------------------------

    def verify_repeat(self, previous: BetAmounts | None, limits: BetLimits) -> BetStep:
        """The step REPEAT would make: last round's bets again, only before the first chip (UTH-28)."""
        if not self.is_empty:
            raise BetRejected("REPEAT is only available before you place the first chip of the round.")
        if previous is None or previous.ante == 0:
            raise BetRejected("There are no bets from a previous round to repeat.")
        if not limits.allows(previous):
            raise BetRejected(
                f"Your previous bets (Ante {format_cents(previous.ante)}, Trips {format_cents(previous.trips)}) "
                "are outside this table's current limits."
            )
        return BetStep(StepKind.REPEAT, ante=previous.ante, trips=previous.trips)

    def with_repeat(self, previous: BetAmounts | None, limits: BetLimits) -> tuple[BetSlip, BetStep]:
        step = self.verify_repeat(previous, limits)
        return BetSlip((step,)), step

    # --- UNDO -------------------------------------------------------------------------------------------------------

    def without_last(self) -> tuple[BetSlip, BetStep]:
        """UNDO: the slip without its last step, and that step (UTH-30)."""
        if self.is_empty:
            raise BetRejected("There is no bet to undo.")
        return BetSlip(self.steps[:-1]), self.steps[-1]

    def cleared(self) -> tuple[BetSlip, tuple[BetStep, ...]]:
        """Holding UNDO: an empty slip and every step removed, newest first (UTH-30)."""
        if self.is_empty:
            raise BetRejected("There is no bet to undo.")
        return BetSlip(), tuple(reversed(self.steps))
