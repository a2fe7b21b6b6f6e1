"""Site processes never outlive the launcher, even when it is killed outright."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import psutil
import pytest

from poker_site.embedded import PROJECT_DIRECTORY

pytestmark = pytest.mark.slow

SUPERVISE_A_SLEEPER = """
import sys, time
from poker_site.launcher import Child, Supervisor
supervisor = Supervisor([Child("sleeper", [sys.executable, "-c", "import time; time.sleep(300)"])])
supervisor.start()
print("CHILD", supervisor.children[0].process.pid, flush=True)
time.sleep(300)
"""


def test_a_child_is_stopped_when_the_launcher_is_killed_with_sigkill() -> None:
    launcher = subprocess.Popen(
        [sys.executable, "-c", SUPERVISE_A_SLEEPER], cwd=PROJECT_DIRECTORY, stdout=subprocess.PIPE, text=True
    )
    assert launcher.stdout is not None
    line = launcher.stdout.readline()
    while not line.startswith("CHILD"):
        line = launcher.stdout.readline()
    child_pid = int(line.split()[1])
    child = psutil.Process(child_pid)
    assert child.is_running()

    launcher.send_signal(signal.SIGKILL)
    launcher.wait(timeout=30)

    deadline = time.monotonic() + 15
    while child.is_running() and child.status() != psutil.STATUS_ZOMBIE and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not child.is_running() or child.status() == psutil.STATUS_ZOMBIE
