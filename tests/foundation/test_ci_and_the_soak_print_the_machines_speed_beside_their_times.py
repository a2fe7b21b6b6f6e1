"""A run's time is read against the machine's speed (issue 26: the machines seen here differ by 2.5 times), so
``.ci/run`` and ``make soak-tests`` print it: ``scripts/machine_speed.py``."""

from __future__ import annotations

import re
import subprocess
import sys

from poker_site.embedded import PROJECT_DIRECTORY

SCRIPT = PROJECT_DIRECTORY / "scripts" / "machine_speed.py"


def run_script(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *arguments], capture_output=True, text=True, timeout=120, check=False
    )


def test_the_script_prints_the_cpu_seconds_of_the_additions_it_was_asked_for() -> None:
    completed = run_script("--additions", "100000", "--repeats", "2")
    assert completed.returncode == 0, completed.stderr
    assert re.fullmatch(
        r"machine speed: 100,000 additions in \d+\.\d\d s of CPU \(median \d+\.\d\d s of 2\) \(.+\)\n", completed.stdout
    )


def test_a_loop_length_or_count_that_is_not_a_positive_number_is_refused_with_status_2() -> None:
    for option in ("--additions", "--repeats"):
        for bad in ("0", "-5", "many"):
            completed = run_script(option, bad)
            assert completed.returncode == 2
            assert option in completed.stderr
            assert completed.stdout == ""


def test_ci_prints_the_speed_before_the_tests_and_the_soak_in_its_summary() -> None:
    ci = (PROJECT_DIRECTORY / ".ci" / "run").read_text()
    assert ci.index("scripts/machine_speed.py") < ci.index("make test")
    soak = (PROJECT_DIRECTORY / "scripts" / "soak_tests.py").read_text()
    assert "speed()" in soak.split('print("\\n[soak] summary")')[1]
