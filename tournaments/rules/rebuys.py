"""Re-buys and add-ons (TRN-39, FEE-03, FEE-04) and the price of a chosen buy-in in a multi-buy-in tournament (TRN-38,
AMB-47).

Decisions (the catalog leaves them open; seed 002 › Re-buy tournaments only says "with some restrictions"):

* **Re-buy period**: re-buys are taken while the level clock is before the end of level ``period_levels`` (breaks
  stop the clock, so a break inside the period keeps it open), as late registration is measured (TRN-08).
* **Stack threshold**: a re-buy is taken only while the player's chips — those on the seat plus any re-buy or add-on
  chips still waiting to be added — are at or below the threshold; a player may re-buy several times in a row as long
  as that stays true, up to ``maximum`` re-buys per entry.
* **Bust-out**: a player who loses all their chips is knocked out as in a freezeout (the seat is freed at once); re-buys
  are for players still seated. An eliminated player comes back through re-entry (TRN-40), when the tournament allows
  it and late registration is open.
* **Add-on**: once per entry, for any player still in, whatever their stack, either during the last level of the
  re-buy period (``AddOnTiming.LAST_REBUY_LEVEL``, up to its end) or during the first break that starts once the
  re-buy period is over (``AddOnTiming.BREAK``). An add-on needs a re-buy period to measure from.
* **Between hands**: chips bought are never added to a hand in progress; the service queues them and adds them when
  the player's current hand ends (or at once when the player is not in a hand).
* **Prices**: every re-buy and add-on is booked as prize contribution + fee (FEE-04); the prize parts join the prize
  pool, whose payouts stay provisional until registration and the re-buy and add-on windows have all closed.
* **Multi-buy-in price** (TRN-38): the chosen buy-in is what the player pays; it is split between prize pool and fee
  in the proportion of the base price (the fee rounded down to the cent, the rest to the prize pool), and the stack is
  scaled by :func:`~tournaments.rules.multi_buy_in.scaled_starting_stack` (AMB-47).

Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from tournaments.rules.common import RuleError, require_utc, require_whole
from tournaments.rules.fees import EntryPrice
from tournaments.rules.levels import LevelClock
from tournaments.rules.multi_buy_in import BuyInRange, scaled_starting_stack


class AddOnTiming(StrEnum):
    LAST_REBUY_LEVEL = "last_rebuy_level"
    BREAK = "break"


class PurchaseRefusal(StrEnum):
    """Why a re-buy or add-on is refused (the service words it for the player)."""

    NOT_OFFERED = "not_offered"
    PERIOD_OVER = "period_over"
    NOT_YET = "not_yet"
    ABOVE_THRESHOLD = "above_threshold"
    MAXIMUM_REACHED = "maximum_reached"
    ALREADY_TAKEN = "already_taken"


@dataclass(frozen=True, slots=True)
class RebuyPolicy:
    """A tournament's re-buys: during the first ``period_levels`` levels, at most ``maximum`` per entry, each for
    ``price`` giving ``chips``, only while the player has at most ``stack_threshold`` chips."""

    period_levels: int
    maximum: int
    stack_threshold: int
    price: EntryPrice
    chips: int

    def __post_init__(self) -> None:
        require_whole(self.period_levels, "re-buy period (levels)", minimum=1)
        require_whole(self.maximum, "maximum re-buys", minimum=1)
        require_whole(self.stack_threshold, "re-buy stack threshold", minimum=1)
        require_whole(self.chips, "re-buy chips", minimum=1)
        if self.price.is_freeroll:
            raise RuleError("a re-buy has a price: its prize contribution and fee cannot both be zero")


@dataclass(frozen=True, slots=True)
class AddOnPolicy:
    """A tournament's add-on: once per entry, for ``price`` giving ``chips``, at ``timing``."""

    price: EntryPrice
    chips: int
    timing: AddOnTiming

    def __post_init__(self) -> None:
        require_whole(self.chips, "add-on chips", minimum=1)
        if self.price.is_freeroll:
            raise RuleError("an add-on has a price: its prize contribution and fee cannot both be zero")
        AddOnTiming(self.timing)


def _period_end(clock: LevelClock, period_levels: int) -> timedelta:
    levels = require_whole(period_levels, "re-buy period (levels)", minimum=1)
    return clock.level_end(min(levels, len(clock.structure.levels)))


def rebuy_period_open(clock: LevelClock, moment: datetime, period_levels: int) -> bool:
    """TRN-39: re-buys are taken while the clock is before the end of level ``period_levels``."""
    require_utc(moment, "moment")
    return clock.elapsed(moment) < _period_end(clock, period_levels)


