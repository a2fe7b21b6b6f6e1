"""A second "Seat me" from a player already seated at a stake (CASH-04, CASH-05, CASH-09, CASH-28; issue 30, the QA
attack on seating requests): the repro was a double "Sit down", then leaving the table, and the hidden waiting request
seated the player again ~0.2 s later with a new buy-in. Now the request waiting while the player sits at the stake is
cancelled when they leave or are taken off the table, a request from the page of the table where the player sits is
refused ``already_seated``, a request at the table limit is refused, and asking again while queued keeps one request.
A player may still play several tables of a stake where the rules allow it (CASH-09)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.cash.table_closing import table_close
from games.models import Seat, SeatingRequest, SeatingRequestStatus
from games.runtime.commands import CommandRefused, execute
from games.runtime.protocol import ClientMessage
from games.services import AlreadySeated, TableLimitReached, seat_leave, seat_take, stake_queues_drain, table_join_queue
from tests.tables.support import START, cash, open_table, player, seat_at, stake

pytestmark = pytest.mark.django_db


def test_cash_05_issue_30_a_second_seat_request_while_seated_is_cancelled_when_the_player_leaves() -> None:
    """The QA repro: seated, "Sit down" again (queued: every other table is full or none is open), then leave the
    table: no seat comes back, no second buy-in is charged."""
    table = open_table("holdem", "NL10")
    alice, bob, carol = player(), player(), player()
    seat_at(table, {1: alice, 2: bob, 3: carol}, 1000)
    again = table_join_queue(alice, table.cash_stake, 1000, now=START + timedelta(seconds=1))
    assert again.status == SeatingRequestStatus.WAITING  # CASH-09: a second table of the stake would be allowed
    twice = table_join_queue(alice, table.cash_stake, 1000, now=START + timedelta(seconds=2))
    assert twice.pk == again.pk  # one waiting request per player and stake
    cash_after_sitting_down = cash(alice)
    seat_leave(alice, table, now=START + timedelta(seconds=3))
    again.refresh_from_db()
    assert again.status == SeatingRequestStatus.CANCELLED
    assert "left a table of this stake" in again.message
    stake_queues_drain(now=START + timedelta(seconds=3.2))
    assert not Seat.objects.filter(user=alice).exists()
    assert cash(alice) == cash_after_sitting_down + 1000  # the stack came back; no new buy-in was taken
    # Only requests made while seated are cancelled: asking for the stake after leaving seats the player.
    request = table_join_queue(alice, table.cash_stake, 1000, now=START + timedelta(seconds=4))
    assert request.status == SeatingRequestStatus.SEATED
    assert request.table == table


def test_cash_04_issue_30_seat_me_from_the_table_the_player_sits_at_is_refused_already_seated() -> None:
    """The table page hides "Seat me at this stake" from a seated player: a second one (a double click, a stale page)
    is refused and queues nothing."""
    table = open_table("holdem", "NL10")
    alice, bob, carol = player(), player(), player()
    seat_at(table, {1: alice, 2: bob, 3: carol}, 1000)
    with pytest.raises(AlreadySeated):
        table_join_queue(alice, table.cash_stake, 1000, from_table=table, now=START)
    with pytest.raises(CommandRefused) as refused:
        execute(alice, table, ClientMessage("seat_me", {"buy_in": 1000}))
    assert refused.value.code == "already_seated"
    assert not SeatingRequest.objects.filter(user=alice).exists()
    # CASH-09: from the lobby (or another table's page) a second table of the stake is still allowed.
    other = open_table("holdem", "NL10")
    seat_at(other, {1: player()}, 1000)
    request = table_join_queue(alice, table.cash_stake, 1000, now=START + timedelta(seconds=1))
    assert request.status == SeatingRequestStatus.SEATED
    assert request.table == other


def test_cash_28_a_request_at_the_banzai_table_limit_is_refused_and_queues_nothing() -> None:
    user = player(cash=10_000)
    tables = [open_table("banzai", "NL1") for _ in range(4)]
    for table in tables:
        seat_take(user, table, 100, now=START)
    before = cash(user)
    with pytest.raises(TableLimitReached, match="limit is 4 per stake"):
        table_join_queue(user, stake("banzai", "NL1"), 100, now=START)
    assert not SeatingRequest.objects.filter(user=user).exists()
    seat_leave(user, tables[0], now=START + timedelta(seconds=1))
    stake_queues_drain(now=START + timedelta(seconds=2))
    assert Seat.objects.filter(user=user).count() == 3
    assert cash(user) == before + 100


def test_cash_09_issue_30_a_request_made_while_seated_does_not_seat_a_player_taken_off_the_table() -> None:
    """The table closes under the player (CASH-08's leave with another reason): the request they made while seated
    there does not seat them at the next table of the stake with a new buy-in."""
    table = open_table("holdem", "NL10")
    alice, bob, carol = player(), player(), player()
    seat_at(table, {1: alice, 2: bob, 3: carol}, 1000)
    request = table_join_queue(alice, table.cash_stake, 1000, now=START + timedelta(seconds=1))
    assert request.status == SeatingRequestStatus.WAITING
    table_close(table, reason="test", now=START + timedelta(seconds=2))
    cash_after_closing = cash(alice)
    other = open_table("holdem", "NL10")
    seat_at(other, {1: player()}, 1000, now=START + timedelta(seconds=3))
    stake_queues_drain(now=START + timedelta(seconds=4))
    request.refresh_from_db()
    assert request.status == SeatingRequestStatus.CANCELLED
    assert not Seat.objects.filter(user=alice).exists()
    assert cash(alice) == cash_after_closing
