"""End-to-end tests in headless Debian Chromium against a live site (daphne, the deadline ticker and one ``run_tables``
owning the tables, issue 27, in subprocesses).

The site processes use this run's test database and Redis key prefix, so what the browser does is committed there and
the tests read the ledger directly afterwards (tests use ``transactional_db``: the data must be committed to be seen by
the other processes). Screenshots go to ``test-artifacts/`` (gitignored).

Chromium: Debian's packages (Playwright cannot download browsers here). ``/usr/bin/chromium-headless-shell`` (package
``chromium-headless-shell``, the same Chromium build as ``chromium``) when it is installed, as Playwright itself runs
headless Chromium; otherwise ``/usr/bin/chromium`` in its ``--headless=new`` mode. Both render with the same Blink; the
shell leaves out the full browser's windowing and UI, and ran the browser tests on half the CPU (issue 26: 15 against
32 CPU seconds for ten tests, which was two fifths of the whole suite's browser CPU). Without either the tests are
skipped with a reason, except in CI (``CI`` set), where a missing browser is an error: ``.ci/run`` installs both.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from poker_site.launcher import listening_socket, web_server_command
from tests.conftest import delete_redis_keys_of_this_run, site_database_url

PROJECT = Path(__file__).resolve().parents[2]
ARTIFACTS = PROJECT / "test-artifacts"
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
FULL_CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM = HEADLESS_SHELL if HEADLESS_SHELL.exists() else FULL_CHROMIUM
CHROMIUM_ARGUMENTS = [
    *([] if CHROMIUM == HEADLESS_SHELL else ["--headless=new"]),  # the shell is headless only
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
IN_CI = bool(os.environ.get("CI"))
MISSING_CHROMIUM = "CI must run the browser tests: install Debian chromium (.ci/run runs apt-get install -y chromium)"

requires_chromium = pytest.mark.skipif(
    not CHROMIUM.exists() and not IN_CI,
    reason="Debian chromium is not installed (apt-get install -y chromium-headless-shell or chromium); "
    "CI installs it and runs these tests",
)


_LOGS_STARTED: set[Path] = set()


class LiveSite:
    """The site's web server, ticker and table process (``run_tables``: table actors, the site's default), started once
    per package of tests on a free loopback port; with ``celery`` also a Celery worker and beat (the tournaments'
    coordination, clocks and payouts)."""

    def __init__(self, *, celery: bool = False) -> None:
        from django.conf import settings

        # daphne adopts a socket bound here (port 0: the kernel picks a free one), so two xdist workers can never race
        # for the same port between choosing it and binding it.
        self.listener = listening_socket("127.0.0.1", 0)
        self.port = int(self.listener.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        ARTIFACTS.mkdir(exist_ok=True)
        self.log_path = ARTIFACTS / f"browser-site-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
        # One per xdist worker (each has its own site), started afresh by the run's first site and appended to by the
        # next packages' sites: a failure's lines stay for reading after the run (each site used to start it again).
        self.log = self.log_path.open("ab" if self.log_path in _LOGS_STARTED else "wb")
        _LOGS_STARTED.add(self.log_path)
        environment = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "poker_site.settings",
            "ENVIRONMENT": "test",
            "DATABASE_URL": site_database_url(),
            "REDIS_URL": settings.REDIS_URL,
            "REDIS_KEY_PREFIX": settings.REDIS_KEY_PREFIX,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "PYTHONUNBUFFERED": "1",
            "TOURNAMENT_TICK_SECONDS": "1",
            # As a deployment runs (issue 27): the tables are played by a run_tables process that owns them.
            "TABLE_ACTORS": "on",
        }
        self.processes: list[subprocess.Popen[bytes]] = [
            subprocess.Popen(
                web_server_command("127.0.0.1", self.port, listening_descriptor=self.listener.fileno()),
                cwd=PROJECT,
                env=environment,
                stdout=self.log,
                stderr=subprocess.STDOUT,
                pass_fds=(self.listener.fileno(),),
            ),
            subprocess.Popen(
                [sys.executable, str(PROJECT / "manage.py"), "run_ticker", "--interval", "0.2"],
                cwd=PROJECT,
                env=environment,
                stdout=self.log,
                stderr=subprocess.STDOUT,
            ),
            subprocess.Popen(
                [sys.executable, str(PROJECT / "manage.py"), "run_tables"],
                cwd=PROJECT,
                env=environment,
                stdout=self.log,
                stderr=subprocess.STDOUT,
            ),
        ]
        if celery:
            celery_command = [str(Path(sys.executable).parent / "celery"), "-A", "poker_site"]
            for arguments in (
                ["worker", "--pool", "solo", "--loglevel", "WARNING", "--hostname", f"browser-{os.getpid()}@%h"],
                # The file-based scheduler, not the site's DatabaseScheduler: the reset between tests deletes the
                # periodic-task rows, and django-celery-beat reloads its schedule from them every five minutes, after
                # which a database-scheduled beat sends nothing (a package of tournament tests outlasts that).
                [
                    "beat",
                    "--loglevel",
                    "WARNING",
                    "--scheduler",
                    "celery.beat:PersistentScheduler",
                    "--schedule",
                    str(ARTIFACTS / f"beat-{os.getpid()}"),
                ],
            ):
                self.processes.append(
                    subprocess.Popen(
                        [*celery_command, *arguments],
                        cwd=PROJECT,
                        env=environment,
                        stdout=self.log,
                        stderr=subprocess.STDOUT,
                    )
                )
        try:
            self.wait_until_up()
        except BaseException:
            # The fixture's teardown never runs for a site that raised here: stop its processes now, or they live on
            # against a dropped database and load the machine for the tests after it.
            self.stop_processes()
            raise

    def wait_until_up(self, timeout: float = 180) -> None:
        """Return once the site answers a page. Generous: on a machine loaded by other test runs, five Django processes
        can take over a minute to start, which is no fault; a real one (a process that exited) raises at once."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for process in self.processes:
                if process.poll() is not None:
                    raise RuntimeError(f"a site process exited with {process.returncode}; see {self.log_path}")
            try:
                with urllib.request.urlopen(self.url + "/rules/cash-games/", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.25)
        raise RuntimeError(f"the live site did not answer within {timeout:.0f} s; see {self.log_path}")

    def stop(self) -> None:
        """Stop the site's processes, then wait until the database has no session of theirs (needs database access)."""
        self.stop_processes()
        self.wait_for_database_sessions_to_end()

    def stop_processes(self) -> None:
        """Terminate every process of the site (killed after 10 s) and close its port and log."""
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.listener.close()
        self.log.close()

    @staticmethod
    def wait_for_database_sessions_to_end(timeout: float = 15) -> None:
        """PostgreSQL ends a backend a moment after its client goes; the test database is dropped only then."""
        from django.conf import settings
        from django.db import connection

        name = str(settings.DATABASES["default"]["NAME"])
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", [name]
                )
                (others,) = cursor.fetchone()
            if not others:
                return
            time.sleep(0.2)


