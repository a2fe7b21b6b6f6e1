"""CASH-22 with table actors (issue 27): every socket a player opens at a table sends its owner a "connection
restored" report, and nearly always the seat is connected already. Between hands the owner runs the report's service,
which locks the table and its seats in a transaction of its own; a report that cannot change the seat now costs one
read instead, while a report that does change it is still applied under those locks."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Seat, Table
from games.runtime import commands
from games.runtime.actor import CONNECTION_LOST, CONNECTION_RESTORED
from games.runtime.owner import command_run
from poker_site.accounts.models import User
from tests.tables.support import open_table, player, seat_players

pytestmark = pytest.mark.django_db(transaction=True)

BUY_IN = 1_000


def _seated_table() -> tuple[int, list[int]]:
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(2)]
    seat_players(table, users, BUY_IN)
    return table.pk, [user.pk for user in users]


def _run(table_id: int, user_id: int | None, report: str) -> tuple[object, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        result = command_run(table_id, user_id, report, {})
    return result, [query["sql"] for query in queries.captured_queries]


def test_a_connected_player_reported_connected_costs_one_read_without_a_lock_or_a_transaction() -> None:
    table_id, (user_id, _) = _seated_table()

    result, statements = _run(table_id, user_id, CONNECTION_RESTORED)

    assert result is False
    assert len(statements) == 1
    assert "FOR UPDATE" not in statements[0]
    assert "FOR SHARE" not in statements[0]
    assert Seat.objects.get(table_id=table_id, user_id=user_id).disconnected_since is None


def test_a_user_without_a_seat_or_an_anonymous_report_changes_nothing_at_the_cost_of_at_most_one_read() -> None:
    table_id, _ = _seated_table()
    stranger = player()

    for report in (CONNECTION_RESTORED, CONNECTION_LOST):
        assert _run(table_id, stranger.pk, report)[0] is False
        assert len(_run(table_id, stranger.pk, report)[1]) == 1
        assert _run(table_id, None, report) == (False, [])
    assert not Seat.objects.filter(table_id=table_id, disconnected_since__isnull=False).exists()


def test_a_disconnected_player_reported_lost_again_costs_one_read_and_keeps_the_first_time() -> None:
    table_id, (user_id, _) = _seated_table()
    first, _ = _run(table_id, user_id, CONNECTION_LOST)
    lost_at = Seat.objects.get(table_id=table_id, user_id=user_id).disconnected_since

    again, statements = _run(table_id, user_id, CONNECTION_LOST)

    assert (first, again) == (True, False)
    assert lost_at is not None
    assert len(statements) == 1
    assert Seat.objects.get(table_id=table_id, user_id=user_id).disconnected_since == lost_at


def test_a_report_that_changes_the_seat_still_runs_its_service_under_the_table_and_seat_locks() -> None:
    table_id, (user_id, other_id) = _seated_table()

    lost, statements = _run(table_id, user_id, CONNECTION_LOST)

    assert lost is True
    assert any("FOR UPDATE" in statement or "FOR NO KEY UPDATE" in statement for statement in statements)
    assert Seat.objects.get(table_id=table_id, user_id=user_id).disconnected_since is not None
    assert Seat.objects.get(table_id=table_id, user_id=other_id).disconnected_since is None

    restored, statements = _run(table_id, user_id, CONNECTION_RESTORED)

    assert restored is True
    assert any("FOR UPDATE" in statement or "FOR NO KEY UPDATE" in statement for statement in statements)
    assert Seat.objects.get(table_id=table_id, user_id=user_id).disconnected_since is None


@pytest.mark.parametrize("connected_before", [True, False], ids=["already-connected", "disconnected"])
def test_without_table_actors_a_socket_opened_reports_its_player_at_the_cost_the_seat_needs(
    settings: Any, connected_before: bool
) -> None:
    """The per-action durable path has no owner: the socket's report runs where the socket does, with the same read."""
    settings.TABLE_ACTORS = False
    table_id, (user_id, _) = _seated_table()
    if not connected_before:
        command_run(table_id, user_id, CONNECTION_LOST, {})
    table, user = Table.objects.get(pk=table_id), User.objects.get(pk=user_id)

    with CaptureQueriesContext(connection) as queries:
        commands.connection_restored(user, table)

    assert Seat.objects.get(table_id=table_id, user_id=user_id).disconnected_since is None
    if connected_before:
        assert len(queries.captured_queries) == 1
    else:
        assert any("FOR UPDATE" in query["sql"] for query in queries.captured_queries)


@pytest.mark.parametrize("seated", [True, False], ids=["seated", "spectator"])
def test_without_table_actors_a_last_socket_closed_reports_its_player_at_the_cost_the_seat_needs(
    settings: Any, seated: bool
) -> None:
    """A seated player's last socket closing starts their disconnection (under the locks); a spectator's, or a
    second report of the same loss, costs one read and changes nothing."""
    settings.TABLE_ACTORS = False
    table_id, (user_id, _) = _seated_table()
    table = Table.objects.get(pk=table_id)
    user = User.objects.get(pk=user_id) if seated else player()

    with CaptureQueriesContext(connection) as first:
        commands.connection_lost(user, table)
    since = Seat.objects.filter(table_id=table_id, user_id=user.pk).values_list("disconnected_since", flat=True)
    first_time = list(since)
    with CaptureQueriesContext(connection) as again:
        commands.connection_lost(user, table)

    if seated:
        assert any("FOR UPDATE" in query["sql"] for query in first.captured_queries)
        assert first_time[0] is not None
    else:
        assert len(first.captured_queries) == 1
        assert first_time == []
    assert len(again.captured_queries) == 1
    assert list(since) == first_time  # the second report kept the first time


def test_a_warm_process_asks_whether_a_report_can_change_a_seat_without_compiling_sql(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every socket opened and closed at a table asks this (the owner with actors, the socket's thread without)."""
    from games.runtime.clocks import connection_report_may_change
    from tests.compilations import compilations_counted

    table_id, (user_id, other_id) = _seated_table()
    connection_report_may_change(table_id, user_id, restored=True)
    connection_report_may_change(table_id, user_id, restored=False)  # the process's first reports compile
    command_run(table_id, other_id, CONNECTION_LOST, {})
    compiled = compilations_counted(monkeypatch)

    answers = [
        connection_report_may_change(table_id, user_id, restored=True),
        connection_report_may_change(table_id, user_id, restored=False),
        connection_report_may_change(table_id, other_id, restored=True),
        connection_report_may_change(table_id, other_id, restored=False),
        connection_report_may_change(table_id, user_id + other_id + 1_000, restored=False),
    ]

    assert compiled == []
    assert answers == [False, True, True, False, False]
