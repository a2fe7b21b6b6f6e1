"""Sitting out, its limits and global sit out (CASH-16, CASH-17, CASH-18, CASH-19, CASH-20, AMB-12)."""

from __future__ import annotations

import pytest

from games.models import LeaveReason, PlayerTableSettings, Seat, SeatStatus, SitOutReason, TableSession
from games.services import (
    player_settings_update,
    seat_sit_in,
    seat_sit_out,
    seat_sit_out_expire,
    seat_sit_out_next_big_blind,
)
from tests.tables.support import (
    START,
    cash,
    current_hand,
    deal,
    fold_to_the_end,
    later,
    open_table,
    player,
    seat_at,
    seat_players,
)

pytestmark = pytest.mark.django_db


def seat_at_table(user: object, table: object) -> Seat:
    return Seat.objects.get(user=user, table=table)


def test_cash_16_a_player_sitting_out_is_not_dealt_in_and_pays_no_blinds() -> None:
    table = open_table()
    users = [player() for _ in range(4)]
    seat_players(table, users, 1000)
    seat_sit_out(users[0], table, now=START)
    for _ in range(4):
        hand = deal(table)
        assert 1 not in {seat for seat, _stack in hand.config["players"]}
        fold_to_the_end(table)
    assert seat_at_table(users[0], table).status == SeatStatus.SITTING_OUT


def test_cash_16_sitting_out_during_a_hand_takes_effect_when_it_ends() -> None:
    table = open_table()
    users = [player() for _ in range(3)]
    seat_players(table, users, 1000)
    deal(table)
    seat_sit_out(users[0], table, now=START)
    assert seat_at_table(users[0], table).sit_out_after_hand
    assert seat_at_table(users[0], table).status == SeatStatus.PLAYING
    fold_to_the_end(table)
    assert seat_at_table(users[0], table).status == SeatStatus.SITTING_OUT


def test_cash_17_a_player_sitting_out_for_more_than_10_minutes_is_removed_and_paid_out() -> None:
    table = open_table()
    user = player(cash=5_000)
    seat_players(table, [user], 1000)
    seat_sit_out(user, table, now=START)
    assert seat_at_table(user, table).sit_out_deadline == later(600)
    assert seat_sit_out_expire(seat_at_table(user, table).pk, now=later(599)) is False
    seat_id = seat_at_table(user, table).pk
    assert seat_sit_out_expire(seat_id, now=later(600)) is True
    assert not Seat.objects.filter(user=user).exists()
    assert cash(user) == 5_000
    assert TableSession.objects.get(user=user).leave_reason == LeaveReason.SIT_OUT_LIMIT
    assert seat_sit_out_expire(seat_id, now=later(601)) is False


def test_cash_17_coming_back_in_time_cancels_the_removal() -> None:
    table = open_table()
    user = player()
    seat_players(table, [user], 1000)
    seat_sit_out(user, table, now=START)
    seat_sit_in(user, table, now=later(300))
    assert seat_at_table(user, table).sit_out_deadline is None
    assert seat_sit_out_expire(seat_at_table(user, table).pk, now=later(700)) is False


def test_cash_18_cash_20_sitting_out_at_one_table_sits_the_player_out_everywhere_for_at_most_500_seconds() -> None:
    """Global sit out: the other table sits out from its next hand; after 500 s both are left (AMB-12)."""
    first, second = open_table(), open_table()
    user = player(cash=50_000)
    seat_at(first, {1: user, 2: player(), 3: player()}, 1000)
    seat_at(second, {1: user, 2: player(), 3: player()}, 1000)
    deal(second)  # the player is in a hand at the second table
    seat_sit_out(user, first, now=START)
    settings = PlayerTableSettings.objects.get(user=user)
    assert settings.global_sit_out_deadline == later(500)
    assert seat_at_table(user, first).status == SeatStatus.SITTING_OUT
    assert seat_at_table(user, first).sit_out_reason == SitOutReason.GLOBAL
    assert seat_at_table(user, second).sit_out_after_hand  # from the next hand there
    fold_to_the_end(second, now=later(5))
    there = seat_at_table(user, second)
    assert there.status == SeatStatus.SITTING_OUT
    assert there.sit_out_reason == SitOutReason.GLOBAL
    assert there.sit_out_deadline == later(500)
    assert seat_at_table(user, first).sit_out_deadline == later(500)
    for seat in (seat_at_table(user, first), seat_at_table(user, second)):
        assert seat_sit_out_expire(seat.pk, now=later(499)) is False
        assert seat_sit_out_expire(seat.pk, now=later(500)) is True
    assert not Seat.objects.filter(user=user).exists()
    assert set(TableSession.objects.filter(user=user).values_list("leave_reason", flat=True)) == {
        LeaveReason.GLOBAL_SIT_OUT_LIMIT
    }
    assert not PlayerTableSettings.objects.filter(user=user, global_sit_out_deadline__isnull=False).exists()


def test_cash_18_cash_19_a_table_with_sit_out_next_big_blind_armed_waits_for_its_big_blind() -> None:
    first, second = open_table(), open_table()
    user = player(cash=50_000)
    seat_at(first, {1: user, 2: player(), 3: player()}, 1000)
    seat_at(second, {1: user, 2: player(), 3: player()}, 1000)
    seat_sit_out_next_big_blind(user, second, True, now=START)
    seat_sit_out(user, first, now=START)
    assert seat_at_table(user, second).status == SeatStatus.PLAYING
    assert not seat_at_table(user, second).sit_out_after_hand


def test_cash_19_sit_out_next_big_blind_sits_the_player_out_when_the_big_blind_would_reach_them() -> None:
    table = open_table()
    users = {1: player(), 2: player(), 3: player(), 4: player()}
    seat_at(table, users, 1000)
    deal(table, seed=4)
    fold_to_the_end(table)
    seat_sit_out_next_big_blind(users[1], table, True, now=START)
    for _ in range(5):
        hand = deal(table)
        dealt = {seat for seat, _stack in hand.config["players"]}
        if 1 not in dealt:
            break
        assert hand.config["big_blind_seat"] != 1
        fold_to_the_end(table)
    seat = seat_at_table(users[1], table)
    assert seat.status == SeatStatus.SITTING_OUT
    assert seat.sit_out_reason == SitOutReason.NEXT_BIG_BLIND
    assert not seat.sit_out_next_big_blind  # applied once
    hand = current_hand(table)
    assert hand is not None
    assert hand.config["big_blind_seat"] == 2  # the big blind moved on to the next player


def test_cash_19_the_client_option_arms_every_table_the_player_sits_at() -> None:
    first, second = open_table(), open_table()
    user = player(cash=50_000)
    seat_at(first, {1: user}, 1000)
    seat_at(second, {2: user}, 1000)
    player_settings_update(user, sit_out_next_big_blind=True)
    assert seat_at_table(user, first).sit_out_next_big_blind
    assert seat_at_table(user, second).sit_out_next_big_blind
    third = open_table()
    seat_at(third, {3: user}, 1000)
    assert seat_at_table(user, third).sit_out_next_big_blind
