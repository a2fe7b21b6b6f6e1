"""TRN-38 / AMB-47: a multi-buy-in tournament's starting stack is scaled with the buy-in chosen, rounded down to a
whole chip, and only buy-ins within the range and its steps are accepted."""

from __future__ import annotations

import pytest

from tournaments.rules.common import RuleError
from tournaments.rules.multi_buy_in import BuyInRange, scaled_starting_stack


def test_trn_38_derived_example_base_10_euros_for_10000_chips_and_25_euros_start_with_25000() -> None:
    assert scaled_starting_stack(10_000, 1_000, 1_000) == 10_000
    assert scaled_starting_stack(10_000, 1_000, 2_500) == 25_000


def test_amb_47_the_scaled_stack_is_rounded_down_to_a_whole_chip() -> None:
    assert scaled_starting_stack(10_000, 1_100, 2_500) == 22_727  # 22,727.27...


def test_amb_47_only_buy_ins_within_the_range_and_its_steps_are_accepted() -> None:
    buy_ins = BuyInRange(minimum_cents=500, maximum_cents=5_000, step_cents=500)
    assert buy_ins.check(2_500) == 2_500
    for refused in (0, 499, 750, 5_500, "25", 2_500.0):
        with pytest.raises(RuleError, match=r"choose a buy-in from €5\.00 to €50\.00 in steps of €5\.00"):
            buy_ins.check(refused)


def test_an_impossible_range_or_stack_is_refused() -> None:
    with pytest.raises(RuleError):
        BuyInRange(minimum_cents=500, maximum_cents=5_200, step_cents=500)
    with pytest.raises(RuleError):
        BuyInRange(minimum_cents=1_000, maximum_cents=500, step_cents=100)
    with pytest.raises(RuleError):
        scaled_starting_stack(10_000, 0, 1_000)
