"""Test-wide set-up: every pytest run gets its own test database and Redis key prefix.

Several runs may share one PostgreSQL and Redis (developers in parallel, CI beside a running site),
so names carry the process id. The launcher (``make test``) provides DATABASE_URL and REDIS_URL.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

import pytest

from poker_site.core.garbage_collection import garbage_collection_tune


@pytest.fixture(autouse=True)
def every_test_starts_in_english() -> Iterator[None]:
    """A request in Estonian leaves Estonian active in the thread (the locale middleware does not switch back), and
    so does a test that activates it: each test starts, and leaves, in the site's default language."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(scope="session")
def django_db_modify_db_settings() -> None:
    from django.conf import settings

    settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = f"test_poker_{os.getpid()}"
    # The test process connects without the pool (pytest-django reads the settings before this file sets
    # ENVIRONMENT=test, so they may have one): Django's test database set-up and the socket tests' worker threads
    # keep their plain connections. The site processes the tests start (tests/realtime/live_site.py) use the pool.
    settings.DATABASES["default"]["OPTIONS"].pop("pool", None)


TEMPLATE_DATABASE_VARIABLE = "POKER_TEST_TEMPLATE_DATABASE"
"""Under pytest-xdist the controller names a template database here; the first worker migrates it, and every worker
clones its own ``test_poker_<pid>`` from it (``CREATE DATABASE ... TEMPLATE``), instead of each running every
migration at once on the same cores."""


def pytest_configure(config: pytest.Config) -> None:
    """An xdist controller names a template for its workers, unless it runs inside a worker of another run that
    already has one (tests/foundation/test_each_test_worker_has_its_own_database_and_redis_prefix.py starts such a
    run): its workers then clone that migrated template instead of migrating a new one. The template's owner, the
    outer controller, drops it (``pytest_unconfigure`` compares the process id in the name)."""
    runs_workers = getattr(config.option, "dist", "no") != "no" and getattr(config.option, "numprocesses", 0)
    if runs_workers and not os.environ.get("PYTEST_XDIST_WORKER") and not os.environ.get(TEMPLATE_DATABASE_VARIABLE):
        os.environ[TEMPLATE_DATABASE_VARIABLE] = f"test_poker_template_{os.getpid()}"


def pytest_unconfigure(config: pytest.Config) -> None:
    """The controller drops the workers' template (they have dropped their own databases)."""
    template = os.environ.get(TEMPLATE_DATABASE_VARIABLE)
    if not template or os.environ.get("PYTEST_XDIST_WORKER") or template != f"test_poker_template_{os.getpid()}":
        return
    import psycopg
    from django.db import connection

    parameters = connection.get_connection_params()
    parameters["dbname"] = "postgres"
    with psycopg.connect(**parameters, autocommit=True) as maintenance:
        maintenance.execute(f'DROP DATABASE IF EXISTS "{template}" WITH (FORCE)')


def clone_the_test_database_from_the_template(template: str, verbosity: int) -> None:
    """Create this worker's test database as a copy of ``template``, migrating the template first if no worker has
    yet (an advisory lock makes the others wait for it, and serialises the copies: PostgreSQL refuses to copy a
    database that a session is connected to)."""
    from django.conf import settings
    from django.db import connection

    settings_dict = connection.settings_dict
    name, test_name = settings_dict["NAME"], settings_dict["TEST"]["NAME"]
    with connection._nodb_cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(hashtext(%s))", [template])
        try:
            cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [template])
            if cursor.fetchone() is None:
                settings_dict["TEST"]["NAME"] = template
                try:
                    connection.creation.create_test_db(verbosity=verbosity, autoclobber=True, serialize=False)
                finally:
                    connection.close()
                    settings.DATABASES[connection.alias]["NAME"] = settings_dict["NAME"] = name
                    settings_dict["TEST"]["NAME"] = test_name
            cursor.execute(f'DROP DATABASE IF EXISTS "{test_name}"')
            cursor.execute(f'CREATE DATABASE "{test_name}" TEMPLATE "{template}"')
        finally:
            cursor.execute("SELECT pg_advisory_unlock(hashtext(%s))", [template])


def commits_do_not_wait_for_the_disk() -> None:
    """Every later session on the test database commits without waiting for its WAL to reach the disk
    (``synchronous_commit = off``, a database default, so the live sites' processes get it too).

    A commit is still atomic and visible to every other session at once; only a crash of the PostgreSQL server itself
    could lose the last fraction of a second of commits, which no test does. The suite commits tens of thousands of
    times (transactional tests, the services' durable transactions, each truncate between tests), and waiting for the
    flush of each was a tenth of the run in I/O wait."""
    from django.db import connection

    name = connection.settings_dict["NAME"]
    with connection._nodb_cursor() as cursor:
        cursor.execute(f'ALTER DATABASE "{name}" SET synchronous_commit TO off')
    connection.close()  # the next connection starts with the new default


