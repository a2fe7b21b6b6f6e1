"""The stake queue takes a player only when no table of the stake can (CASH-04, CASH-05, AMB-63; issue 22: "Seat me"
answered "number 1 in the queue" while a table of that stake sat empty, because only tables with players were offered),
and whoever waits is told why."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import Seat, SeatingRequestStatus
from games.services import table_join_queue
from tests.tables.support import START, left_table_earlier, open_table, player, seat_at, stake

pytestmark = pytest.mark.django_db


def test_cash_04_a_player_asking_for_a_stake_whose_only_table_is_empty_is_seated_there_not_queued() -> None:
    empty = open_table("holdem", "NL10")
    user = player()

    request = table_join_queue(user, empty.stake, 1000, now=START)

    assert request.status == SeatingRequestStatus.SEATED
    assert request.table_id == empty.pk
    assert Seat.objects.get(user=user).table_id == empty.pk


def test_cash_04_amb_63_tables_with_players_come_before_an_empty_table_and_the_emptiest_of_them_first() -> None:
    """A table with players and a free seat takes the player before an empty one (a hand needs three, CASH-06); among
    tables with players the seed's rule holds: the fewest players first."""
    open_table("holdem", "NL10")
    two_players = open_table("holdem", "NL10")
    seat_at(two_players, {1: player(), 2: player()}, 1000)
    four_players = open_table("holdem", "NL10")
    seat_at(four_players, {1: player(), 2: player(), 3: player(), 4: player()}, 1000)

    assert table_join_queue(player(), two_players.stake, 1000, now=START).table_id == two_players.pk


def test_cash_04_amb_63_an_empty_table_the_player_played_at_today_is_preferred_among_empty_tables() -> None:
    empties = [open_table("holdem", "NL10") for _ in range(5)]
    known_empty = empties[3]
    returning = player()
    left_table_earlier(returning, known_empty, 1000, START - timedelta(hours=2))

    request = table_join_queue(returning, known_empty.stake, 1000, now=START)

    assert request.table_id == known_empty.pk


def test_cash_05_a_player_queued_because_every_table_is_full_is_told_why_and_what_opens_a_table() -> None:
    full = open_table("holdem", "NL10")
    seat_at(full, {number: player() for number in range(1, 7)}, 1000)

    request = table_join_queue(player(), full.stake, 1000, now=START)

    assert request.status == SeatingRequestStatus.WAITING
    assert request.message == (
        "The only open Texas Hold'em NL10 table is full. A new table opens when 3 players wait; 1 is waiting now."
    )


def test_cash_05_a_player_queued_for_a_stake_with_no_table_is_told_so() -> None:
    nl25 = stake("holdem", "NL25")
    table_join_queue(player(), nl25, 2500, now=START)

    request = table_join_queue(player(), nl25, 2500, now=START)

    assert request.status == SeatingRequestStatus.WAITING
    assert request.message == (
        "No Texas Hold'em NL25 table is open. A new table opens when 3 players wait; 2 are waiting now."
    )
