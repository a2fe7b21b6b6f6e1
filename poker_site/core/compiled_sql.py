"""SQL for the hot path, built once per process: SELECTs the ORM compiles once and re-runs with new values
(:class:`CompiledSelect`), and updates and inserts of model rows (:func:`fields_update`, :func:`rows_update`,
:func:`rows_insert`, :func:`row_insert_unless_taken`).

Turning a queryset into SQL (``SQLCompiler.as_sql``: resolving ``select_related`` joins, quoting every column) costs
more Python time than PostgreSQL spends executing the prepared statement. The row locks taken on every player action
(the table with its hand, rules and terms; the seats with their occupants and accounts) are always the same query with
a different id, so :class:`CompiledSelect` keeps the compiled SQL and the way to build model instances from its rows,
and re-runs it with new values. The rows become model instances exactly as ``QuerySet`` iteration makes them (the
compiler's converters, ``Model.from_db`` and Django's ``select_related`` populators), and every statement here goes
through the connection's cursor (execute wrappers and query logging see it).

Contract for :class:`CompiledSelect`: ``build(*values)`` returns a model queryset (no ``values()``, extra selects or
prefetches; annotations are set on the instances as ``QuerySet`` sets them) whose SQL parameters include each of
``values`` exactly once; the compiled statement is reused with the values substituted in those positions.
Construction refuses a queryset that breaks this, so a changed query fails loudly at its first use rather than
running the wrong SQL.

:func:`fields_update` and :func:`rows_insert` write what ``Model.save(update_fields=...)`` and ``bulk_create`` write
(each field's ``pre_save`` and ``get_db_prep_save``), and :func:`rows_update` what ``bulk_update`` writes, with SQL
built once per model, field list and row count (:func:`rows_insert` passes many rows as one array per column, in one
statement whatever their number). They send no model signals (no model on the action path has receivers).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Generic, TypeVar

from django.core.exceptions import EmptyResultSet, FullResultSet
from django.db import DatabaseError, connections, router
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable, get_related_populators
from django.db.transaction import TransactionManagementError

ModelT = TypeVar("ModelT", bound=Model)

_MARKER_BASE = -(2**31) + 7_919
"""Parameter values used only while compiling (distinct, negative: no real id looks like them)."""
_TEXT_MARKER = "\x1ecompiled-select-value-"
"""The start of the text values used only while compiling (with a control character no real value holds)."""
_DATETIME_MARKER = datetime(1901, 2, 3, 4, 5, 6, tzinfo=UTC)
"""The start of the datetimes used only while compiling (one second apart; no real value is that old)."""


@dataclass(frozen=True)
class _Compiled:
    sql: str
    parameters: tuple[Any, ...]
    value_positions: tuple[int, ...]
    locks: bool
    model: type[Model]
    init_list: tuple[str, ...]
    model_columns: slice
    converters: tuple[tuple[int, tuple[Callable[..., Any], ...], Any], ...]
    populators: tuple[Any, ...]
    annotations: tuple[tuple[str, int], ...]


class CompiledSelect(Generic[ModelT]):
    """``build(*values)`` compiled once per database alias; :meth:`all` / :meth:`first` run it for new values."""

    def __init__(
        self,
        build: Callable[..., QuerySet[ModelT]],
        parameter_count: int = 1,
        *,
        text_values: frozenset[int] = frozenset(),
        datetime_values: frozenset[int] = frozenset(),
        shared_lock: bool = False,
    ) -> None:
        """``text_values``: the positions of the values that are text (a text marker stands in for them while
        compiling: a number given to a text field's lookup would become text and no longer be found among the
        parameters); ``datetime_values``: those that are aware datetimes; the others are numbers.

        ``shared_lock``: the rows are locked ``FOR SHARE`` (which the ORM cannot say: readers in parallel, a writer
        waits for them), as ``select_for_update`` locks them for update; not with ``select_for_update``."""
        for positions in (text_values, datetime_values):
            if not positions <= set(range(parameter_count)):
                raise ValueError(f"value positions {sorted(positions)} beyond {parameter_count} values")
        if text_values & datetime_values:
            raise ValueError(f"values both text and datetimes: {sorted(text_values & datetime_values)}")
        self.build = build
        self.parameter_count = parameter_count
        self.text_values = text_values
        self.datetime_values = datetime_values
        self.shared_lock = shared_lock
        self._compiled: dict[str, _Compiled] = {}
        self._lock = threading.Lock()
        self._database: str | None = None

    def all(self, *values: Any) -> list[ModelT]:
        """The instances the queryset ``build(*values)`` would yield, in its order."""
        if len(values) != self.parameter_count:
            raise TypeError(f"expected {self.parameter_count} values, got {len(values)}")
        queryset_alias = self._alias()
        compiled = self._compiled.get(queryset_alias) or self._compile(queryset_alias)
        connection = connections[queryset_alias]
        if compiled.locks and connection.get_autocommit():
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        parameters = list(compiled.parameters)
        for position, value in zip(compiled.value_positions, values, strict=True):
            parameters[position] = value
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, parameters)
            rows = cursor.fetchall()
        instances: list[ModelT] = []
        for fetched in rows:
            row = list(fetched)
            for position, converters, expression in compiled.converters:
                value = row[position]
                for converter in converters:
                    value = converter(value, expression, connection)
                row[position] = value
            instance = compiled.model.from_db(queryset_alias, compiled.init_list, row[compiled.model_columns])
            for populator in compiled.populators:
                populator.populate(row, instance)
            for name, position in compiled.annotations:
                setattr(instance, name, row[position])
            instances.append(instance)  # type: ignore[arg-type]
        return instances

    def first(self, *values: Any) -> ModelT | None:
        """The first instance :meth:`all` would return, or None."""
        found = self.all(*values)
        return found[0] if found else None

    def _alias(self) -> str:
        # The queryset's database (routing included), decided once: building the queryset has a cost of its own.
        if self._database is None:
            self._database = self.build(*self._markers()).db
        return self._database

    def _markers(self) -> list[int | str | datetime]:
        return [
            f"{_TEXT_MARKER}{index}"
            if index in self.text_values
            else _DATETIME_MARKER + timedelta(seconds=index)
            if index in self.datetime_values
            else _MARKER_BASE + index
            for index in range(self.parameter_count)
        ]

    def _compile(self, alias: str) -> _Compiled:
        with self._lock:
            if alias in self._compiled:
                return self._compiled[alias]
            markers = self._markers()
            queryset = self.build(*markers)
            if (
                queryset._iterable_class is not ModelIterable
                or bool(getattr(queryset, "_prefetch_related_lookups", False))
                or bool(getattr(queryset, "_known_related_objects", False))
                or queryset.query.extra_select
            ):
                raise ValueError("CompiledSelect needs a model queryset (no values, extra selects or prefetches)")
            if self.shared_lock and queryset.query.select_for_update:
                raise ValueError("a shared lock instead of select_for_update's, not both")
            compiler = queryset.query.get_compiler(using=alias)
            try:
                sql, parameters = compiler.as_sql()
            except (EmptyResultSet, FullResultSet) as error:
                # The ORM dropped a condition for the marker value itself (say, a negative count): the SQL would not
                # depend on the real value, so it cannot be reused.
                raise ValueError(f"the query cannot be compiled for any value ({type(error).__name__})") from error
            positions = []
            if self.shared_lock:
                sql = f"{sql} FOR SHARE"  # the locking clause comes last, after any LIMIT
            for marker in markers:
                found = [index for index, parameter in enumerate(parameters) if parameter == marker]
                if len(found) != 1:
                    raise ValueError(f"each value must appear exactly once among the SQL parameters: {parameters!r}")
                positions.append(found[0])
            select, klass_info = compiler.select, compiler.klass_info
            assert klass_info is not None
            select_fields = klass_info["select_fields"]
            start, end = select_fields[0], select_fields[-1] + 1
            converters = compiler.get_converters([column[0] for column in select])
            compiled = _Compiled(
                sql=sql,
                parameters=tuple(parameters),
                value_positions=tuple(positions),
                locks=bool(queryset.query.select_for_update) or self.shared_lock,
                model=klass_info["model"],
                init_list=tuple(column[0].target.attname for column in select[start:end]),
                model_columns=slice(start, end),
                converters=tuple(
                    (position, tuple(functions), expression)
                    for position, (functions, expression) in sorted(converters.items())
                ),
                # The stubs describe a later Django's signature (with fetch_mode); 5.2 takes these three.
                populators=tuple(get_related_populators(klass_info, select, alias)),  # type: ignore[call-arg]
                annotations=tuple(compiler.annotation_col_map.items()),
            )
            self._compiled[alias] = compiled
            return compiled


# --- Writes ----------------------------------------------------------------------------------------------------------

_Statement = tuple[str, tuple[Any, ...]]
"""SQL and the fields whose values fill its parameters, in order."""

_update_statements: dict[tuple[type[Model], str, tuple[str, ...], str | None], _Statement] = {}
_rows_update_statements: dict[tuple[type[Model], str, int, tuple[str, ...]], _Statement] = {}
_insert_statements: dict[tuple[type[Model], str, int, str], _Statement] = {}
_insert_unless_taken_statements: dict[tuple[type[Model], str], _Statement] = {}


PSYCOPG_CACHED_PARAMETERS = 50
"""psycopg parses a statement's text once and keeps the result only for statements of at most this many parameters
(and 4,096 characters): a longer ``VALUES`` list is parsed again in Python at every execution."""


def _column(field: Any) -> str:
    """The database column of a concrete field (typed loosely: the stubs allow relations without one)."""
    column = getattr(field, "column", None)
    if not isinstance(column, str):
        raise ValueError(f"{field!r} has no column of its own")
    return column


def _update_statement(model: type[Model], alias: str, names: tuple[str, ...], counted: str | None = None) -> _Statement:
    key = (model, alias, names, counted)
    statement = _update_statements.get(key)
    if statement is None:
        quote = connections[alias].ops.quote_name
        fields: tuple[Any, ...] = tuple(model._meta.get_field(name) for name in names)
        if any(not field.concrete or field.primary_key for field in fields):
            raise ValueError(f"only concrete, non-key fields can be updated: {names}")
        assignments = ", ".join(f"{quote(_column(field))} = %s" for field in fields)
        if counted is not None:
            if counted in names:
                raise ValueError(f"{counted} is counted on by the statement; it cannot also be written")
            column = quote(_column(model._meta.get_field(counted)))
            assignments = f"{column} = {column} + 1" + (f", {assignments}" if assignments else "")
        sql = f"UPDATE {quote(model._meta.db_table)} SET {assignments} WHERE {quote(_column(model._meta.pk))} = %s"
        statement = _update_statements[key] = (sql, fields)
    return statement


def _update_parameters(instance: Model, fields: Sequence[Any], connection: Any) -> list[Any]:
    return [field.get_db_prep_save(field.pre_save(instance, False), connection) for field in fields]


def fields_update(instance: Model, names: Sequence[str], *, counted: str | None = None) -> None:
    """Write the fields ``names`` of the saved ``instance`` (``UPDATE ... WHERE pk``), as
    ``instance.save(update_fields=names)`` would; :class:`DatabaseError` when no row has its primary key.
    ``counted``: a field the same statement moves on by one in the database (``update(counted=F(counted) + 1)``); the
    instance's value of it is neither read nor changed."""
    model = type(instance)
    alias = router.db_for_write(model, instance=instance)
    connection = connections[alias]
    sql, fields = _update_statement(model, alias, tuple(names), counted)
    with connection.cursor() as cursor:
        cursor.execute(sql, [*_update_parameters(instance, fields, connection), instance.pk])
        if cursor.rowcount != 1:
            raise DatabaseError(f"{model.__name__} {instance.pk} was not updated (no such row)")


