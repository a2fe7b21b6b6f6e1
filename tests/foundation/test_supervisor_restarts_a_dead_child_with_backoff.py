"""The launcher's supervisor starts a dead child again after a pause that doubles with each death, says how it ended,
and starts the child's ``after_death`` job (for a web process: ``manage.py hands_recover``, CASH-24)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from poker_site.launcher import Child, RestartPolicy, Supervisor, how_it_ended


def test_the_pause_before_a_restart_doubles_with_each_death_up_to_the_cap() -> None:
    policy = RestartPolicy(first_delay_seconds=0.5, maximum_delay_seconds=4.0, maximum_restarts=10)
    assert [policy.delay(deaths) for deaths in range(1, 7)] == [0.5, 1.0, 2.0, 4.0, 4.0, 4.0]
    assert policy.delay(10_000) == 4.0


def test_an_exit_status_and_a_signal_are_told_apart() -> None:
    assert how_it_ended(3) == "exited with status 3"
    assert how_it_ended(-9) == "was killed by SIGKILL"


def supervise_until(supervisor: Supervisor, condition: object, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "the supervisor did not get there in time"
        assert supervisor.supervise_once(time.monotonic()), "the supervisor gave up"
        time.sleep(0.01)


def test_a_child_that_dies_is_started_again_and_its_death_is_logged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    starts = tmp_path / "starts"
    # Dies with status 3 on its first two starts, then stays up.
    flaky = Child(
        "flaky",
        ["/bin/sh", "-c", f'echo x >> {starts}; [ "$(wc -l < {starts})" -ge 3 ] && exec sleep 60; exit 3'],
    )
    steady = Child("steady", ["/bin/sh", "-c", "exec sleep 60"])
    supervisor = Supervisor([flaky, steady], RestartPolicy(first_delay_seconds=0.05, maximum_restarts=5))
    try:
        supervisor.start()
        steady_pid = steady.process.pid  # type: ignore[union-attr]
        supervise_until(supervisor, lambda: starts.exists() and len(starts.read_text().split()) == 3)
        time.sleep(0.2)
        assert supervisor.supervise_once(time.monotonic())
        assert flaky.process is not None
        assert flaky.process.poll() is None, "the third start stays up"
        assert steady.process is not None
        assert steady.process.pid == steady_pid, "the other child was left alone"
    finally:
        supervisor.stop()
    output = capsys.readouterr().out
    assert output.count("exited with status 3") == 2
    assert "exited with status 3; restarting it in 0.05 s (death 1 within 60 s)" in output
    assert "restarting it in 0.1 s (death 2 within 60 s)" in output, "the second pause is twice the first"
    assert output.count("[launcher] restarted flaky") == 2


def test_a_child_killed_by_a_signal_is_restarted_and_its_after_death_job_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "recovered"
    web = Child("web", ["/bin/sh", "-c", "exec sleep 60"], after_death=["/bin/sh", "-c", f"touch {marker}"])
    supervisor = Supervisor([web], RestartPolicy(first_delay_seconds=0.05))
    try:
        supervisor.start()
        assert web.process is not None
        first_pid = web.process.pid
        web.process.kill()
        supervise_until(supervisor, lambda: web.process is not None and web.process.pid != first_pid)
        supervise_until(supervisor, lambda: marker.exists() and not supervisor.jobs)
    finally:
        supervisor.stop()
    output = capsys.readouterr().out
    assert f"web (pid {first_pid}) was killed by SIGKILL" in output
    assert "web died: started" in output
