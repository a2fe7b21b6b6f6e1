"""Emptying the test database after a transactional test, in a fraction of the time of Django's flush (issue 26).

Django's flush (``TransactionTestCase``'s teardown) truncates every table of the project, 86, in one statement, then
runs ``post_migrate`` again (content types, permissions, the role groups, the compliance settings), and the test suite
then seeds the catalogue rows the data migrations stored (stakes, HexaPro products). Under load that took 10-25 s a
test, most of it spent on tables the test never wrote to and on rebuilding rows it never changed.

:class:`DatabaseReset` reaches the same state, a database as a full flush and the seeds leave it, by other means:

- The first reset on a worker is the full one (flush, ``post_migrate``, seeds). It records a fingerprint (an md5 of
  all rows) of every table that then holds rows: the *baseline*.
- Every later reset truncates, in one statement, only the tables that hold rows now and are not baseline tables, and
  then compares the baseline tables' fingerprints. The first full reset also keeps a copy of every baseline table (in
  the schema ``test_reset_baseline`` of the worker's database, which Django's table list never shows). A baseline
  table whose fingerprint differs (a test added game rules, changed a permission, a stake or a setting; or a
  truncation cascaded into it) is put back from its copy: its rows deleted and the copy's inserted, with the
  database's triggers and foreign-key checks off for that transaction (``session_replication_role = replica``, as a
  restore does), so no trigger moves a version on and no delete cascades. The fingerprints are compared once more;
  only if they still differ (or the database user may not switch triggers off) does it fall back to the full reset,
  which records a new baseline.

Tables that were empty are left alone, baseline tables the test did not change too, so the database ends exactly as
the full reset would leave it: the same rows in the baseline tables (byte for byte), every other table empty; and the
same sequences (neither resets them). Before the copies, every browser test fell back to the full reset (its table's
rules are a new ``GameRules`` row): 3-6 s of each such test's teardown, against well under a second now.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import connections, transaction

BASELINE_SCHEMA = "test_reset_baseline"
"""Where the copies of the baseline tables are kept (in each worker's own test database)."""


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

    def __init__(self, full_reset: Callable[[Any], None], schema: str = BASELINE_SCHEMA) -> None:
        self.full_reset = full_reset
        self.schema = schema  # where the copies of the baseline tables are kept
        self.baselines: dict[str, dict[str, str]] = {}  # alias -> table -> fingerprint, after the last full reset
        self.tables: dict[str, list[str]] = {}
        self.restorable: dict[str, bool] = {}  # alias -> the baseline tables have copies the reset may restore

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
        """Fingerprint the tables that hold rows after a full reset and keep a copy of each (when the database user
        may restore them with triggers off: a superuser, as the test databases' user is here and in CI)."""
        connection = connections[alias]
        quote = connection.ops.quote_name
        self.tables[alias] = tables = _tables(alias)
        with transaction.atomic(using=alias), connection.cursor() as cursor:
            filled = sorted(_filled(cursor, quote, tables))
            self.baselines[alias] = _fingerprints(cursor, quote, filled)
            cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
            (superuser,) = cursor.fetchone()
            self.restorable[alias] = bool(superuser)
            if superuser:
                cursor.execute(f"DROP SCHEMA IF EXISTS {quote(self.schema)} CASCADE")
                cursor.execute(f"CREATE SCHEMA {quote(self.schema)}")
                for table in filled:
                    cursor.execute(f"CREATE TABLE {quote(self.schema)}.{quote(table)} AS TABLE {quote(table)}")

    def empty_what_the_test_filled(self, alias: str) -> bool:
        """Truncate the non-baseline tables that hold rows; True when the baseline tables are as recorded."""
        connection = connections[alias]
        quote = connection.ops.quote_name
        baseline = self.baselines[alias]
        with transaction.atomic(using=alias), connection.cursor() as cursor:
            stale = sorted(_filled(cursor, quote, self.tables[alias]) - baseline.keys())
            if stale and self.restorable.get(alias):
                self.delete_rows(cursor, quote, stale)
            elif stale:
                # CASCADE: a table that references one of these is emptied too, whether or not it had rows (the flush
                # empties it as well); one reaching a baseline table shows in its fingerprint below.
                cursor.execute(f"TRUNCATE {', '.join(quote(table) for table in stale)} CASCADE")
            changed = sorted(
                table
                for table, digest in _fingerprints(cursor, quote, sorted(baseline)).items()
                if digest != baseline[table]
            )
            if changed and self.restorable.get(alias):
                self.restore(cursor, quote, changed)
                restored = _fingerprints(cursor, quote, changed)
                changed = [table for table in changed if restored[table] != baseline[table]]
            unchanged = not changed
        if not unchanged:
            del self.baselines[alias]
        return unchanged

    def restore(self, cursor: Any, quote: Callable[[str], str], tables: list[str]) -> None:
        """Put ``tables`` back as their copies hold them, inside the caller's transaction. Replica mode (for this
        transaction only) keeps triggers and foreign-key actions from firing: the rows are restored as they were, and
        a delete cascades nowhere (the copies' references are to other baseline rows, restored alike)."""
        cursor.execute("SET LOCAL session_replication_role = replica")
        for table in tables:
            cursor.execute(f"DELETE FROM {quote(table)}")
            cursor.execute(f"INSERT INTO {quote(table)} SELECT * FROM {quote(self.schema)}.{quote(table)}")
        cursor.execute("SET LOCAL session_replication_role = DEFAULT")

    @staticmethod
    def delete_rows(cursor: Any, quote: Callable[[str], str], tables: list[str]) -> None:
        """Delete every row of ``tables``, triggers and foreign-key checks off (replica mode, this transaction only).

        Faster than ``TRUNCATE`` for the few rows a test writes: a delete takes no exclusive lock, so it does not wait
        for the live site's processes to finish their transactions on these tables, and creates no new files. Without
        cascades a row of another table could still refer to a deleted one only if that table is a baseline table the
        test changed (the others that hold rows are among ``tables``; a baseline row refers only to baseline rows), and
        the fingerprints then restore it."""
        cursor.execute("SET LOCAL session_replication_role = replica")
        for table in tables:
            cursor.execute(f"DELETE FROM {quote(table)}")
        cursor.execute("SET LOCAL session_replication_role = DEFAULT")
