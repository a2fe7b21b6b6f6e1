"""The test database's sessions commit without waiting for the WAL flush (tests/conftest.py
``commits_do_not_wait_for_the_disk``): a database default, so the test's own connection and every process a live test
starts have it; commits stay atomic and visible to other sessions at once."""

from __future__ import annotations

import pytest
from django.db import connection


@pytest.mark.django_db
def test_the_test_connection_commits_without_waiting_for_the_disk() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone() == ("off",)


@pytest.mark.django_db
def test_a_new_session_on_the_test_database_gets_the_same_default() -> None:
    import psycopg

    settings = connection.settings_dict
    with psycopg.connect(
        dbname=settings["NAME"],
        user=settings["USER"],
        password=settings["PASSWORD"] or None,
        host=settings["HOST"],
        port=settings["PORT"] or 5432,
    ) as other:
        assert other.execute("SHOW synchronous_commit").fetchone() == ("off",)
