"""Entry prices: prize-pool contribution and fee (FEE-01, FEE-02, FEE-03, FEE-04, FEE-05, TRN-13, AMB-53).

Every entry, re-entry, re-buy and add-on is booked as two amounts, the prize contribution and the fee (FEE-04), so an
:class:`EntryPrice` holds both in cents. The catalog's tables are exported as data the back-office seeds from:

* FEE-01, 5-handed Sit & Go (a 5 % fee): €1, €2, €4, €10, €25. AMB-53: the €50 and €100 rows of v2.2 are not offered.
* FEE-02, 2-handed Sit & Go (a 3 % fee): €1, €2, €4, €10, €25, €50, €100, €200.
* FEE-03, multi-table presets from v2.2 (a 10 % fee, "usually 10 % but can vary"): €1, €4, €10, €25, €50, €100.
* FEE-05: a freeroll has no buy-in and no fee.

Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from games.engine.uth.money import format_cents
from tournaments.rules.common import RuleError, require_whole


@dataclass(frozen=True, slots=True)
class EntryPrice:
    """What a player pays for one entry, in cents: the part that goes to the prize pool and the fee."""

    prize_contribution_cents: int
    fee_cents: int

    def __post_init__(self) -> None:
        require_whole(self.prize_contribution_cents, "prize contribution (cents)")
        require_whole(self.fee_cents, "fee (cents)")

    @property
    def total_cents(self) -> int:
        return self.prize_contribution_cents + self.fee_cents

    @property
    def is_freeroll(self) -> bool:
        """FEE-05 / TRN-17: no buy-in and no fee."""
        return self.total_cents == 0


FREEROLL: Final[EntryPrice] = EntryPrice(0, 0)

FIVE_HANDED_SIT_AND_GO_PRICES: Final[tuple[EntryPrice, ...]] = (
    EntryPrice(95, 5),
    EntryPrice(190, 10),
    EntryPrice(380, 20),
    EntryPrice(950, 50),
    EntryPrice(2_375, 125),
)

TWO_HANDED_SIT_AND_GO_PRICES: Final[tuple[EntryPrice, ...]] = (
    EntryPrice(97, 3),
    EntryPrice(194, 6),
    EntryPrice(388, 12),
    EntryPrice(970, 30),
    EntryPrice(2_425, 75),
    EntryPrice(4_850, 150),
    EntryPrice(9_700, 300),
    EntryPrice(19_400, 600),
)

MULTI_TABLE_PRICE_PRESETS: Final[tuple[EntryPrice, ...]] = (
    EntryPrice(90, 10),
    EntryPrice(360, 40),
    EntryPrice(900, 100),
    EntryPrice(2_250, 250),
    EntryPrice(4_500, 500),
    EntryPrice(9_000, 1_000),
)

SIT_AND_GO_PRICES_BY_SEATS: Final[dict[int, tuple[EntryPrice, ...]]] = {
    5: FIVE_HANDED_SIT_AND_GO_PRICES,
    2: TWO_HANDED_SIT_AND_GO_PRICES,
}


def sit_and_go_price(seats: int, total_cents: int) -> EntryPrice:
    """FEE-01 / FEE-02: the split of a Sit & Go buy-in of ``total_cents`` for ``seats`` players, if it is offered."""
    require_whole(total_cents, "buy-in (cents)")
    prices = SIT_AND_GO_PRICES_BY_SEATS.get(seats)
    if prices is None:
        raise RuleError(f"no {seats}-handed Sit & Go is offered")
    for price in prices:
        if price.total_cents == total_cents:
            return price
    raise RuleError(f"no {seats}-handed Sit & Go with a {format_cents(total_cents)} buy-in is offered")