@pytest.fixture(scope="session")
def django_db_setup(
    request: pytest.FixtureRequest,
    django_test_environment: None,
    django_db_blocker: Any,
    django_db_modify_db_settings: None,
) -> Iterator[None]:
    """The test database (pytest-django's set-up, cloned from the template under xdist), whose drop at the end of the
    run no longer fails for connections left open.

    Socket tests run their database calls in the worker threads of an event loop made for the test; those threads'
    connections stay open after the loop closes, so the DROP DATABASE at the end of the run was refused ("being
    accessed by other users") and the ``test_poker_<pid>`` database stayed on the server. Before it is dropped, this
    run's other sessions on its own test database are ended."""
    from django.test.utils import setup_databases, teardown_databases
    from pytest_django.fixtures import _get_databases_for_setup

    verbosity = request.config.option.verbose
    aliases, serialized_aliases = _get_databases_for_setup(request.session.items)
    template = os.environ.get(TEMPLATE_DATABASE_VARIABLE)
    with django_db_blocker.unblock():
        if template:
            clone_the_test_database_from_the_template(template, verbosity)
        # keepdb: the clone is complete (its migrate finds nothing to apply); teardown still drops it.
        configuration = setup_databases(
            verbosity=verbosity,
            interactive=False,
            aliases=aliases,
            serialized_aliases=serialized_aliases,
            keepdb=bool(template),
        )
        commits_do_not_wait_for_the_disk()
    yield
    with django_db_blocker.unblock():
        end_other_sessions_of_the_test_database()
        teardown_databases(configuration, verbosity=verbosity)


@pytest.fixture(scope="session", autouse=True)
def flushes_leave_the_migrations_catalog_rows() -> Iterator[None]:
    """After a transactional test empties the database (Django's flush), the rows the data migrations seeded (the
    cash-game catalogue, ``games`` 0003; the HexaPro products, ``tournaments`` 0005) are stored again, so the next test
    starts from the migrated database whichever tests ran before it on its worker. Without it a test that reads them
    passed or failed with the order (under xdist: with the files its worker happened to run first).

    The flush and the seeds are the full reset; :class:`tests.database_reset.DatabaseReset` reaches the same database
    in a fraction of the time whenever the test left the rows they store unchanged (issue 26)."""
    from django.test import TransactionTestCase

    from tests.database_reset import DatabaseReset

    original = TransactionTestCase._fixture_teardown

    def flush_and_seed(test_case: TransactionTestCase) -> None:
        original(test_case)
        from games.services import seed_stakes
        from tournaments.hexapro.products import hexapro_products_seed

        seed_stakes()
        hexapro_products_seed()

    reset = DatabaseReset(flush_and_seed)

    def fixture_teardown(test_case: TransactionTestCase) -> None:
        reset(test_case)

    TransactionTestCase._fixture_teardown = fixture_teardown  # type: ignore[method-assign]
    try:
        yield
    finally:
        TransactionTestCase._fixture_teardown = original  # type: ignore[method-assign]


def end_other_sessions_of_the_test_database() -> None:
    from django.db import connection

    if not str(connection.settings_dict["NAME"]).startswith("test_poker_"):
        return  # never end sessions of a database this run did not create
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def site_database_url() -> str:
    """A DATABASE_URL for the test database, for site processes the tests start (TCP or a socket directory)."""
    from urllib.parse import quote

    from django.db import connection

    database = connection.settings_dict
    credentials = quote(str(database.get("USER") or "postgres"))
    if database.get("PASSWORD"):
        credentials += ":" + quote(str(database["PASSWORD"]))
    host = str(database.get("HOST") or "127.0.0.1")
    if host.startswith("/"):
        return f"postgresql://{credentials}@/{quote(str(database['NAME']))}?host={quote(host)}"
    return f"postgresql://{credentials}@{host}:{database.get('PORT') or 5432}/{quote(str(database['NAME']))}"


def delete_redis_keys_of_this_run(*, keeping: tuple[str, ...] = ()) -> None:
    """Delete this run's keys only (this xdist worker's); FLUSHDB would also wipe other runs and a running site. Every
    key is ``<prefix>:...``, and the colon keeps worker ``gw1`` off the keys of ``gw10``. ``keeping``: glob patterns
    of the part after ``<prefix>:`` whose keys stay (state a running site process keeps using across tests)."""
    from fnmatch import fnmatchcase

    import redis
    from django.conf import settings

    prefix = f"{settings.REDIS_KEY_PREFIX}:"
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        keys = [
            key
            for key in client.scan_iter(match=f"{prefix}*", count=1000)
            if not any(fnmatchcase(key.decode()[len(prefix) :], pattern) for pattern in keeping)
        ]
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@pytest.fixture
def clean_cache() -> Iterator[None]:
    """An empty cache namespace for the test (log-in counters and throttles live there)."""
    delete_redis_keys_of_this_run()
    yield
    delete_redis_keys_of_this_run()


