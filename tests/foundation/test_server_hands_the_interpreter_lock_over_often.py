"""The ASGI server process and the table runtime (``manage.py run_tables``) switch threads every 0.5 ms instead of
CPython's 5 ms, so a worker thread settling a hand cannot hold the event loop (every socket's frames, every owned
table's messages) off for 5 ms at each of its system calls."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from poker_site.embedded import PROJECT_DIRECTORY


def test_importing_the_asgi_application_shortens_the_switch_interval() -> None:
    from poker_site import asgi  # noqa: F401 - importing the application tunes the interpreter
    from poker_site.core.thread_switching import SWITCH_INTERVAL_SECONDS

    assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL_SECONDS)
    assert sys.getswitchinterval() < 0.005  # CPython's default


# In a process of its own: the test process may have imported the ASGI application (which tunes it) already.
RUN_TABLES_PROBE = """
import json, os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poker_site.settings")
import django
django.setup()
from django.core.management import call_command
from games.runtime.owner import TableOwner
before = sys.getswitchinterval()

async def run(owner, stop):  # what the runtime process sees once it is running; then it stops
    print(json.dumps({"before": before, "after": sys.getswitchinterval()}), flush=True)

TableOwner.run = run
call_command("run_tables")
"""


def test_the_table_runtime_shortens_the_switch_interval_once_started() -> None:
    from poker_site.core.thread_switching import SWITCH_INTERVAL_SECONDS

    completed = subprocess.run(
        [sys.executable, "-c", RUN_TABLES_PROBE],
        cwd=PROJECT_DIRECTORY,
        env={**os.environ, "TABLE_ACTORS": "1"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    (line,) = [line for line in completed.stdout.splitlines() if line.startswith("{")]  # beside run_tables' own
    seen = json.loads(line)

    assert seen["before"] == pytest.approx(0.005)  # CPython's default until the runtime starts
    assert seen["after"] == pytest.approx(SWITCH_INTERVAL_SECONDS)
