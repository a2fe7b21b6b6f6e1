"""The run command brings the whole site up on embedded services and Ctrl-C leaves nothing behind."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from poker_site.embedded import PROJECT_DIRECTORY, free_port

pytestmark = [pytest.mark.slow, pytest.mark.live]  # it starts the whole site: daphne, the ticker, Celery

STARTUP_SECONDS = 240


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


BUSY_SECONDS = 60


def fetch_retrying_busy(url: str) -> tuple[int, str]:
    """``fetch``, asked again while the site answers 503 "busy, try again" (poker_site.core.busy: its answer to a
    request it has no room for, as a just-started process on a loaded machine may); any other answer is returned."""
    deadline = time.monotonic() + BUSY_SECONDS
    status, body = fetch(url)
    while status == 503 and time.monotonic() < deadline:
        time.sleep(0.2)
        status, body = fetch(url)
    return status, body


def wait_for_line(process: subprocess.Popen[str], needle: str, log: list[str]) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    assert process.stdout is not None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            if process.poll() is not None:
                raise AssertionError("the run command exited early:\n" + "".join(log[-60:]))
            continue
        log.append(line)
        if needle in line:
            return
    raise AssertionError(f"no {needle!r} within {STARTUP_SECONDS}s:\n" + "".join(log[-60:]))


@pytest.fixture(scope="module")
def variable_directory() -> Iterator[Path]:
    """The run's data directory (embedded PostgreSQL and Redis), shared by the module's runs: the first starts on a
    fresh machine (initdb, every migration, the demo data), the next restarts on the data it left, as a second ``make
    run`` does (the migrations and the demo seeding then find nothing to do: about 20 s of CPU less; issue 26)."""
    directory = Path(tempfile.mkdtemp(prefix="poker-run-"))
    try:
        yield directory
    finally:
        shutil.rmtree(directory, ignore_errors=True)


@pytest.mark.parametrize("web_processes", [1, 2])
def test_the_run_command_serves_the_site_and_ctrl_c_stops_every_process(
    web_processes: int, variable_directory: Path
) -> None:
    """With ``WEB_PROCESSES=2`` two daphne processes accept on one inherited socket; Ctrl-C stops them all too. The
    first run starts on an empty data directory, the second on the data the first left (a restart)."""
    port = free_port()
    environment = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL"}}
    environment.update(
        POKER_VAR_DIR=str(variable_directory),
        PORT=str(port),
        ENVIRONMENT="development",
        REDIS_KEY_PREFIX="run-command-test",
        PYTHONUNBUFFERED="1",
        WEB_PROCESSES=str(web_processes),
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "poker_site.launcher", "run"],
        cwd=PROJECT_DIRECTORY,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    log: list[str] = []
    try:
        wait_for_line(process, "lobby: http://", log)
        base = f"http://127.0.0.1:{port}"
        assert fetch_retrying_busy(f"{base}/")[0] == 200
        status, body = fetch_retrying_busy(f"{base}/admin/")
        assert status == 200
        assert "Log in" in body
        status, body = fetch_retrying_busy(f"{base}/api/schema/")
        assert status == 200
        assert "openapi" in body
        deadline = time.monotonic() + 90
        status, body = fetch(f"{base}/healthz")
        while status != 200 and time.monotonic() < deadline:
            time.sleep(0.2)
            status, body = fetch(f"{base}/healthz")
        assert status == 200, body

        launched = psutil.Process(process.pid).children(recursive=True)
        postgres_pid = int((variable_directory / "postgres" / "postmaster.pid").read_text().split()[0])
        redis_port = int((variable_directory / "redis" / "port").read_text())
        redis_pids = [
            c.pid
            for c in psutil.net_connections("tcp")
            if c.laddr and c.laddr.port == redis_port and c.status == psutil.CONN_LISTEN and c.pid
        ]
        watched = [*launched, psutil.Process(postgres_pid), *(psutil.Process(pid) for pid in redis_pids)]
        command_lines = [" ".join(child.cmdline()) for child in launched]
        daphnes = [line for line in command_lines if "daphne" in line]
        assert len(daphnes) == web_processes, command_lines
        if web_processes > 1:
            assert all(" --fd " in line for line in daphnes), daphnes
        assert any("celery" in line and " worker" in line for line in command_lines), command_lines
        assert any("celery" in line and " beat" in line for line in command_lines), command_lines
        assert any("run_ticker" in line for line in command_lines), command_lines
        # Table actors are the site's default (issue 27): one run_tables process owns the tables and plays them.
        assert sum("run_tables" in line for line in command_lines) == 1, command_lines
        assert any("run_demo_life" in line for line in command_lines), command_lines
        if web_processes == 1:
            # The demo is alive: within a couple of minutes (a minute on a quiet machine) the demo bots sit at a table
            # of every game, three or more to a table, so its hands are dealt.
            games_with_players: set[str] = set()
            deadline = time.monotonic() + 150
            while time.monotonic() < deadline:
                status, body = fetch(f"{base}/api/games/tables/")
                if status == 200:
                    rows = json.loads(body)
                    games = {row["game"] for row in rows}
                    games_with_players = {row["game"] for row in rows if row["players"] >= 3}
                    if games_with_players == games:
                        break
                time.sleep(0.5)
            assert games_with_players == games, (games_with_players, games)

        process.send_signal(signal.SIGINT)
        remaining_output, _ = process.communicate(timeout=60)
        log.append(remaining_output)
        assert process.returncode == 0, "".join(log[-60:])
        _gone, alive = psutil.wait_procs(watched, timeout=15)
        assert not alive, f"processes left behind: {[(p.pid, p.cmdline()) for p in alive]}"
        leftovers = [
            found
            for found in psutil.process_iter(["cmdline"])
            if str(variable_directory) in " ".join(found.info["cmdline"] or [])
        ]
        assert not leftovers, f"processes using the data directory remain: {leftovers}"
    finally:
        if process.poll() is None:
            # Ask for a clean stop first so a failed assertion does not leave embedded servers running.
            process.send_signal(signal.SIGINT)
            try:
                process.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