def rebuy_refusal(
    policy: RebuyPolicy, clock: LevelClock, moment: datetime, *, chips: int, rebuys_taken: int
) -> PurchaseRefusal | None:
    """Why a player with ``chips`` (on the seat plus chips still waiting to be added) who has re-bought
    ``rebuys_taken`` times may not re-buy at ``moment``; ``None`` when they may."""
    require_whole(chips, "chips")
    require_whole(rebuys_taken, "re-buys taken")
    if not rebuy_period_open(clock, moment, policy.period_levels):
        return PurchaseRefusal.PERIOD_OVER
    if rebuys_taken >= policy.maximum:
        return PurchaseRefusal.MAXIMUM_REACHED
    if chips > policy.stack_threshold:
        return PurchaseRefusal.ABOVE_THRESHOLD
    return None


def _first_break_after(clock: LevelClock, period_levels: int) -> tuple[datetime, datetime | None] | None:
    """The first recorded pause that starts once the re-buy period is over (start, end), if any."""
    end = _period_end(clock, period_levels)
    for pause in clock.pauses:
        if clock.elapsed(pause.start) >= end:
            return pause.start, pause.end
    return None


def add_on_refusal(
    policy: AddOnPolicy, clock: LevelClock, moment: datetime, *, period_levels: int, taken: bool
) -> PurchaseRefusal | None:
    """Why a player still in may not take the add-on at ``moment`` (``taken``: this entry already did); ``None`` when
    they may."""
    require_utc(moment, "moment")
    if taken:
        return PurchaseRefusal.ALREADY_TAKEN
    elapsed = clock.elapsed(moment)
    end = _period_end(clock, period_levels)
    last = min(period_levels, len(clock.structure.levels))
    if policy.timing == AddOnTiming.LAST_REBUY_LEVEL:
        start = clock.level_end(last - 1) if last > 1 else timedelta(0)
        if elapsed < start:
            return PurchaseRefusal.NOT_YET
        return PurchaseRefusal.PERIOD_OVER if elapsed > end else None
    window = _first_break_after(clock, period_levels)
    if window is None:
        return PurchaseRefusal.NOT_YET
    starts, ends = window
    if moment < starts:
        return PurchaseRefusal.NOT_YET
    if ends is not None and moment >= ends:
        return PurchaseRefusal.PERIOD_OVER
    return None


@dataclass(frozen=True, slots=True)
class PurchasesEnd:
    """When the re-buy period and the add-on window end (what players are told while the payouts wait for them):
    after level ``level``, at ``at`` (``None`` while not known: a break that has not started yet, a paused clock),
    ``after_break`` when the add-on is taken at the break that follows the period."""

    level: int
    at: datetime | None
    after_break: bool


def purchases_end(clock: LevelClock, *, period_levels: int, add_on: AddOnPolicy | None) -> PurchasesEnd:
    """The end of the re-buy period and of the add-on window (:func:`purchases_over` turns true then)."""
    level = min(require_whole(period_levels, "re-buy period (levels)", minimum=1), len(clock.structure.levels))
    period_end = clock.moment_of(_period_end(clock, period_levels))
    if add_on is None or add_on.timing == AddOnTiming.LAST_REBUY_LEVEL:
        return PurchasesEnd(level, period_end, after_break=False)
    window = _first_break_after(clock, period_levels)
    return PurchasesEnd(level, window[1] if window is not None else None, after_break=True)


def purchases_over(clock: LevelClock, moment: datetime, *, period_levels: int, add_on: AddOnPolicy | None) -> bool:
    """Whether the re-buy period and the add-on window are both over at ``moment`` (then the payouts can be fixed)."""
    require_utc(moment, "moment")
    if period_levels == 0:
        return True
    if rebuy_period_open(clock, moment, period_levels):
        return False
    if add_on is None or add_on.timing == AddOnTiming.LAST_REBUY_LEVEL:
        return True
    window = _first_break_after(clock, period_levels)
    return window is not None and window[1] is not None and moment >= window[1]


@dataclass(frozen=True, slots=True)
class ChosenBuyIn:
    """What a multi-buy-in registration costs and gives (TRN-38)."""

    price: EntryPrice
    starting_stack: int


def chosen_buy_in(base: EntryPrice, base_stack: int, accepted: BuyInRange, chosen_cents: object) -> ChosenBuyIn:
    """TRN-38 / AMB-47: the price (split as the base price is) and the stack of a buy-in of ``chosen_cents`` (the
    whole amount the player pays), or :class:`RuleError` when the tournament does not accept it."""
    total = accepted.check(chosen_cents)
    require_whole(base.total_cents, "base buy-in (cents)", minimum=1)
    fee = base.fee_cents * total // base.total_cents
    return ChosenBuyIn(EntryPrice(total - fee, fee), scaled_starting_stack(base_stack, base.total_cents, total))
