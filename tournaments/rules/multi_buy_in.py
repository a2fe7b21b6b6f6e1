"""Multi-buy-in tournaments: the buy-in a player chooses and the starting stack it gives (TRN-38, AMB-47).

The player chooses a buy-in between the tournament's minimum and maximum, in its configured steps; the starting stack
is scaled in proportion: base stack x chosen buy-in / base buy-in, rounded down to a whole chip.
[derived TRN-38] base €10 -> 10,000 chips; a player choosing €25 starts with 25,000 chips.

Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.uth.money import format_cents
from tournaments.rules.common import RuleError, require_whole


def scaled_starting_stack(base_stack: int, base_buy_in_cents: int, chosen_buy_in_cents: int) -> int:
    """AMB-47: ``base_stack`` x ``chosen_buy_in_cents`` / ``base_buy_in_cents``, rounded down."""
    require_whole(base_stack, "base starting stack", minimum=1)
    require_whole(base_buy_in_cents, "base buy-in (cents)", minimum=1)
    require_whole(chosen_buy_in_cents, "chosen buy-in (cents)", minimum=1)
    return base_stack * chosen_buy_in_cents // base_buy_in_cents


@dataclass(frozen=True, slots=True)
class BuyInRange:
    """The buy-ins a multi-buy-in tournament accepts: ``minimum_cents``, then every ``step_cents`` up to
    ``maximum_cents``."""

    minimum_cents: int
    maximum_cents: int
    step_cents: int

    def __post_init__(self) -> None:
        require_whole(self.minimum_cents, "minimum buy-in (cents)", minimum=1)
        require_whole(self.maximum_cents, "maximum buy-in (cents)", minimum=self.minimum_cents)
        require_whole(self.step_cents, "buy-in step (cents)", minimum=1)
        if (self.maximum_cents - self.minimum_cents) % self.step_cents:
            raise RuleError("the maximum buy-in is not a whole number of steps above the minimum")

    def check(self, chosen_cents: object) -> int:
        """``chosen_cents`` if the tournament accepts it, else :class:`RuleError` saying what it accepts."""
        if (
            type(chosen_cents) is not int
            or not self.minimum_cents <= chosen_cents <= self.maximum_cents
            or (chosen_cents - self.minimum_cents) % self.step_cents
        ):
            raise RuleError(
                f"choose a buy-in from {format_cents(self.minimum_cents)} to {format_cents(self.maximum_cents)}"
                f" in steps of {format_cents(self.step_cents)}"
            )
        return chosen_cents
