"""The hot path's SQL built once per process (poker_site.core.compiled_sql) reads and writes exactly what the ORM does:
the compiled lock queries return the same instances (with their select_related objects) as the querysets they were
built from, field updates write the named fields only, and inserts set primary keys in order."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import HandEvent, Seat, Table
from poker_site.core.compiled_sql import (
    PSYCOPG_CACHED_PARAMETERS,
    CompiledSelect,
    fields_update,
    row_insert_unless_taken,
    rows_insert,
    rows_update,
)
from tests.tables.support import open_table, player, seat_players
from wallet.models import Account
from wallet.services import player_cash_account

pytestmark = pytest.mark.django_db


def seats_query(table_id: int):  # type: ignore[no-untyped-def]
    return Seat.objects.filter(table_id=table_id).select_related("user", "session__account").order_by("pk")


def described(seat: Seat) -> tuple[object, ...]:
    """Every column of the seat and of the rows select_related loaded with it."""
    session = seat.session
    return (
        tuple(getattr(seat, field.attname) for field in Seat._meta.concrete_fields),
        seat.user.username if seat.user is not None else None,
        tuple(getattr(session, field.attname) for field in type(session)._meta.concrete_fields) if session else None,
        session.account.balance if session is not None else None,
    )


def test_a_compiled_select_returns_what_its_queryset_returns_for_every_value() -> None:
    first, second = open_table(), open_table()
    seat_players(first, [player(), player()], 1000)
    seat_players(second, [player()], 700)
    compiled = CompiledSelect(seats_query)

    for table in (first, second, first):
        assert [described(seat) for seat in compiled.all(table.pk)] == [
            described(seat) for seat in seats_query(table.pk)
        ]
    assert compiled.first(0) is None


@pytest.mark.django_db(transaction=True)
def test_a_compiled_lock_is_refused_outside_a_transaction_and_taken_inside_one() -> None:
    table = open_table()
    compiled = CompiledSelect(lambda table_id: Table.objects.select_for_update().order_by().filter(pk=table_id))

    with pytest.raises(TransactionManagementError):
        compiled.all(table.pk)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        assert compiled.first(table.pk) == table
    assert "FOR UPDATE" in queries.captured_queries[-1]["sql"]


def test_a_compiled_select_takes_text_values_where_it_is_told_they_are_text() -> None:
    """The wallet looks its accounts up by (kind, currency, reference) this way on every bet and settlement."""
    cash_account = player_cash_account(player())
    by_key = CompiledSelect(
        lambda kind, currency, reference: Account.objects.filter(kind=kind, currency=currency, reference=reference),
        3,
        text_values=frozenset({0, 1, 2}),
    )
    numbers_only = CompiledSelect(lambda reference: Account.objects.filter(reference=reference))

    assert by_key.first(cash_account.kind, cash_account.currency, cash_account.reference) == cash_account
    assert by_key.first(cash_account.kind, "USD", cash_account.reference) is None
    assert by_key.first(cash_account.kind, cash_account.currency, cash_account.reference + "0") is None
    with pytest.raises(ValueError, match="exactly once"):  # a number marker became text: it cannot be found
        numbers_only.all(cash_account.reference)
    with pytest.raises(ValueError, match="beyond"):
        CompiledSelect(lambda reference: Account.objects.filter(reference=reference), 1, text_values=frozenset({1}))


def test_a_compiled_select_takes_datetime_values_where_it_is_told_they_are_datetimes() -> None:
    """Sessions are read this way on every request: the key is text, the moment a datetime."""
    from datetime import timedelta

    from django.contrib.sessions.models import Session

    now = timezone.now()
    Session.objects.create(session_key="k" * 32, session_data="", expire_date=now)
    in_force = CompiledSelect(
        lambda key, moment: Session.objects.filter(session_key=key, expire_date__gt=moment),
        2,
        text_values=frozenset({0}),
        datetime_values=frozenset({1}),
    )

    assert in_force.first("k" * 32, now - timedelta(microseconds=1)) is not None
    assert in_force.first("k" * 32, now) is None
    assert in_force.first("j" * 32, now - timedelta(days=1)) is None
    with pytest.raises(ValueError, match="both text and datetimes"):
        CompiledSelect(
            lambda key: Session.objects.filter(session_key=key),
            text_values=frozenset({0}),
            datetime_values=frozenset({0}),
        )


@pytest.mark.django_db(transaction=True)
def test_a_compiled_select_can_lock_its_rows_for_share_inside_a_transaction_only() -> None:
    """Every UTH bet reads its round this way: bets in parallel, the ticker's phase change waits for them."""
    table = open_table()
    seat_players(table, [player(), player()], 1_000)
    shared = CompiledSelect(lambda table_id: Seat.objects.filter(table_id=table_id).order_by("pk"), shared_lock=True)

    with pytest.raises(TransactionManagementError):
        shared.all(table.pk)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        found = shared.all(table.pk)
    locking = [query["sql"] for query in queries.captured_queries if "games_seat" in query["sql"]]
    assert [seat.pk for seat in found] == sorted(seat.pk for seat in Seat.objects.filter(table=table))
    assert sum(1 for seat in found if seat.user_id is not None) == 2
    assert locking[0].rstrip().endswith("FOR SHARE")
    both = CompiledSelect(lambda table_id: Seat.objects.select_for_update().filter(table_id=table_id), shared_lock=True)
    with transaction.atomic(), pytest.raises(ValueError, match="not both"):
        both.all(table.pk)


