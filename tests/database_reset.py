"""Emptying the test database after a transactional test, in a fraction of the time of Django's flush (issue 26).

Django's flush (``TransactionTestCase``'s teardown) truncates every table of the project, 86, in one statement, then
runs ``post_migrate`` again (content types, permissions, the role groups, the compliance settings), and the test suite
then seeds the catalogue rows the data migrations stored (stakes, HexaPro products). Under load that took 10-25 s a
test, most of it spent on tables the test never wrote to and on rebuilding rows it never changed.

:class:`DatabaseReset` reaches the same state, a database as a full flush and the seeds leave it, by other means:

- The first reset on a worker is the full one (flush, ``post_migrate``, seeds). It records a fingerprint (an md5 of
  all rows) of every table that then holds rows: the *baseline*.
- Every later reset truncates, in one statement, only the tables that hold rows now and are not baseline tables, and
  then compares the baseline tables' fingerprints. If one differs (a test changed a permission, a stake, a setting; or
  a truncation cascaded into one), it falls back to the full reset, which records a new baseline.

Tables that were empty are left alone, baseline tables the test did not change too, so the database ends exactly as
the full reset would leave it: the same rows in the baseline tables (byte for byte), every other table empty; and the
same sequences (neither resets them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import connections, transaction


def _tables(alias: str) -> list[str]:
    """The tables Django's flush empties: the installed models' tables that exist."""
    introspection = connections[alias].introspection
    return sorted(introspection.django_table_names(only_existing=True, include_views=False))


def _filled(cursor: Any, quote: Callable[[str], str], tables: list[str]) -> set[str]:
    if not tables:
        return set()
    cursor.execute(
        " UNION ALL ".join(f"SELECT %s WHERE EXISTS (SELECT 1 FROM {quote(table)})" for table in tables), tables
    )
    return {row[0] for row in cursor.fetchall()}


def _fingerprints(cursor: Any, quote: Callable[[str], str], tables: list[str]) -> dict[str, str]:
    if not tables:
        return {}
    cursor.execute(
        " UNION ALL ".join(
            f"SELECT %s, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) FROM {quote(table)} x"
            for table in tables
        ),
        tables,
    )
    return {table: digest for table, digest in cursor.fetchall()}


class DatabaseReset:
    """The reset of one worker's test database after each transactional test (see the module docstring)."""

    def __init__(self, full_reset: Callable[[Any], None]) -> None:
        self.full_reset = full_reset
        self.baselines: dict[str, dict[str, str]] = {}  # alias -> table -> fingerprint, after the last full reset
        self.tables: dict[str, list[str]] = {}

    def __call__(self, test_case: Any) -> None:
        aliases = list(test_case._databases_names(include_mirrors=False))
        plain = test_case.available_apps is None and not test_case.serialized_rollback and not test_case.reset_sequences
        recorded = plain and all(alias in self.baselines for alias in aliases)
        if recorded and all(self.empty_what_the_test_filled(alias) for alias in aliases):
            return
        self.full_reset(test_case)
        if plain:
            for alias in aliases:
                self.record_baseline(alias)
        else:
            self.baselines.clear()

    def record_baseline(self, alias: str) -> None:
        connection = connections[alias]
        self.tables[alias] = tables = _tables(alias)
        with connection.cursor() as cursor:
            filled = sorted(_filled(cursor, connection.ops.quote_name, tables))
            self.baselines[alias] = _fingerprints(cursor, connection.ops.quote_name, filled)

    def empty_what_the_test_filled(self, alias: str) -> bool:
        """Truncate the non-baseline tables that hold rows; True when the baseline tables are as recorded."""
        connection = connections[alias]
        quote = connection.ops.quote_name
        baseline = self.baselines[alias]
        with transaction.atomic(using=alias), connection.cursor() as cursor:
            stale = sorted(_filled(cursor, quote, self.tables[alias]) - baseline.keys())
            if stale:
                # CASCADE: a table that references one of these is emptied too, whether or not it had rows (the flush
                # empties it as well); one reaching a baseline table shows in its fingerprint below.
                cursor.execute(f"TRUNCATE {', '.join(quote(table) for table in stale)} CASCADE")
            unchanged = _fingerprints(cursor, quote, sorted(baseline)) == baseline
        if not unchanged:
            del self.baselines[alias]
        return unchanged
