"""The lobby's Waiting figure is the stake's queue, and every change of the queue tells the lobby rows of the stake's
tables after commit (issue 22: the Waiting column showed 0 while a player waited) (CASH-05, LOB-01)."""

from __future__ import annotations

from typing import Any

import pytest

from games.cash.lobby import lobby_rows
from games.services import table_join_queue, table_leave_queue
from tests.tables.support import START, open_table, player, seat_at

pytestmark = pytest.mark.django_db


def full_nl10_tables(count: int) -> list[Any]:
    tables = [open_table("holdem", "NL10") for _ in range(count)]
    for table in tables:
        seat_at(table, {number: player() for number in range(1, 7)}, 1000)
    return tables


def waiting_figures() -> dict[int, int]:
    return {row["id"]: row["waiting"] for row in lobby_rows()}


def test_cash_05_joining_and_leaving_the_queue_moves_the_waiting_figure_of_every_table_of_the_stake_and_tells_the_lobby(
    announcements: list[tuple[Any, ...]], django_capture_on_commit_callbacks: Any
) -> None:
    first, second = full_nl10_tables(2)
    other_stake = open_table("holdem", "NL25")
    queued = player()
    announcements.clear()

    with django_capture_on_commit_callbacks(execute=True):
        table_join_queue(queued, first.stake, 1000, now=START)

    assert waiting_figures() == {first.pk: 1, second.pk: 1, other_stake.pk: 0}
    assert {("lobby", first.pk), ("lobby", second.pk)} <= set(announcements)
    assert ("lobby", other_stake.pk) not in announcements

    announcements.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert table_leave_queue(queued, first.stake, now=START) == 1

    assert waiting_figures() == {first.pk: 0, second.pk: 0, other_stake.pk: 0}
    assert {("lobby", first.pk), ("lobby", second.pk)} <= set(announcements)


def test_cash_05_leaving_a_queue_one_is_not_in_tells_nobody(
    announcements: list[tuple[Any, ...]], django_capture_on_commit_callbacks: Any
) -> None:
    (table,) = full_nl10_tables(1)
    announcements.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert table_leave_queue(player(), table.stake, now=START) == 0
    assert announcements == []


def test_cash_05_the_tickers_drain_tells_the_lobby_only_when_the_queue_moved(
    announcements: list[tuple[Any, ...]], django_capture_on_commit_callbacks: Any
) -> None:
    from games.models import Seat
    from games.services import seat_leave, stake_queues_drain

    (table,) = full_nl10_tables(1)
    queued = player()
    table_join_queue(queued, table.stake, 1000, now=START)
    announcements.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert stake_queues_drain(now=START) == 0
    assert announcements == [], "nothing moved: no lobby notice on every tick"

    seat_leave(Seat.objects.filter(table=table).first().user, table, now=START)
    announcements.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert stake_queues_drain(now=START) == 1
    assert ("lobby", table.pk) in announcements
    assert waiting_figures() == {table.pk: 0}
