"""One tick of the ``uth`` ticker handler asks PostgreSQL once what is due (a table's next round to open, a betting
time over, a decision phase over) and advances all of it, each in its own transaction (UTH-07, UTH-08, UTH-10)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.uth.models import UthTable
from games.uth.services import uth_bet_place, uth_seat_take
from games.uth.ticks import advance_uth_tables
from poker_site.accounts.models import User

from .conftest import START, Clock, current_round, uth_table

pytestmark = pytest.mark.django_db


def test_an_idle_tick_asks_once_and_changes_nothing(table: UthTable, clock: Clock) -> None:
    UthTable.objects.filter(pk=table.pk).update(next_round_at=START + timedelta(hours=1))

    with CaptureQueriesContext(connection) as queries:
        assert clock.tick() == 0

    assert len(queries.captured_queries) == 1
    assert current_round(table) is None


def test_a_tick_opens_closes_and_ends_phases_at_three_tables_at_once(
    table: UthTable, clock: Clock, make_player: Callable[..., User]
) -> None:
    betting, deciding = uth_table("Betting", START), uth_table("Deciding", START)
    alice, bob = make_player("alice"), make_player("bob")
    UthTable.objects.filter(pk=table.pk).update(next_round_at=START + timedelta(seconds=30))
    uth_seat_take(alice, betting.pk, now=clock.now)
    uth_seat_take(bob, deciding.pk, now=clock.now)
    assert clock.tick() == 2  # both open their first round
    uth_bet_place(bob, deciding.pk, "ante", 1_000, now=clock.now)
    clock.tick(15)  # Deciding is dealt (Betting had no bet: its betting time starts again)
    assert current_round(deciding).phase == "preflop"
    uth_bet_place(alice, betting.pk, "ante", 1_000, now=clock.now)

    # 15 s later: Betting's betting time is over, Deciding's pre-flop decision time is over, the test table is due.
    advanced = advance_uth_tables(clock.now + timedelta(seconds=15))

    assert advanced == 3
    assert current_round(table).phase == "betting"
    assert current_round(betting).phase == "preflop"
    assert current_round(deciding).phase == "flop"