def test_a_compiled_select_sets_the_querysets_annotations_on_its_instances() -> None:
    from django.db.models import Exists, OuterRef

    table = open_table()
    seated, waiting = player(), player()
    seat_players(table, [seated], 1_000)

    def with_seat(user_id: int):  # type: ignore[no-untyped-def]
        seats = Seat.objects.filter(user_id=OuterRef("pk"))
        return type(seated).objects.filter(pk=user_id).annotate(seated=Exists(seats))

    compiled = CompiledSelect(with_seat)
    for user in (seated, waiting, seated):
        found = compiled.first(user.pk)
        expected = with_seat(user.pk).get()
        assert found is not None
        assert (found.pk, found.username, found.seated) == (expected.pk, expected.username, expected.seated)
    assert compiled.first(seated.pk).seated is True
    assert compiled.first(waiting.pk).seated is False


def test_a_queryset_whose_value_is_not_a_single_parameter_is_refused() -> None:
    twice = CompiledSelect(lambda table_id: Table.objects.filter(pk=table_id, stake_id=table_id))
    never = CompiledSelect(lambda _table_id: Table.objects.filter(pk=1))
    dropped = CompiledSelect(lambda count: Table.objects.filter(hands_played__lt=count))

    with pytest.raises(ValueError, match="exactly once"):
        twice.all(1)
    with pytest.raises(ValueError, match="exactly once"):
        never.all(1)
    with pytest.raises(ValueError, match="cannot be compiled"):
        dropped.all(5)


def test_a_field_update_writes_the_named_fields_and_nothing_else() -> None:
    table = open_table()
    table.hands_played = 41
    table.name = "changed in memory only"

    fields_update(table, ["hands_played"])

    stored = Table.objects.get(pk=table.pk)
    assert stored.hands_played == 41
    assert stored.name != "changed in memory only"


def test_a_field_update_counts_a_field_on_in_the_database_in_the_same_statement() -> None:
    """``table_touch`` moves a locked table's version on with every change (hand starts and ends)."""
    table = open_table()
    Table.objects.filter(pk=table.pk).update(version=7)  # the instance's version is stale on purpose: not read
    table.hands_played = 3

    with CaptureQueriesContext(connection) as queries:
        fields_update(table, ["hands_played"], counted="version")
        fields_update(table, [], counted="version")

    stored = Table.objects.get(pk=table.pk)
    assert (stored.version, stored.hands_played) == (9, 3)
    assert len(queries.captured_queries) == 2
    with pytest.raises(ValueError, match="counted on"):
        fields_update(table, ["version"], counted="version")


def test_a_field_update_of_a_missing_row_fails() -> None:
    table = open_table()
    table.pk = table.pk + 10_000

    with pytest.raises(DatabaseError, match="not updated"):
        fields_update(table, ["hands_played"])


def test_rows_are_inserted_in_order_with_their_keys_and_the_update_in_the_same_statement() -> None:
    table = open_table()
    start = table.last_sequence
    rows = [
        HandEvent(table_id=table.pk, sequence=start + number, kind="note", payload={"number": number})
        for number in (1, 2, 3)
    ]
    table.last_sequence = start + 3

    with CaptureQueriesContext(connection) as queries:
        rows_insert(rows, also_update=(table, ["last_sequence"]))

    assert len(queries.captured_queries) == 1
    stored = list(HandEvent.objects.filter(table_id=table.pk, kind="note").order_by("sequence"))
    assert [row.pk for row in rows] == [row.pk for row in stored]
    assert [row.payload for row in stored] == [{"number": 1}, {"number": 2}, {"number": 3}]
    assert Table.objects.get(pk=table.pk).last_sequence == start + 3


