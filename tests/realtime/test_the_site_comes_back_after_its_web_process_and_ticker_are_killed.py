"""The real launcher (``python -m poker_site.launcher run``) restarts its web process, ticker and table process (the
``run_tables`` that owns the tables, issue 27) after all three are killed with SIGKILL while bots play: the site answers
again, the hands the crash interrupted are cancelled with every stack restored once the restarted table process takes
their tables over (CASH-23, CASH-24, GEN-04), new hands are dealt and finished, and ``wallet_reconcile`` passes
(GEN-06)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import datetime
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import timezone

from tests.realtime.conftest import pause_between_hands, seed_catalog
from tests.realtime.live_site import PROJECT, RUN_BOTS, free_port, site_environment
from tests.realtime.test_run_bots_plays_hands_over_a_live_site import wait_until_no_hand_runs

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

ANSWER_DEADLINE_SECONDS = 60.0
"""Generous on purpose (no timing targets in tests): the launcher restarts after 0.5 s and daphne starts in a few
seconds; docs/benchmarks.md has the measured time."""


def wait_for(condition: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout} s"
        time.sleep(0.2)


def launcher_output(log: Path) -> str:
    return log.read_text(errors="replace")


def started_pid(log: Path, name: str) -> int:
    pids = re.findall(rf"\[launcher\] (?:started|restarted) {name} \(pid (\d+)\)", launcher_output(log))
    assert pids, launcher_output(log)[-3000:]
    return int(pids[-1])


def lobby_answers(base_url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base_url}/api/games/tables/", timeout=5) as response:
            return bool(response.status == 200)
    except (OSError, urllib.error.URLError):
        return False


def finished_hands_started_after(moment: datetime) -> int:
    from games.models import Hand, HandStatus

    return Hand.objects.filter(status=HandStatus.FINISHED, started_at__gt=moment).count()


def test_killed_web_ticker_and_table_process_are_restarted_and_play_goes_on_with_the_ledger_in_balance(
    tmp_path: Path,
) -> None:
    from games.models import Hand, HandStatus
    from games.runtime.recovery import CRASH_REASON

    seed_catalog()
    pause_between_hands(500)  # the bots' hands follow one another without the pause people need to read a result
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    # No demo bots: this test's own bots play, and every hand must end once they stop.
    environment = {**site_environment(), "HOST": "127.0.0.1", "PORT": str(port), "DEMO_BOTS": "false"}
    log = tmp_path / "launcher.log"
    with log.open("wb") as log_file:
        launcher = subprocess.Popen(
            [sys.executable, "-m", "poker_site.launcher", "run"],
            cwd=PROJECT,
            env=environment,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    bots: subprocess.Popen[str] | None = None
    try:
        wait_for(lambda: "[launcher] lobby:" in launcher_output(log), 240, "the launcher serving the lobby")
        bots = subprocess.Popen(
            [
                *RUN_BOTS,
                "--base-url",
                base_url,
                "--tables",
                "1",
                "--bots-per-table",
                "3",
                "--duration",
                "300",  # until the test has seen its hands after the restart and stops them (SIGTERM)
                "--think",
                "0.05",
                "0.2",
                "--seed",
                "11",
            ],
            cwd=PROJECT,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        start = timezone.now()
        wait_for(lambda: finished_hands_started_after(start) >= 2, 90, "two hands finished before the crash")

        web_pid, ticker_pid, tables_pid = (started_pid(log, name) for name in ("web", "ticker", "tables"))
        running_at_the_kill = set(Hand.objects.filter(status=HandStatus.RUNNING).values_list("pk", flat=True))
        for pid in (web_pid, ticker_pid, tables_pid):
            os.kill(pid, signal.SIGKILL)
        killed_at, killed_at_monotonic = timezone.now(), time.monotonic()

        wait_for(lambda: lobby_answers(base_url), ANSWER_DEADLINE_SECONDS, "the lobby answering again")
        print(f"the site answered again {time.monotonic() - killed_at_monotonic:.1f} s after the kill")
        assert started_pid(log, "web") != web_pid
        wait_for(lambda: started_pid(log, "ticker") != ticker_pid, 30, "the ticker restarted")
        wait_for(lambda: started_pid(log, "tables") != tables_pid, 30, "the table process restarted")
        wait_for(lambda: finished_hands_started_after(killed_at) >= 2, 120, "two hands finished after the restart")

        bots.terminate()  # they leave their seats and print their summary, as at the end of their duration
        _output, stderr = bots.communicate(timeout=60)
        assert bots.returncode == 0, stderr[-3000:]
        wait_until_no_hand_runs()
    finally:
        if bots is not None and bots.poll() is None:
            bots.kill()
        if launcher.poll() is None:
            launcher.send_signal(signal.SIGTERM)
        status = launcher.wait(timeout=60)

    output = launcher_output(log)
    assert f"web (pid {web_pid}) was killed by SIGKILL" in output
    assert f"ticker (pid {ticker_pid}) was killed by SIGKILL" in output
    assert f"tables (pid {tables_pid}) was killed by SIGKILL" in output
    assert "web died: started manage.py hands_recover" in output
    assert "giving up" not in output
    assert status == 0, output[-3000:]
    assert "[launcher] all site processes stopped" in output

    # Every hand the crash interrupted was cancelled and its stacks restored (CASH-24); none was left running.
    for hand in Hand.objects.filter(pk__in=running_at_the_kill):
        assert hand.status in {HandStatus.CANCELLED, HandStatus.FINISHED}, hand
        if hand.status == HandStatus.CANCELLED:
            assert hand.cancellation_reason == CRASH_REASON
    assert not Hand.objects.filter(status=HandStatus.RUNNING).exists()
    call_command("wallet_reconcile")  # raises CommandError naming any imbalance