LIVE_SITE_HELPERS = "tests.realtime.live_site"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``live`` the tests that start site processes (daphne, the ticker, Celery) or drive Chromium: every test
    under a ``browser`` folder, and every test of a module that uses the live-site helpers of
    ``tests/realtime/live_site.py``; a test that starts such processes itself is marked ``live`` in its module
    (tests/foundation/test_run_command.py, the Celery worker tests of test_healthz.py). ``make test-fast`` runs the
    others (``-m "not live"``); ``make test`` runs all.

    The files with a ``slow`` test that touch no database run first (the exact UTH count, the pokerkit comparisons:
    CPU work that overlaps the first worker's migration of the template database, which the other workers wait for
    before their first database test), then the live tests, then the other files with a ``slow`` test (simulations,
    subprocesses), then the rest, each group in collection order: under xdist (``make test`` passes
    ``--no-loadscope-reorder``, keeping this order) the long files start at once on every worker and the short tests
    fill in around them, instead of one long file (the UTH ledger simulation, 2 minutes, in tests/uth near the end of
    the collection) starting last and the run waiting for it alone (issue 26)."""
    live = pytest.mark.live
    slow_files: set[Any] = set()
    database_files: set[Any] = set()
    for item in items:
        module = getattr(item, "module", None)
        uses_live_helpers = module is not None and any(
            getattr(value, "__module__", None) == LIVE_SITE_HELPERS for value in vars(module).values()
        )
        if "browser" in item.path.parts or uses_live_helpers:
            item.add_marker(live)
        if item.get_closest_marker("slow") is not None:
            slow_files.add(item.path)
        if item.get_closest_marker("live") is not None or _needs_the_database(item):
            database_files.add(item.path)

    def group(item: pytest.Item) -> int:
        if item.path in slow_files and item.path not in database_files:
            return 0
        if item.get_closest_marker("live") is not None:
            return 1
        return 2 if item.path in slow_files else 3

    items.sort(key=group)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Tune the collector as the site's server is tuned (:mod:`poker_site.core.garbage_collection`): freeze Django and
    the collected tests, collect the young generation less often. Full collections walked every collected test and
    module again and again: a tenth of the CPU of the database tests (tests/tournaments: 10.0 s of 98 s in 9,352
    collections; tuned, 3.7 s in 3,037)."""
    garbage_collection_tune()


DATABASE_FIXTURES = frozenset({"db", "transactional_db", "django_db_setup"})


def _needs_the_database(item: pytest.Item) -> bool:
    """Whether ``item`` asks for the test database: a ``django_db`` mark, or a fixture that (through any other fixture)
    uses one of pytest-django's database fixtures."""
    fixture_names = getattr(item, "fixturenames", ())
    return item.get_closest_marker("django_db") is not None or not DATABASE_FIXTURES.isdisjoint(fixture_names)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Note where each live site's log stands when a test starts: a failure shows what the site logged meanwhile."""
    for site in _live_sites_of(item):
        item.stash.setdefault(_LOG_OFFSETS, {})[site.log_path] = _size_of(site.log_path)
        item.stash.setdefault(_SITES, {})[site.log_path] = site  # a site is often two fixtures (site, live_site)
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A failed test that used a live site (browser and live-site tests) carries the lines its site processes logged
    while it ran: in CI the log files are gone with the machine, and a refusal or traceback there is often the cause."""
    outcome = yield
    report = outcome.get_result()
    if call.when != "call" or not report.failed:
        return
    for site in item.stash.get(_SITES, {}).values():
        states = [
            f"{' '.join(str(part) for part in process.args[-3:])}: "
            + ("running" if process.poll() is None else f"EXITED with {process.returncode}")
            for process in site.processes
        ]
        report.sections.append((f"live site processes ({site.log_path.name})", "\n".join(states)))
    for path, offset in item.stash.get(_LOG_OFFSETS, {}).items():
        with open(path, "rb") as log:
            log.seek(offset)
            written = log.read().decode("utf-8", "replace")
        report.sections.append((f"live site log ({path.name}) during the test", log_worth_reading(written)))


def log_worth_reading(written: str) -> str:
    """What a site logged, without the access-log lines of answered requests (a page polling every few seconds
    buries the warnings and tracebacks under them), cut to its last ``_LOG_SHOWN_CHARACTERS``."""
    lines = written.splitlines()
    kept = [line for line in lines if not _ANSWERED_REQUEST.search(line)]
    if len(kept) < len(lines):
        kept.append(f"({len(lines) - len(kept)} access-log lines of answered requests left out)")
    shown = "\n".join(kept)
    if len(shown) > _LOG_SHOWN_CHARACTERS:
        shown = "[...]\n" + shown[-_LOG_SHOWN_CHARACTERS:]
    return shown or "(nothing logged)"


_LOG_OFFSETS = pytest.StashKey[dict[Any, int]]()
_SITES = pytest.StashKey[dict[Any, Any]]()
_LOG_SHOWN_CHARACTERS = 12_000
_ANSWERED_REQUEST = re.compile(r'\] "[A-Z]+ [^"]*" [123]\d\d \d+$')


def _live_sites_of(item: pytest.Item) -> list[Any]:
    arguments = getattr(item, "funcargs", {})
    return [value for value in arguments.values() if hasattr(value, "log_path") and hasattr(value, "processes")]


def _size_of(path: Any) -> int:
    try:
        return int(os.path.getsize(path))
    except OSError:
        return 0