@pytest.fixture(scope="package")
def live_site(django_db_setup: Any, django_db_blocker: Any) -> Iterator[LiveSite]:
    """The site for one package of browser tests. Package scope, not session: its ticker works on the shared test
    database, so it must be gone before other packages' committing tests run (it would advance their deadlines)."""
    if not CHROMIUM.exists():
        pytest.fail(MISSING_CHROMIUM)
    site = LiveSite()
    try:
        yield site
    finally:
        with django_db_blocker.unblock():
            site.stop()


@pytest.fixture(scope="package")
def chromium(live_site: LiveSite) -> Iterator[Any]:
    """One Chromium for a package of browser tests on one xdist worker, as the site is (``live_site``); each test
    opens its own browser contexts (``Pages``: separate cookies and storage per person), closed after it. A launch
    costs about 0.8 s of CPU (issue 26). Playwright's sync API runs an event loop in this thread while it is open, so
    Django's async-safety check is lifted for exactly the package's tests (their own ORM reads and the database's
    reset between them), never for other packages' tests."""
    from playwright.sync_api import sync_playwright

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGUMENTS)
            try:
                yield launched
            finally:
                launched.close()
                connections.close_all()


@pytest.fixture
def browser(chromium: Any) -> Iterator[Any]:
    """The package's Chromium for one test; every context the test opened is closed after it."""
    assert chromium.is_connected(), "the package's Chromium is gone (crashed or closed by a test)"
    yield chromium
    for context in list(chromium.contexts):
        context.close()
    # Queries made while Playwright's loop ran used connections of that context; close them here.
    connections.close_all()


def caused_by_a_deadlock(error: BaseException) -> bool:
    import psycopg

    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, psycopg.errors.DeadlockDetected):
            return True
        cause = cause.__cause__ or cause.__context__
    return False


FLUSH_ATTEMPTS = 5


