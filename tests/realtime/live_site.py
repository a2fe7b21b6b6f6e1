"""A live site for end-to-end tests: daphne, the ticker and (table actors being the site's default, issue 27) one
``run_tables`` in subprocesses on this run's test database and Redis.

The processes listen on 127.0.0.1 only, on a free port, and are stopped (their own process groups) at teardown.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.conf import settings

from poker_site.env import TRUE_WORDS
from poker_site.launcher import listening_socket, web_server_command
from tests.conftest import site_database_url

PROJECT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def site_environment() -> dict[str, str]:
    """The environment of this test run, pointed at the test database (which the tests commit to)."""
    url = site_database_url()
    environment = dict(os.environ)
    environment.update(
        {
            "DATABASE_URL": url,
            "REDIS_URL": settings.REDIS_URL,
            "REDIS_KEY_PREFIX": settings.REDIS_KEY_PREFIX,
            "ENVIRONMENT": "test",
            # The production configuration: each process borrows connections from its bounded pool, and the tables are
            # played by their owners, the run_tables processes (the test process itself keeps the per-action path).
            "DATABASE_POOL": "on",
            "TABLE_ACTORS": "on",
            "LOG_LEVEL": "WARNING",
        }
    )
    return environment


@contextmanager
def live_site(
    log_directory: Path, settings_changed: dict[str, str] | None = None, *, table_processes: int = 1
) -> Iterator[str]:
    """Start daphne, ``run_ticker`` and, with table actors on, ``table_processes`` ``run_tables`` (with
    ``settings_changed`` added to their environment); yield the base URL; stop them all. A test that starts and kills
    its own runtime processes passes ``table_processes=0``."""
    # daphne adopts a socket bound here (port 0), so no other process (another xdist worker) can take the port between
    # choosing it and binding it.
    listener = listening_socket("127.0.0.1", 0)
    port = int(listener.getsockname()[1])
    environment = {**site_environment(), **(settings_changed or {})}
    log_directory.mkdir(parents=True, exist_ok=True)
    processes: list[subprocess.Popen[bytes]] = []
    commands = {
        "daphne": web_server_command("127.0.0.1", port, listening_descriptor=listener.fileno()),
        "ticker": [sys.executable, str(PROJECT / "manage.py"), "run_ticker", "--skip-checks", "--interval", "0.2"],
    }
    if environment.get("TABLE_ACTORS", "").strip().lower() in TRUE_WORDS:
        for number in range(1, table_processes + 1):
            commands[f"tables-{number}"] = [sys.executable, str(PROJECT / "manage.py"), "run_tables", "--skip-checks"]
    try:
        for name, command in commands.items():
            log = (log_directory / f"{name}.log").open("wb")
            processes.append(
                subprocess.Popen(
                    command,
                    cwd=PROJECT,
                    env=environment,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                    pass_fds=(listener.fileno(),) if name == "daphne" else (),
                )
            )
        wait_until_it_answers(f"http://127.0.0.1:{port}", processes, log_directory)
        yield f"http://127.0.0.1:{port}"
    finally:
        process_groups_stop(processes)
        listener.close()


def wait_until_it_answers(
    base_url: str, processes: list[subprocess.Popen[bytes]], log_directory: Path, timeout: float = 120
) -> None:
    """Until daphne answers an HTTP request (any status): the listening socket exists before daphne adopts it, so a
    connection alone proves nothing. The timeout is generous for a loaded machine; a process that exits fails at
    once."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for process in processes:
            if process.poll() is not None:
                raise RuntimeError(f"a site process exited with {process.returncode}; see {log_directory}")
        try:
            with urllib.request.urlopen(base_url + "/rules/cash-games/", timeout=5):
                return
        except urllib.error.HTTPError:
            return  # an answer, whatever its status
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"daphne did not answer at {base_url} within {timeout:.0f} s; see {log_directory}")


def run_bots(base_url: str, *arguments: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``manage.py run_bots`` against ``base_url`` in a subprocess of this run's environment."""
    return subprocess.run(
        [*RUN_BOTS, "--base-url", base_url, *arguments],
        cwd=PROJECT,
        env=site_environment(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


RUN_BOTS = [sys.executable, str(PROJECT / "manage.py"), "run_bots", "--skip-checks"]
"""The test process's pytest-django set-up has loaded every model and URL already; each bot process need not check
them again (about a second of CPU per start)."""


def run_bots_until(
    base_url: str, until: Callable[[dict[str, Any]], bool], *arguments: str, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """``manage.py run_bots`` against ``base_url`` until ``until`` holds for the bots' summary so far (their progress
    lines, every 0.5 s) — it may also read what the site stored — then stop them (SIGTERM: they leave their seats and
    print their final summary, the last line of stdout, as at the end of a duration). The bots play as long as the test
    needs, however loaded the machine, instead of for a fixed time. Fails after ``timeout`` seconds."""
    bots = subprocess.Popen(
        [*RUN_BOTS, "--base-url", base_url, "--duration", str(timeout), "--progress", "0.5", *arguments],
        cwd=PROJECT,
        env=site_environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    errors: list[str] = []
    readers = [
        threading.Thread(target=read_lines, args=(bots.stdout, lines), daemon=True),
        threading.Thread(target=read_lines, args=(bots.stderr, errors), daemon=True),
    ]
    for reader in readers:
        reader.start()
    deadline = time.monotonic() + timeout
    try:
        while bots.poll() is None:
            progress = [summary for summary in map(json_object, lines) if summary.get("progress")]
            if progress and until(progress[-1]):
                bots.terminate()
                break
            if time.monotonic() > deadline:
                raise AssertionError(f"the bots did not get there within {timeout:.0f} s: {lines[-1:]}")
            time.sleep(0.2)
        bots.wait(timeout=60)
    finally:
        if bots.poll() is None:
            bots.kill()
            bots.wait()
        for reader in readers:
            reader.join(timeout=10)
    return subprocess.CompletedProcess(bots.args, bots.returncode, "".join(lines), "".join(errors))


def read_lines(stream: Any, into: list[str]) -> None:
    for line in stream:
        into.append(line)


def json_object(line: str) -> dict[str, Any]:
    """The JSON object a line holds, or an empty one (the bots print other lines too)."""
    try:
        value = json.loads(line)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


@contextmanager
def web_process(
    log_directory: Path, name: str, settings_changed: dict[str, str] | None = None
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Start one more daphne (a second web process of the site, as the launcher's ``WEB_PROCESSES`` runs them, on a
    port of its own); yield its base URL and process; stop it unless the test has killed it."""
    listener = listening_socket("127.0.0.1", 0)
    port = int(listener.getsockname()[1])
    log_directory.mkdir(parents=True, exist_ok=True)
    with (log_directory / f"{name}.log").open("wb") as log:
        process = subprocess.Popen(
            web_server_command("127.0.0.1", port, listening_descriptor=listener.fileno()),
            cwd=PROJECT,
            env={**site_environment(), **(settings_changed or {})},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            pass_fds=(listener.fileno(),),
        )
    # Only daphne holds the port from now on: once it dies, connecting there is refused, as on a dead host.
    listener.close()
    try:
        wait_until_it_answers(f"http://127.0.0.1:{port}", [process], log_directory)
        yield f"http://127.0.0.1:{port}", process
    finally:
        process_groups_stop([process])


def process_groups_stop(processes: Iterable[subprocess.Popen[Any]], *, timeout: float = 15) -> None:
    """Stop the process groups of ``processes`` that still run: SIGTERM to all first (they stop side by side), then wait
    for each up to ``timeout`` seconds and SIGKILL the group of one that did not stop."""
    processes = list(processes)
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
