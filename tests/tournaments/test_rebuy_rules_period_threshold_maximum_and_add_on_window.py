"""The pure re-buy and add-on rules (TRN-39) and the multi-buy-in price (TRN-38, AMB-47): the period by the level clock
(breaks stop it), the threshold counting chips still waiting, the maximum, the add-on's two windows, the purchases'
end, and the split of a chosen buy-in."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.tables.support import START
from tournaments.rules.common import RuleError
from tournaments.rules.fees import EntryPrice
from tournaments.rules.levels import BlindLevel, BlindStructure, LevelClock, Pause
from tournaments.rules.multi_buy_in import BuyInRange
from tournaments.rules.rebuys import (
    AddOnPolicy,
    AddOnTiming,
    PurchaseRefusal,
    RebuyPolicy,
    add_on_refusal,
    chosen_buy_in,
    purchases_over,
    rebuy_refusal,
)

STRUCTURE = BlindStructure("t", 1_000, tuple(BlindLevel(10 * n, 20 * n, 0, 600) for n in range(1, 6)))
REBUYS = RebuyPolicy(period_levels=3, maximum=2, stack_threshold=1_000, price=EntryPrice(1_000, 100), chips=1_000)
MINUTE = timedelta(minutes=1)


def test_rebuys_are_open_until_the_end_of_the_period_and_a_break_stops_the_clock_trn_39() -> None:
    clock = LevelClock(START, STRUCTURE)
    assert rebuy_refusal(REBUYS, clock, START + 29 * MINUTE, chips=500, rebuys_taken=0) is None
    assert rebuy_refusal(REBUYS, clock, START + 30 * MINUTE, chips=500, rebuys_taken=0) == PurchaseRefusal.PERIOD_OVER
    paused = LevelClock(START, STRUCTURE, (Pause(START + 10 * MINUTE, START + 15 * MINUTE),))
    assert rebuy_refusal(REBUYS, paused, START + 34 * MINUTE, chips=500, rebuys_taken=0) is None


def test_the_threshold_and_the_maximum_trn_39() -> None:
    clock = LevelClock(START, STRUCTURE)
    moment = START + MINUTE
    assert rebuy_refusal(REBUYS, clock, moment, chips=1_000, rebuys_taken=1) is None  # at the threshold
    assert rebuy_refusal(REBUYS, clock, moment, chips=1_001, rebuys_taken=0) == PurchaseRefusal.ABOVE_THRESHOLD
    assert rebuy_refusal(REBUYS, clock, moment, chips=0, rebuys_taken=2) == PurchaseRefusal.MAXIMUM_REACHED


def test_the_add_on_in_the_last_rebuy_level_or_at_the_first_break_after_the_period_trn_39() -> None:
    last_level = AddOnPolicy(EntryPrice(1_000, 100), 2_000, AddOnTiming.LAST_REBUY_LEVEL)
    clock = LevelClock(START, STRUCTURE)
    assert add_on_refusal(last_level, clock, START + 19 * MINUTE, period_levels=3, taken=False) == "not_yet"
    assert add_on_refusal(last_level, clock, START + 25 * MINUTE, period_levels=3, taken=False) is None
    assert add_on_refusal(last_level, clock, START + 25 * MINUTE, period_levels=3, taken=True) == "already_taken"
    assert add_on_refusal(last_level, clock, START + 31 * MINUTE, period_levels=3, taken=False) == "period_over"
    at_break = AddOnPolicy(EntryPrice(1_000, 100), 2_000, AddOnTiming.BREAK)
    early_break = Pause(START + 10 * MINUTE, START + 15 * MINUTE)
    later_break = Pause(START + 40 * MINUTE, START + 45 * MINUTE)
    with_breaks = LevelClock(START, STRUCTURE, (early_break, later_break))
    assert add_on_refusal(at_break, with_breaks, START + 12 * MINUTE, period_levels=3, taken=False) == "not_yet"
    assert add_on_refusal(at_break, with_breaks, START + 41 * MINUTE, period_levels=3, taken=False) is None
    assert add_on_refusal(at_break, with_breaks, START + 46 * MINUTE, period_levels=3, taken=False) == "period_over"
    assert not purchases_over(with_breaks, START + 41 * MINUTE, period_levels=3, add_on=at_break)
    assert purchases_over(with_breaks, START + 45 * MINUTE, period_levels=3, add_on=at_break)
    assert purchases_over(clock, START + 30 * MINUTE, period_levels=3, add_on=last_level)


def test_a_chosen_buy_in_is_split_like_the_base_price_and_scales_the_stack_trn_38_amb_47() -> None:
    accepted = BuyInRange(500, 5_000, 500)
    chosen = chosen_buy_in(EntryPrice(900, 100), 10_000, accepted, 2_500)
    assert chosen.price == EntryPrice(2_250, 250)
    assert chosen.starting_stack == 25_000
    odd = chosen_buy_in(EntryPrice(950, 50), 10_000, BuyInRange(500, 1_832, 333), 1_166)
    assert odd.price.total_cents == 1_166
    assert odd.price.fee_cents == 50 * 1_166 // 1_000  # the fee rounded down, the rest to the prize pool
    with pytest.raises(RuleError):
        chosen_buy_in(EntryPrice(900, 100), 10_000, accepted, 2_600)


def test_bad_rebuy_settings_are_refused_trn_39() -> None:
    with pytest.raises(RuleError):
        RebuyPolicy(period_levels=0, maximum=1, stack_threshold=1, price=EntryPrice(1, 0), chips=1)
    with pytest.raises(RuleError):
        AddOnPolicy(EntryPrice(0, 0), 1, AddOnTiming.BREAK)
