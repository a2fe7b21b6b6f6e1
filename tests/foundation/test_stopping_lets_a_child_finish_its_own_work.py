"""Stopping the site signals each child alone, not its process group, so that a child with workers of its own (Celery's
prefork pool) shuts down warm: it lets them finish their tasks and stops them itself. Signalled directly, the pool
children died mid-task (WorkerLostError, messages restored)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from poker_site.launcher import Child, Supervisor

pytestmark = pytest.mark.slow

# A child that, like Celery's main process, has a worker in its own process group and on SIGTERM lets the worker finish
# its task before exiting. The worker writes down whether it was signalled by anyone else.
WARM_SHUTDOWN = """
import signal, subprocess, sys, time
journal = sys.argv[1]
worker = subprocess.Popen([sys.executable, "-c", '''
import signal, sys, time
journal = sys.argv[1]
signal.signal(signal.SIGTERM, lambda *_: (open(journal, "a").write("worker signalled mid-task\\\\n"), sys.exit(1)))
open(journal, "a").write("worker started\\\\n")
time.sleep(1.5)
open(journal, "a").write("worker finished its task\\\\n")
''', journal])
def stop(*_):
    open(journal, "a").write("main asked to stop\\n")
    worker.wait()
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
time.sleep(60)
"""


def test_a_child_signalled_to_stop_lets_its_worker_finish_the_task(tmp_path: Path) -> None:
    journal = tmp_path / "journal.txt"
    supervisor = Supervisor([Child("worker", [sys.executable, "-c", WARM_SHUTDOWN, str(journal)])])
    supervisor.start()
    deadline = time.monotonic() + 30
    while "worker started" not in (journal.read_text() if journal.exists() else "") and time.monotonic() < deadline:
        time.sleep(0.05)

    supervisor.stop()

    lines = journal.read_text().splitlines()
    assert lines == ["worker started", "main asked to stop", "worker finished its task"]
