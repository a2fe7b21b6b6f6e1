"""Soak the test suite: run it whole three times in a row, then once beside two CPU hogs, and report each run's
failures. A test that fails in any run is flaky (or broken) and must be fixed: it must wait for what it needs, with
timeouts that only a real fault reaches.

    python scripts/soak_tests.py [--runs 3] [--hogs 2] [-- pytest arguments]     # make soak-tests

The hogs are ``python -c 'while 1: pass'`` processes, started before the loaded run and stopped after it (also when the
script is interrupted). PostgreSQL and Redis come from DATABASE_URL / REDIS_URL, or the embedded servers, started once
for all the runs. The exit status is 0 only if every run passed; a run that collected no tests (pytest's status 5)
counts as failed.
"""

from __future__ import annotations

import argparse
import contextlib
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from poker_site.embedded import embedded_services  # noqa: E402 - after the checkout is on the path
from scripts.machine_speed import speed  # noqa: E402


@dataclass
class Run:
    label: str
    status: int = -1
    seconds: float = 0.0
    tests: int = 0
    failed: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.status == 0 and not self.failed


def failures_in(report: Path) -> tuple[int, list[str]]:
    """The number of tests and the ids of the failed or erroring ones, from a JUnit XML report."""
    if not report.exists():
        return 0, []
    tests, failed = 0, []
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        tests += 1
        if case.find("failure") is not None or case.find("error") is not None:
            failed.append(f"{case.get('classname')}::{case.get('name')}")
    return tests, failed


@contextlib.contextmanager
def cpu_hogs(count: int) -> Iterator[None]:
    hogs = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.terminate()
        for hog in hogs:
            hog.wait()


def run_suite(label: str, pytest_arguments: list[str], directory: Path) -> Run:
    report = directory / f"{label}.xml"
    run = Run(label)
    print(f"[soak] {label}: starting", flush=True)
    started = time.monotonic()
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", f"--junitxml={report}", *pytest_arguments], cwd=PROJECT, check=False
    )
    run.seconds = time.monotonic() - started
    run.status = completed.returncode
    run.tests, run.failed = failures_in(report)
    verdict = "passed" if run.passed else f"FAILED (pytest status {run.status}, {len(run.failed)} failing)"
    print(f"[soak] {label}: {run.tests} tests in {run.seconds:.0f} s, {verdict}", flush=True)
    return run


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="quiet runs in a row (default 3)")
    parser.add_argument("--hogs", type=int, default=2, help="CPU hogs beside the last run (default 2; 0: no such run)")
    parser.add_argument("pytest_arguments", nargs=argparse.REMAINDER, help="after --: passed to pytest")
    options = parser.parse_args(argv)
    pytest_arguments = [argument for argument in options.pytest_arguments if argument != "--"]

    runs: list[Run] = []
    with embedded_services(), tempfile.TemporaryDirectory(prefix="soak-") as directory:
        for number in range(1, options.runs + 1):
            runs.append(run_suite(f"run-{number}", pytest_arguments, Path(directory)))
        if options.hogs:
            with cpu_hogs(options.hogs):
                runs.append(run_suite(f"run-with-{options.hogs}-cpu-hogs", pytest_arguments, Path(directory)))

    print("\n[soak] summary")
    print(f"  machine speed, idle: {speed()}")
    for run in runs:
        print(f"  {run.label}: status {run.status}, {run.tests} tests, {run.seconds:.0f} s, {len(run.failed)} failed")
        for test in run.failed:
            print(f"      {test}")
    return 0 if runs and all(run.passed for run in runs) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
