"""ORM queries compiled once and run many times with new values: the ticker's polls, and readings every page or
socket makes (the player socket's ``hello``).

The ticker asks the same few questions several times a second ("which action clocks have run out by now?", "which
rounds' betting time is over?"). Building each answer's SQL from its queryset (the ORM's compiler) cost more CPU than
PostgreSQL spent answering it: about 5 ms of the ticker's CPU per idle tick for 8 polls, 2 % of a core at the
production interval of 0.25 s, and the live sites of the test suite run one ticker each (issue 26).

:class:`PreparedQuery` builds the queryset once with a stand-in for each variable value, compiles it, and records
where each stand-in sits among the compiled parameters. A run binds the real values at those places and executes the
same SQL: exactly the statement the ORM would have built, since the SQL's shape never depends on the values of these
parameters (a comparison with a datetime compiles to the same text whatever the datetime).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import connections
from django.db.models import QuerySet

_STAND_IN_ORIGIN = datetime(1901, 2, 3, 4, 5, 6, tzinfo=UTC)
_NUMBER_STAND_IN = -(2**31) + 104_729
"""The first stand-in of a number variable (negative: no id, count or amount a query is asked with looks like it)."""


class PreparedQuery:
    """A queryset with variable datetimes, compiled on first use (``build(**stand_ins)``), run with ``rows(**values)``.

    ``build`` takes keyword arguments, one per variable (each a datetime, or an int for those named in ``numbers``),
    and returns a queryset of ``values_list`` rows. Every stand-in must appear among the compiled parameters (else the
    query does not depend on it, or compiles it into the SQL text, and cannot be prepared: ``ValueError``); a constant
    that equals a stand-in cannot occur (the stand-ins are dates in 1901 and negative numbers near -2**31)."""

    def __init__(
        self,
        build: Callable[..., QuerySet[Any]],
        variables: Sequence[str],
        *,
        numbers: Sequence[str] = (),
        using: str = "default",
    ):
        self.build = build
        self.variables = tuple(variables) + tuple(numbers)
        self.numbers = frozenset(numbers)
        self.using = using
        self.compiled: tuple[str, list[Any], list[tuple[int, str]]] | None = None

    def _compile(self) -> tuple[str, list[Any], list[tuple[int, str]]]:
        stand_ins: dict[str, datetime | int] = {
            name: _NUMBER_STAND_IN + index if name in self.numbers else _STAND_IN_ORIGIN + timedelta(seconds=index)
            for index, name in enumerate(self.variables)
        }
        queryset = self.build(**stand_ins)
        compiler = queryset.query.get_compiler(using=self.using)
        sql, params = compiler.as_sql()
        by_value = {value: name for name, value in stand_ins.items()}
        places = [
            (index, by_value[param])
            for index, param in enumerate(params)
            if isinstance(param, datetime | int) and not isinstance(param, bool) and param in by_value
        ]
        missing = set(self.variables) - {name for _index, name in places}
        if missing:
            raise ValueError(f"the prepared query does not take {sorted(missing)} as parameters: {sql}")
        return sql, list(params), places

    def statement(self, **values: datetime | int) -> tuple[str, list[Any]]:
        """The SQL and its parameters with ``values`` bound: what the ORM compiles from ``build(**values)``."""
        if self.compiled is None:
            self.compiled = self._compile()
        sql, params, places = self.compiled
        bound = list(params)
        for index, name in places:
            bound[index] = values[name]
        return sql, bound

    def rows(self, **values: datetime | int) -> list[tuple[Any, ...]]:
        """Run the query with ``values`` for its variables; its rows as tuples."""
        sql, params = self.statement(**values)
        with connections[self.using].cursor() as cursor:
            cursor.execute(sql, params)
            return list(cursor.fetchall())
