"""Satellite prizes (TRN-37, AMB-54): seats in a target tournament, and the cash left over.

A satellite's prize pool buys as many seats as it can at the target's price (buy-in + fee): each of the best places
wins one seat, worth exactly that price. **Decision** (the seeds say only that the prizes are buy-ins for the target):
the cents the pool cannot turn into a whole seat go in cash to the next place, and a satellite never awards more seats
than it has entrants less one, so there is always a place for the cash (a guarantee larger than the field's seats
puts its excess there too). A pool smaller than one seat is paid in cash to the winner.

Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.rules.common import RuleError, require_whole


@dataclass(frozen=True, slots=True)
class SatellitePrizes:
    """``seats`` places win a seat worth ``seat_price`` cents each; ``cash`` cents go to place ``seats + 1``."""

    seats: int
    seat_price: int
    cash: int

    @property
    def prizes(self) -> tuple[int, ...]:
        """The prize of each place in cents, 1st first (a seat counted at its price)."""
        return (self.seat_price,) * self.seats + ((self.cash,) if self.cash else ())


def satellite_prizes(pool_cents: int, seat_price_cents: int, entrants: int) -> SatellitePrizes:
    """The seats and the cash of a satellite with ``pool_cents`` in its prize pool and ``entrants`` entries into a
    target costing ``seat_price_cents`` (see the module docstring)."""
    require_whole(pool_cents, "prize pool (cents)")
    require_whole(seat_price_cents, "seat price (cents)")
    require_whole(entrants, "entrants")
    if seat_price_cents <= 0:
        raise RuleError("a satellite's target must have a buy-in or a fee: a free seat cannot be a prize")
    seats = min(pool_cents // seat_price_cents, max(entrants - 1, 0))
    return SatellitePrizes(seats, seat_price_cents, pool_cents - seats * seat_price_cents)