def rows_update(instances: Sequence[Model], names: Sequence[str]) -> None:
    """Write the fields ``names`` of the saved ``instances`` (all of one model) in one statement, as ``bulk_update``
    would (``UPDATE ... FROM (VALUES ...)`` joined on the primary key); nothing to do for no instances.
    :class:`DatabaseError` when not every instance's row was updated."""
    if not instances:
        return
    model = type(instances[0])
    if any(type(instance) is not model or instance.pk is None for instance in instances):
        raise ValueError("rows_update takes saved instances of one model")
    alias = router.db_for_write(model)
    connection = connections[alias]
    key = (model, alias, len(instances), tuple(names))
    statement = _rows_update_statements.get(key)
    if statement is None:
        quote = connection.ops.quote_name
        _sql, fields = _update_statement(model, alias, tuple(names))
        primary_key: Any = model._meta.pk
        typed = [primary_key, *fields]
        first_row = "(" + ", ".join(f"%s::{field.cast_db_type(connection)}" for field in typed) + ")"
        other_rows = "(" + ", ".join(["%s"] * len(typed)) + ")"
        table = quote(model._meta.db_table)
        sql = (
            f"UPDATE {table} SET "
            + ", ".join(f"{quote(_column(field))} = changed.{quote(_column(field))}" for field in fields)
            + f" FROM (VALUES {', '.join([first_row] + [other_rows] * (len(instances) - 1))})"
            + f" AS changed ({', '.join(quote(_column(field)) for field in typed)})"
            + f" WHERE {table}.{quote(_column(primary_key))} = changed.{quote(_column(primary_key))}"
        )
        statement = _rows_update_statements[key] = (sql, fields)
    sql, fields = statement
    parameters: list[Any] = []
    for instance in instances:
        parameters.append(instance.pk)
        parameters.extend(_update_parameters(instance, fields, connection))
    with connection.cursor() as cursor:
        cursor.execute(sql, parameters)
        if cursor.rowcount != len(instances):
            raise DatabaseError(f"{cursor.rowcount} of {len(instances)} {model.__name__} rows were updated")


