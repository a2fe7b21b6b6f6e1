"""What a server process sees once started, read from a fresh interpreter (the test process has tuned its own
collector and may have imported the ASGI application already): each probe's source prints one JSON line."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from poker_site.embedded import PROJECT_DIRECTORY

RUN_TABLES_PROBE = """
import asyncio, gc, json, os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poker_site.settings")
import django
django.setup()
from django.core.management import call_command
from games.runtime.owner import TableOwner
before = gc.get_threshold()
switch_interval_before = sys.getswitchinterval()

async def run(owner, stop):  # what the runtime process sees once it is running; then it stops
    print(json.dumps({
        "before": before,
        "after": gc.get_threshold(),
        "frozen": gc.get_freeze_count(),
        "switch_interval_before": switch_interval_before,
        "switch_interval_after": sys.getswitchinterval(),
    }), flush=True)

TableOwner.run = run
call_command("run_tables")
"""
"""``manage.py run_tables`` started with its owner replaced by a report: the collector's thresholds and frozen
objects (``before`` / ``after`` / ``frozen``) and the interpreter's switch interval, before and once running."""


def probe(source: str, **environment: str) -> dict[str, object]:
    """Run ``source`` in a fresh interpreter in the project directory with ``environment`` added; its JSON line."""
    completed = subprocess.run(
        [sys.executable, "-c", source],
        cwd=PROJECT_DIRECTORY,
        env={**os.environ, **environment},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    return dict(json.loads(next(line for line in completed.stdout.splitlines() if line.startswith("{"))))
