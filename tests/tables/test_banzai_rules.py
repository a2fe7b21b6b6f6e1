"""Banzai (CASH-26..CASH-33, AMB-27, AMB-60, AMB-62). Examples at Banzai NL5 (0.25/0.50, 10 BB = €5.00)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.cash.buy_in import daily_count
from games.models import BuyInKind, DailyCounterKind, PlayerDailyCounter, PlayerTableSettings
from games.services import (
    BanzaiExcluded,
    BuyInRefused,
    TableLimitReached,
    seat_buy_in_limits,
    seat_take,
    seat_top_up,
)
from tests.tables.support import (
    START,
    check_or_call_down,
    deal,
    left_table_earlier,
    open_table,
    player,
    seat_players,
    stack,
)

pytestmark = pytest.mark.django_db

TEN_TWENTY = START.replace(hour=10, minute=20)
TEN_O_CLOCK = START.replace(hour=10, minute=0)


def test_cash_26_sitting_down_needs_exactly_10_big_blinds() -> None:
    table = open_table("banzai", "NL5")
    user = player()
    with pytest.raises(BuyInRefused, match=r"€5\.00"):
        seat_take(user, table, 499, now=START)
    with pytest.raises(BuyInRefused):
        seat_take(user, table, 501, now=START)
    seat_take(user, table, 500, now=START)
    assert stack(table, user) == 500


def test_cash_27_a_top_up_must_bring_the_stack_to_exactly_10_big_blinds() -> None:
    table = open_table("banzai", "NL1")  # 0.05/0.10: 10 BB = €1.00
    players = [player() for _ in range(3)]
    seat_players(table, players, 100)
    deal(table)
    check_or_call_down(table)
    short = min(players, key=lambda user: stack(table, user))
    missing = 100 - stack(table, short)
    assert missing > 0
    with pytest.raises(BuyInRefused, match="exactly 10 BB"):
        seat_top_up(short, table, missing + 1, now=START)
    seat_top_up(short, table, missing, now=START)
    assert stack(table, short) == 100


def test_cash_28_at_most_four_banzai_tables_per_stake() -> None:
    """AMB-60: counted per stake; another stake is a separate allowance."""
    user = player(cash=10_000)
    for _ in range(4):
        seat_take(user, open_table("banzai", "NL1"), 100, now=START)
    with pytest.raises(TableLimitReached, match="limit is 4 per stake"):
        seat_take(user, open_table("banzai", "NL1"), 100, now=START)
    seat_take(user, open_table("banzai", "NL5"), 500, now=START)


def test_cash_29_banzai_tables_are_five_handed() -> None:
    table = open_table("banzai", "NL5")
    assert table.seat_count == 5
    assert table.seats.count() == 5


def test_cash_30_leaving_with_more_than_10_big_blinds_means_resuming_with_that_stack_at_any_table_of_the_stake() -> (
    None
):
    """[derived, NL5] left with €12.00 at 10:00; opens a Banzai NL5 table at 10:20 → Resume €12.00 or Reset €5.00;
    at 10:31 → the normal €5.00 buy-in. AMB-62: any Banzai table of the stake."""
    left = open_table("banzai", "NL5")
    other = open_table("banzai", "NL5")
    user = player()
    left_table_earlier(user, left, 1200, TEN_O_CLOCK)
    offer = seat_buy_in_limits(user, other, now=TEN_TWENTY)
    assert (offer.minimum, offer.maximum, offer.kind) == (1200, 1200, BuyInKind.BANZAI_RESUME)
    assert (offer.banzai_resume_stack, offer.banzai_resets_left) == (1200, 5)
    reset = seat_buy_in_limits(user, other, banzai_choice="reset", now=TEN_TWENTY)
    assert (reset.minimum, reset.maximum, reset.kind) == (500, 500, BuyInKind.BANZAI_RESET)
    later = seat_buy_in_limits(user, other, now=TEN_O_CLOCK + timedelta(minutes=31))
    assert (later.minimum, later.maximum, later.kind) == (500, 500, BuyInKind.NORMAL)
    with pytest.raises(BuyInRefused):
        seat_take(user, other, 500, now=TEN_TWENTY)  # Resume is the default offer
    seat_take(user, other, 1200, banzai_choice="resume", now=TEN_TWENTY)
    assert stack(other, user) == 1200
    assert daily_count(user.pk, DailyCounterKind.BANZAI_RESET, TEN_TWENTY) == 0  # AMB-27: Resume is free


def test_cash_30_leaving_with_exactly_10_big_blinds_carries_nothing_over() -> None:
    table = open_table("banzai", "NL5")
    user = player()
    left_table_earlier(user, table, 500, TEN_O_CLOCK)
    offer = seat_buy_in_limits(user, table, now=TEN_TWENTY)
    assert (offer.minimum, offer.maximum, offer.kind) == (500, 500, BuyInKind.NORMAL)


def test_cash_30_another_stake_is_not_affected() -> None:
    user = player()
    left_table_earlier(user, open_table("banzai", "NL5"), 1200, TEN_O_CLOCK)
    offer = seat_buy_in_limits(user, open_table("banzai", "NL1"), now=TEN_TWENTY)
    assert (offer.minimum, offer.maximum) == (100, 100)


def test_cash_31_five_resets_per_utc_day_then_only_resume() -> None:
    table = open_table("banzai", "NL5")
    user = player()
    left_table_earlier(user, table, 1200, TEN_O_CLOCK)
    PlayerDailyCounter.objects.create(user=user, kind=DailyCounterKind.BANZAI_RESET, day=TEN_O_CLOCK.date(), count=4)
    seat_take(user, table, 500, banzai_choice="reset", now=TEN_TWENTY)
    assert daily_count(user.pk, DailyCounterKind.BANZAI_RESET, TEN_TWENTY) == 5
    other = open_table("banzai", "NL5")
    left_table_earlier(user, other, 1500, TEN_TWENTY)
    with pytest.raises(BuyInRefused, match="used all 5 Banzai resets"):
        seat_buy_in_limits(user, other, banzai_choice="reset", now=TEN_TWENTY + timedelta(minutes=1))
    assert seat_buy_in_limits(user, other, now=TEN_TWENTY + timedelta(minutes=1)).banzai_resets_left == 0
    next_day = START.replace(hour=0, minute=5) + timedelta(days=1)
    left_table_earlier(user, other, 1500, next_day - timedelta(minutes=10))
    assert seat_buy_in_limits(user, other, banzai_choice="reset", now=next_day).banzai_resets_left == 5


def test_cash_32_an_excluded_player_cannot_sit_at_banzai_tables() -> None:
    user = player()
    PlayerTableSettings.objects.create(user=user, banzai_excluded=True, banzai_exclusion_reason="chip dumping review")
    with pytest.raises(BanzaiExcluded):
        seat_take(user, open_table("banzai", "NL5"), 500, now=START)
    seat_take(user, open_table("holdem", "NL10"), 1000, now=START)


def test_cash_33_banzai_hands_follow_the_normal_rules_and_are_raked_by_the_banzai_row() -> None:
    """RAKE-02 Banzai NL1: 1 %; three players at 0.05/0.10 check down: pot 30, rake = max(1 cent, round(0.3)) = 1."""
    table = open_table("banzai", "NL1")
    seat_players(table, [player() for _ in range(3)], 100)
    deal(table)
    hand = check_or_call_down(table)
    hand.refresh_from_db()
    assert hand.players_dealt_in == 3
    assert (hand.pot_total, hand.rake, hand.rake_rate_basis_points) == (30, 1, 100)
