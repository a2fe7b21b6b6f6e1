"""TB-02 tournament rows (SX-15), TB-03 / AMB-31 replenishment, TB-08 per-tournament values, TB-06 / AMB-67 which row
applies, TRN-31 / AMB-44 the final-stage extra reconnection time on top of TB-07."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from tournaments.rules.common import RuleError
from tournaments.rules.timebank import (
    EventKind,
    FinalStageReconnect,
    FinalStageStart,
    TimebankRule,
    hexapro_timebank,
    multi_table_timebank,
    timebank_for,
)


def test_tb_02_the_tournament_row_defaults_to_15_seconds_plus_5_every_10th_hand_capped_at_30() -> None:
    assert multi_table_timebank() == TimebankRule(15, 5, 10, 30)


def test_tb_08_a_tournament_sets_its_own_first_hand_and_cap() -> None:
    assert multi_table_timebank(20, 45) == TimebankRule(20, 5, 10, 45)
    with pytest.raises(RuleError):
        multi_table_timebank(40, 30)  # the first hand above the cap


def test_tb_02_amb_67_every_sit_and_go_but_hexapro_uses_the_sng_row() -> None:
    assert timebank_for(EventKind.SIT_AND_GO) == TimebankRule(10, 5, 5, 20)
    assert timebank_for(EventKind.MULTI_TABLE, first_hand_seconds=15, cap_seconds=30) == TimebankRule(15, 5, 10, 30)


@pytest.mark.parametrize(
    ("multiplier", "row"),
    [
        (Fraction(3, 2), TimebankRule(10, 5, 5, 20)),
        (1, TimebankRule(10, 5, 5, 20)),
        (20, TimebankRule(10, 5, 5, 20)),
        (Decimal("24.9"), TimebankRule(10, 5, 5, 20)),
        (25, TimebankRule(30, 5, 5, 60)),
        (125, TimebankRule(30, 5, 5, 60)),
        (1_000, TimebankRule(30, 5, 5, 60)),
    ],
)
def test_tb_02_tb_06_hexapro_and_extreme_use_the_row_of_their_multiplier(
    multiplier: int | Fraction | Decimal, row: TimebankRule
) -> None:
    assert hexapro_timebank(multiplier) == row
    assert timebank_for(EventKind.HEXAPRO, multiplier=multiplier) == row


def test_a_hexapro_row_needs_a_positive_multiplier() -> None:
    with pytest.raises(RuleError):
        timebank_for(EventKind.HEXAPRO)
    for bad in (0, -3, True, 2.5):
        with pytest.raises(RuleError):
            hexapro_timebank(bad)  # type: ignore[arg-type]


def test_tb_03_derived_example_15_seconds_12_used_in_hand_3_then_5_after_every_10th_hand_up_to_30() -> None:
    rule = multi_table_timebank()
    balance = rule.first_hand_seconds * 1000
    history = {}
    for hand in range(1, 61):
        if hand == 3:
            balance -= 12_000  # used in hand 3
        balance = rule.balance_after_hand(balance, hand)
        history[hand] = balance // 1000
    assert (history[3], history[9], history[10], history[20], history[30]) == (3, 3, 8, 13, 18)
    assert (history[40], history[50], history[60]) == (23, 28, 30)  # capped at 30 s


def test_tb_03_the_sit_and_go_row_adds_5_seconds_every_5th_hand() -> None:
    rule = timebank_for(EventKind.SIT_AND_GO)
    assert rule.balance_after_hand(10_000, 4) == 10_000
    assert rule.balance_after_hand(10_000, 5) == 15_000
    assert rule.balance_after_hand(17_500, 10) == 20_000


def test_amb_44_a_disconnected_player_gets_60_extra_seconds_from_the_final_table() -> None:
    setting = FinalStageReconnect()
    common = {"decision_seconds": 10, "grace_seconds": 20, "remaining_players": 9, "paid_places": 15}
    assert setting.reconnect_seconds(running_tables=2, **common) == 30  # TB-07: 10 s + 20 s
    assert setting.reconnect_seconds(running_tables=1, **common) == 90


def test_amb_44_the_extra_time_may_start_from_the_money_instead() -> None:
    setting = FinalStageReconnect(extra_seconds=45, starts=FinalStageStart.IN_THE_MONEY)
    assert not setting.applies(running_tables=3, remaining_players=16, paid_places=15)
    assert setting.applies(running_tables=3, remaining_players=15, paid_places=15)
    assert (
        setting.reconnect_seconds(
            decision_seconds=10, grace_seconds=20, running_tables=3, remaining_players=15, paid_places=15
        )
        == 75
    )