@pytest.fixture
def flush_retried_after_a_deadlock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The flush that empties the database after a test retries when PostgreSQL chose it as a deadlock's victim.

    The live site keeps working while the flush runs (its ticker; the domain's handling of the sockets the closing pages
    dropped), and the flush's TRUNCATE takes its table locks one table at a time, so a site query that reads two of the
    tables in the other order can deadlock with it. PostgreSQL then cancels one side; when that is the flush, its
    transaction rolled back whole and it can simply run again. Requested before ``transactional_db`` so that the patch
    is still in place when that fixture's teardown flushes."""
    from django.test import TransactionTestCase

    original = TransactionTestCase._fixture_teardown

    def fixture_teardown(test_case: TransactionTestCase) -> None:
        for attempt in range(1, FLUSH_ATTEMPTS + 1):
            try:
                original(test_case)
                return
            except Exception as error:
                if attempt == FLUSH_ATTEMPTS or not caused_by_a_deadlock(error):
                    raise
                time.sleep(0.2 * attempt)

    monkeypatch.setattr(TransactionTestCase, "_fixture_teardown", fixture_teardown)


TABLE_RUNTIME_KEYS = ("runtime*", "table:*:events*")
"""The site's ``run_tables`` keeps its process heartbeat, its leases and its tables' inboxes (streams with its consumer
group) and hand logs under these keys for as long as it runs: deleting them between tests would cut it off from its
tables mid-hand (the next renewal finds the lease gone; a reading of the deleted stream fails). Table ids are never
reused (the database reset keeps the sequences), so what a test leaves there is never another test's."""


@pytest.fixture
def site(
    live_site: LiveSite, flush_retried_after_a_deadlock: None, transactional_db: Any, settings: Any
) -> Iterator[LiveSite]:
    """The live site with an empty database (flushed after the test) and this test's Redis keys cleared. The test's
    own table commands (``tests.browser.setup.act``) take the site's path: to the tables' owner when actors play."""
    from games.services import seed_stakes
    from tournaments.hexapro.products import hexapro_products_seed

    settings.TABLE_ACTORS = True  # as the site's processes have it

    delete_redis_keys_of_this_run(keeping=TABLE_RUNTIME_KEYS)
    seed_stakes()  # transactional tests flush the catalogue the data migration seeded
    hexapro_products_seed()  # and the HexaPro products
    yield live_site
    delete_redis_keys_of_this_run(keeping=TABLE_RUNTIME_KEYS)


class Pages:
    """Browser contexts of one test: each a separate person (own cookies), with JavaScript errors and the
    Content-Security-Policy's refusals collected (the ``pages`` fixture fails the test on any)."""

    def __init__(self, browser: Any, site: LiveSite, test_name: str) -> None:
        self.browser = browser
        self.site = site
        self.test_name = re.sub(r"[^A-Za-z0-9_.-]+", "-", test_name)
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def new(self, *, width: int = 1280, height: int = 900, language: str = "en") -> Any:
        context = self.browser.new_context(
            viewport={"width": width, "height": height},
            locale=language,
            base_url=self.site.url,
            extra_http_headers={"Accept-Language": language},
        )
        # Generous: only a real fault takes a minute; a loaded machine (the suite beside other work) can take 20 s
        # to answer a log-in and draw the next page (issue 26).
        context.set_default_timeout(60_000)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))
        page.on("console", lambda message: self.note_policy_refusal(page, message.text))
        return page

    def note_policy_refusal(self, page: Any, text: str) -> None:
        """Chromium reports each load or inline code the Content-Security-Policy refused on the console: an error."""
        if "Content Security Policy" in text:
            self.errors.append(f"{page.url}: {text}")

    def screenshot(self, page: Any, label: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{self.test_name}-{label}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    def close(self) -> None:
        for context in self.contexts:
            context.close()

    def screenshot_all(self, label: str) -> None:
        """Every open page as it is now (kept when a test fails, to see what the player saw)."""
        for context_number, context in enumerate(self.contexts, start=1):
            for page_number, page in enumerate(context.pages, start=1):
                try:
                    self.screenshot(page, f"{label}-{context_number}-{page_number}")
                except Exception:  # a page that is gone cannot be photographed; the others still are
                    continue


@pytest.fixture
def pages(browser: Any, site: LiveSite, request: pytest.FixtureRequest) -> Iterator[Pages]:
    opened = Pages(browser, site, request.node.name)
    failed_before = request.session.testsfailed
    try:
        yield opened
        assert not opened.errors, f"JavaScript errors in the pages: {opened.errors}"
    finally:
        if request.session.testsfailed > failed_before or getattr(request.node, "call_failed", False):
            opened.screenshot_all("at-failure")
        opened.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.when == "call" and report.failed:
        item.call_failed = True  # type: ignore[attr-defined]
