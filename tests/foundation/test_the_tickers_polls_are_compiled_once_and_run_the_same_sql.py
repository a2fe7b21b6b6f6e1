"""The ticker asks its questions several times a second (architecture rule 5); the SQL of each is built once
(``poker_site.core.prepared_queries``), so an idle tick costs PostgreSQL's answers and not the ORM's compiler. A
prepared query runs exactly the statement the ORM builds for the same values, and finds the same rows (issue 26)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db.models import QuerySet

from games.models import Table
from games.runtime import ticks as cash_ticks
from games.uth import ticks as uth_ticks
from poker_site.core.prepared_queries import PreparedQuery
from poker_site.core.ticker import tick_once
from tests.compilations import compilations_counted
from tests.tables.support import later, open_table, player, seat_players
from wallet.services import unresolved

pytestmark = pytest.mark.django_db

MOMENT = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def tables_due(now: datetime) -> QuerySet[Table, int]:
    return Table.objects.filter(next_hand_at__lte=now).order_by("next_hand_at", "pk").values_list("pk", flat=True)


def test_a_prepared_query_runs_the_statement_the_orm_builds_with_the_values_bound() -> None:
    prepared = PreparedQuery(tables_due, ["now"])
    for moment in (MOMENT, MOMENT + timedelta(days=400, microseconds=7)):
        sql, params = tables_due(moment).query.get_compiler(using="default").as_sql()
        assert prepared.statement(now=moment) == (sql, list(params))


def test_a_query_with_two_variables_binds_each_at_its_places() -> None:
    def between(earliest: datetime, latest: datetime) -> QuerySet[Table, int]:
        return Table.objects.filter(next_hand_at__gte=earliest, next_hand_at__lte=latest).values_list("pk", flat=True)

    prepared = PreparedQuery(between, ["earliest", "latest"])
    later_moment = MOMENT + timedelta(hours=1)
    sql, params = between(MOMENT, later_moment).query.get_compiler(using="default").as_sql()
    assert prepared.statement(earliest=MOMENT, latest=later_moment) == (sql, list(params))


def test_a_number_variable_is_bound_at_its_place_beside_a_datetime() -> None:
    """The player socket's ``hello`` reads a player's seats by user id this way on every page opened."""

    def due_at_stake(now: datetime, stake_id: int) -> QuerySet[Table, int]:
        return Table.objects.filter(next_hand_at__lte=now, stake_id=stake_id).values_list("pk", flat=True)

    prepared = PreparedQuery(due_at_stake, ["now"], numbers=["stake_id"])
    table = open_table()
    other = open_table("omaha", "PL10")
    Table.objects.filter(pk__in=[table.pk, other.pk]).update(next_hand_at=MOMENT)
    for stake_id in (table.stake_id, other.stake_id, 0):
        sql, params = due_at_stake(MOMENT, stake_id).query.get_compiler(using="default").as_sql()
        assert prepared.statement(now=MOMENT, stake_id=stake_id) == (sql, list(params))
        assert [pk for (pk,) in prepared.rows(now=MOMENT, stake_id=stake_id)] == list(due_at_stake(MOMENT, stake_id))
    assert [pk for (pk,) in prepared.rows(now=MOMENT, stake_id=table.stake_id)] == [table.pk]


def test_a_prepared_query_finds_the_rows_the_orm_finds_at_every_moment() -> None:
    table = open_table()
    seat_players(table, [player() for _ in range(2)], 1_000)
    other = open_table()
    Table.objects.filter(pk=table.pk).update(next_hand_at=MOMENT)
    Table.objects.filter(pk=other.pk).update(next_hand_at=MOMENT + timedelta(seconds=5))
    prepared = PreparedQuery(tables_due, ["now"])
    for seconds in (-1, 0, 4, 5, 60):
        moment = MOMENT + timedelta(seconds=seconds)
        assert [pk for (pk,) in prepared.rows(now=moment)] == list(tables_due(moment))
    assert [pk for (pk,) in prepared.rows(now=MOMENT + timedelta(seconds=5))] == [table.pk, other.pk]


def test_a_query_that_does_not_take_a_variable_as_a_parameter_is_refused() -> None:
    prepared = PreparedQuery(lambda now: Table.objects.values_list("pk", flat=True), ["now"])
    with pytest.raises(ValueError, match="does not take"):
        prepared.rows(now=MOMENT)


def test_an_idle_tick_builds_no_sql(monkeypatch: pytest.MonkeyPatch) -> None:
    """With nothing due, a tick runs the handlers' prepared polls and nothing else: no queryset is compiled. A poll
    added to a handler as a plain queryset fails here; prepare it (it runs four times a second in production)."""
    table = open_table()
    seat_players(table, [player() for _ in range(2)], 1_000)
    tick_once(later(0))  # compiles every prepared poll once
    compiled = compilations_counted(monkeypatch)
    assert tick_once(later(0.1)) == {"wallet.void_unresolved_games": 0, "cash_tables": 0, "uth": 0}
    assert compiled == []


def test_the_handlers_polls_are_prepared() -> None:
    """The polls the idle-tick test relies on compile, each taking the tick's time as a parameter."""
    for prepared in (
        cash_ticks._HANDS_DUE,
        cash_ticks._SIT_OUTS_DUE,
        cash_ticks._DEALS_DUE,
        uth_ticks._DUE_STEPS,
        unresolved._CASES_DUE,
    ):
        sql, _params = prepared.statement(**dict.fromkeys(prepared.variables, MOMENT))
        assert sql.lstrip("( ").upper().startswith("SELECT")  # a UNION of reads starts with its first, parenthesised