@functools.cache
def _inserted_fields(model: type[Model]) -> tuple[Any, ...]:
    """The fields an INSERT of ``model`` writes: every concrete field but the key (the database gives it)."""
    return tuple(field for field in model._meta.concrete_fields if not field.primary_key)


def _insert_sql(model: type[Model], alias: str, rows: int) -> tuple[str, tuple[Any, ...]]:
    """``INSERT INTO table (every column but the key) VALUES (...) x rows`` and those columns' fields."""
    quote = connections[alias].ops.quote_name
    fields = _inserted_fields(model)
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(_column(field)) for field in fields)}) "
        f"VALUES {', '.join([row] * rows)}"
    )
    return sql, fields


def _insert_many_sql(model: type[Model], alias: str) -> tuple[str, tuple[Any, ...]]:
    """``INSERT INTO table (every column but the key) SELECT ... FROM unnest(one array per column) WITH ORDINALITY``
    in the arrays' order, and those columns' fields: one statement text whatever the number of rows.

    For inserts past :data:`PSYCOPG_CACHED_PARAMETERS` (a hand's events): ``VALUES`` x rows is a new text with every
    row count, parsed again in Python at every execution and planned again by PostgreSQL; this one is parsed once,
    prepared once on each connection, and takes the rows as a few arrays. Smaller inserts keep ``VALUES``: dumping
    arrays costs more than a cached parse (a hand's six players went in 0.4-0.6 ms slower as arrays).

    The arrays go in PostgreSQL's binary format (``%b``): psycopg's text format escapes every element through a
    regular expression (a hand's JSON payloads above all), about three times the binary format's cost (25 events:
    1.6-1.7 ms of CPU against 0.4-0.5 ms)."""
    connection = connections[alias]
    quote = connection.ops.quote_name
    fields = _inserted_fields(model)
    types = [str(field.cast_db_type(connection)) for field in fields]
    if any(type_.endswith("]") for type_ in types):
        raise ValueError(f"{model.__name__} has an array column: unnest would flatten it")
    columns = ", ".join(quote(_column(field)) for field in fields)
    values = [f"value_{index}" for index in range(len(fields))]
    arrays = ", ".join(f"%b::{type_}[]" for type_ in types)
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)} ({columns}) "
        f"SELECT {', '.join(values)} FROM unnest({arrays}) WITH ORDINALITY AS new_rows({', '.join(values)}, ordinal) "
        "ORDER BY ordinal"
    )
    return sql, fields


