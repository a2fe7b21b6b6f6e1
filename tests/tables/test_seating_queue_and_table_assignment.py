"""Choosing a game and stake, not a table: assignment and the seating queue (CASH-04, CASH-05, CASH-09, AMB-63)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest

from games.models import Seat, SeatingRequest, SeatingRequestStatus, Table
from games.runtime.ticks import cash_tables_tick
from games.services import BuyInRefused, InsufficientBalance, table_join_queue, table_leave_queue
from tests.tables.support import START, cash, left_table_earlier, open_table, player, seat_at, stake

pytestmark = pytest.mark.django_db


def test_cash_05_players_wait_in_the_queue_until_three_can_open_a_table() -> None:
    nl10 = stake("holdem", "NL10")
    first, second, third = player(), player(), player()
    assert table_join_queue(first, nl10, 1000, now=START).status == SeatingRequestStatus.WAITING
    assert table_join_queue(second, nl10, 800, now=START).status == SeatingRequestStatus.WAITING
    assert not Seat.objects.filter(user__in=[first, second]).exists()
    request = table_join_queue(third, nl10, 600, now=START)
    assert request.status == SeatingRequestStatus.SEATED
    table = request.table
    assert table is not None
    assert set(Seat.objects.filter(table=table, user__isnull=False).values_list("user", flat=True)) == {
        first.pk,
        second.pk,
        third.pk,
    }
    assert cash(second) == 100_000 - 800
    cash_tables_tick(START)
    table.refresh_from_db()
    assert table.current_hand is not None  # CASH-05: "a hand will start"


def test_cash_05_asking_again_while_queued_keeps_the_same_place_and_leaving_the_queue_is_allowed() -> None:
    nl10 = stake("holdem", "NL10")
    user = player()
    first = table_join_queue(user, nl10, 1000, now=START)
    again = table_join_queue(user, nl10, 900, now=START + timedelta(seconds=5))
    assert again.pk == first.pk
    assert table_leave_queue(user, nl10, now=START) == 1
    first.refresh_from_db()
    assert first.status == SeatingRequestStatus.CANCELLED


def test_cash_04_a_player_joins_a_running_table_with_a_free_seat_at_once() -> None:
    table = open_table("holdem", "NL10")
    seat_at(table, {1: player(), 2: player(), 3: player()}, 1000)
    request = table_join_queue(player(), table.stake, 1000, now=START)
    assert request.status == SeatingRequestStatus.SEATED
    assert request.table == table


def test_cash_04_amb_63_tables_played_at_recently_come_first_then_the_emptiest() -> None:
    nl10 = stake("holdem", "NL10")
    crowded_known = open_table("holdem", "NL10")
    seat_at(crowded_known, {1: player(), 2: player(), 3: player(), 4: player()}, 1000)
    quiet = open_table("holdem", "NL10")
    seat_at(quiet, {1: player()}, 1000)
    busier = open_table("holdem", "NL10")
    seat_at(busier, {1: player(), 2: player(), 3: player()}, 1000)
    returning = player()
    left_table_earlier(returning, crowded_known, 1000, START - timedelta(hours=3))
    assert table_join_queue(returning, nl10, 1000, now=START).table == crowded_known
    stranger = player()
    assert table_join_queue(stranger, nl10, 1000, now=START).table == quiet
    long_ago = player()
    left_table_earlier(long_ago, busier, 1000, START - timedelta(hours=25))
    assert table_join_queue(long_ago, nl10, 1000, now=START).table == quiet  # 25 hours ago no longer counts


@pytest.mark.parametrize("buy_in", [499, 1001, 50_000])
def test_cash_05_cash_10_a_buy_in_no_table_of_the_stake_could_take_is_refused_before_it_is_queued(buy_in: int) -> None:
    """A queued request counts towards opening a table (CASH-05): one outside the stake's range (€5.00 to €10.00 at
    NL10, CASH-10) is refused at once, with or without a table to play at, and nothing waits."""
    table = open_table("holdem", "NL10")
    seat_at(table, {1: player(), 2: player()}, 1000)
    user = player()
    with pytest.raises(BuyInRefused, match=re.escape("€5.00 to €10.00")):
        table_join_queue(user, table.stake, buy_in, now=START)
    with pytest.raises(BuyInRefused):
        table_join_queue(user, stake("holdem", "NL25"), 100_000, now=START)
    assert not SeatingRequest.objects.filter(user=user).exists()
    assert not Seat.objects.filter(user=user).exists()


def test_cash_05_a_buy_in_above_the_players_balance_is_refused_before_it_is_queued() -> None:
    user = player(cash=700)
    with pytest.raises(InsufficientBalance):
        table_join_queue(user, stake("holdem", "NL10"), 800, now=START)
    assert not SeatingRequest.objects.filter(user=user).exists()


def three_handed_nl10() -> Table:
    table = open_table("holdem", "NL10")
    seat_at(table, {1: player(), 2: player(), 3: player()}, 1000)
    return table


def player_who_left(table: Table, stack_cents: int) -> Any:
    """A player who left ``table`` 10 minutes before START with ``stack_cents``."""
    user = player()
    left_table_earlier(user, table, stack_cents, START - timedelta(minutes=10))
    return user


def test_cash_11_a_player_back_with_more_than_the_maximum_may_ask_for_the_stake_with_it() -> None:
    """CASH-11 row "X >= 100 BB": left a table 10 minutes ago with €25.00; asking for the stake with €25.00 is not
    refused up front (the table they left takes it)."""
    left = three_handed_nl10()
    user = player_who_left(left, 2500)

    request = table_join_queue(user, left.stake, 2500, now=START)

    assert request.status == SeatingRequestStatus.SEATED
    assert request.table_id == left.pk


def test_cash_04_cash_13_a_table_whose_ratholing_limits_refuse_the_buy_in_passes_the_request_to_the_next_table() -> (
    None
):
    """CASH-04 / CASH-13: the assignment prefers the table the player left 10 minutes ago with €7.30, whose ratholing
    minimum (CASH-11) refuses a €5.00 buy-in; no other table is restricted, so the player is seated at the other one."""
    left, other = three_handed_nl10(), three_handed_nl10()
    user = player_who_left(left, 730)

    request = table_join_queue(user, left.stake, 500, now=START)

    assert request.status == SeatingRequestStatus.SEATED
    assert request.table_id == other.pk
    assert Seat.objects.get(user=user).table_id == other.pk


def test_cash_04_cash_11_when_the_only_table_refuses_the_buy_in_the_request_fails_with_its_reason() -> None:
    """CASH-04 / CASH-11: with no other table to take it, the ratholing refusal of the table left is the answer."""
    left = three_handed_nl10()
    user = player_who_left(left, 730)

    request = table_join_queue(user, left.stake, 500, now=START)

    assert request.status == SeatingRequestStatus.FAILED
    assert "€7.30" in request.message
    assert not Seat.objects.filter(user=user).exists()


def test_cash_09_a_player_may_play_several_tables_of_the_same_stake() -> None:
    nl10 = stake("holdem", "NL10")
    user = player()
    for _ in range(3):
        table = open_table("holdem", "NL10")
        seat_at(table, {1: player(), 2: player()}, 1000)
    first = table_join_queue(user, nl10, 1000, now=START).table
    second = table_join_queue(user, nl10, 1000, now=START).table
    assert first is not None
    assert second is not None
    assert first != second
    assert Seat.objects.filter(user=user).count() == 2
    assert Table.objects.filter(stake=nl10).count() == 3