def test_rows_past_psycopgs_query_cache_go_in_through_one_statement_text_with_their_values_nulls_and_order() -> None:
    """A hand's events (dozens of rows, more parameters than psycopg keeps a parse for) go in through one short
    statement whatever their number: parsed and prepared once, where ``VALUES`` x rows was a new text per count. The
    arrays travel in PostgreSQL's binary format (the text format's per-element escaping cost three times as much),
    and text that the text format would have to escape comes back as it went in."""
    table = open_table()
    start = table.last_sequence
    texts: list[str] = []
    sent_to_the_driver: list[str] = []

    def remember_the_statement(execute: Any, sql: str, parameters: Any, many: bool, context: Any) -> Any:
        sent_to_the_driver.append(sql)
        return execute(sql, parameters, many, context)

    def insert(count: int, offset: int) -> list[HandEvent]:
        rows = [
            HandEvent(
                table_id=table.pk,
                sequence=start + offset + number + 1,
                kind=f"note {number}",
                payload={"number": number, "nested": [number, {"seat": None}], "said": 'a "quote", {braces}, \\ é'},
                audience="seat" if number % 2 else "public",
                private_to_seat=number % 6 if number % 2 else None,
            )
            for number in range(count)
        ]
        with CaptureQueriesContext(connection) as queries, connection.execute_wrapper(remember_the_statement):
            rows_insert(rows)
        texts.extend(query["sql"].split(" RETURNING")[0].split("unnest(")[0] for query in queries.captured_queries)
        return rows

    columns = sum(1 for field in HandEvent._meta.concrete_fields if not field.primary_key)
    assert 10 * columns > PSYCOPG_CACHED_PARAMETERS
    few = insert(10, 0)
    many = insert(40, 10)

    assert len(texts) == 2
    assert texts[0] == texts[1]
    arrays = sent_to_the_driver[1].split("unnest(")[1].split(") WITH ORDINALITY")[0].split(", ")
    assert len(arrays) == columns
    assert all(array.startswith("%b::") for array in arrays)
    stored = list(HandEvent.objects.filter(table_id=table.pk, kind__startswith="note").order_by("sequence"))
    inserted = [*few, *many]
    assert [row.pk for row in inserted] == [row.pk for row in stored]
    assert [row.pk for row in inserted] == sorted(row.pk for row in inserted)
    assert [(row.kind, row.payload, row.audience, row.private_to_seat) for row in stored] == [
        (row.kind, row.payload, row.audience, row.private_to_seat) for row in inserted
    ]
    assert all(row.private_to_user_id is None and row.hand_id is None for row in stored)  # columns of nulls only


def test_a_row_is_inserted_unless_its_unique_key_is_taken_in_one_statement() -> None:
    def account() -> Account:
        return Account(kind="house_rake", currency="EUR", reference="unless-taken", may_go_negative=False)

    first, second = account(), account()
    with CaptureQueriesContext(connection) as queries:
        assert row_insert_unless_taken(first) is True
    assert len(queries.captured_queries) == 1
    assert first.pk is not None
    assert not first._state.adding

    assert row_insert_unless_taken(second) is False
    assert second.pk is None
    assert second._state.adding
    stored = Account.objects.get(reference="unless-taken")
    assert (stored.pk, stored.kind, stored.currency, stored.balance) == (first.pk, "house_rake", "EUR", 0)
    with pytest.raises(ValueError, match="new instance"):
        row_insert_unless_taken(stored)


def test_several_rows_are_updated_in_one_statement_and_only_their_named_fields() -> None:
    tables = [open_table(), open_table(), open_table()]
    for number, table in enumerate(tables, start=1):
        table.hands_played = 100 + number
        table.name = "changed in memory only"

    with CaptureQueriesContext(connection) as queries:
        rows_update(tables[:2], ["hands_played"])

    assert len(queries.captured_queries) == 1
    stored = {table.pk: table for table in Table.objects.filter(pk__in=[table.pk for table in tables])}
    assert [stored[table.pk].hands_played for table in tables] == [101, 102, 0]
    assert all(table.name != "changed in memory only" for table in stored.values())


def test_updating_rows_that_are_not_all_there_fails() -> None:
    table, gone = open_table(), open_table()
    gone.pk = gone.pk + 10_000

    with pytest.raises(DatabaseError, match="1 of 2"):
        rows_update([table, gone], ["hands_played"])