def row_insert_unless_taken(instance: Model) -> bool:
    """INSERT the new ``instance`` unless a row already holds one of its unique values (``ON CONFLICT DO NOTHING``):
    True, with its primary key set, when it was inserted; False, and the instance unchanged, when the row was there.
    One statement where ``get_or_create`` after a failed read takes a savepoint, a second read and the INSERT."""
    model = type(instance)
    if instance.pk is not None:
        raise ValueError("row_insert_unless_taken takes a new instance")
    alias = router.db_for_write(model)
    connection = connections[alias]
    statement = _insert_unless_taken_statements.get((model, alias))
    if statement is None:
        sql, fields = _insert_sql(model, alias, 1)
        quote = connection.ops.quote_name
        statement = _insert_unless_taken_statements[(model, alias)] = (
            f"{sql} ON CONFLICT DO NOTHING RETURNING {quote(_column(model._meta.pk))}",
            fields,
        )
    sql, fields = statement
    parameters = [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, parameters)
        row = cursor.fetchone()
    if row is None:
        return False
    instance.pk = row[0]
    instance._state.adding = False
    instance._state.db = alias
    return True


def rows_insert(instances: Sequence[Model], *, also_update: tuple[Model, Sequence[str]] | None = None) -> None:
    """INSERT the new ``instances`` (all of one model, primary keys unset) in one statement, as ``bulk_create`` would,
    and set their primary keys from the database (in order).

    ``also_update=(instance, names)``: the same statement also writes those fields of that saved instance (a
    data-modifying ``WITH``), one round trip instead of two; the row must exist (the caller holds it locked)."""
    if not instances:
        raise ValueError("nothing to insert")
    model = type(instances[0])
    if any(type(instance) is not model or instance.pk is not None for instance in instances):
        raise ValueError("rows_insert takes new instances of one model")
    alias = router.db_for_write(model)
    connection = connections[alias]
    parameters: list[Any] = []
    update_sql = ""
    if also_update is not None:
        updated, names = also_update
        update_sql, update_fields = _update_statement(type(updated), alias, tuple(names))
        parameters.extend([*_update_parameters(updated, update_fields, connection), updated.pk])
    many = len(instances) * len(_inserted_fields(model)) > PSYCOPG_CACHED_PARAMETERS
    key = (model, alias, 0 if many else len(instances), update_sql)
    statement = _insert_statements.get(key)
    if statement is None:
        sql, fields = _insert_many_sql(model, alias) if many else _insert_sql(model, alias, len(instances))
        sql = f"{sql} RETURNING {connection.ops.quote_name(_column(model._meta.pk))}"
        if update_sql:
            sql = f"WITH updated AS ({update_sql}) {sql}"
        statement = _insert_statements[key] = (sql, fields)
    sql, fields = statement
    rows = [
        [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields]
        for instance in instances
    ]
    if many:
        parameters.extend(list(column) for column in zip(*rows, strict=True))
    else:
        parameters.extend(value for row in rows for value in row)
    with connection.cursor() as cursor:
        cursor.execute(sql, parameters)
        # The keys come from the table's sequence as the rows go in, in the arrays' order: ascending keys are the
        # instances' keys in order, whatever order RETURNING lists them in.
        keys = sorted(row[0] for row in cursor.fetchall())
    for instance, primary_key in zip(instances, keys, strict=True):
        instance.pk = primary_key
        instance._state.adding = False
        instance._state.db = alias
