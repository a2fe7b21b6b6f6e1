"""A child that dies more than ``maximum_restarts`` times within the window makes the supervisor give up: ``wait``
returns 1 and ``stop`` ends every other child; deaths older than the window are forgotten."""

from __future__ import annotations

import time

import pytest

from poker_site.launcher import Child, RestartPolicy, Supervisor


def test_a_child_that_keeps_dying_stops_the_site_with_status_one(capsys: pytest.CaptureFixture[str]) -> None:
    broken = Child("broken", ["/bin/sh", "-c", "exit 7"])
    steady = Child("steady", ["/bin/sh", "-c", "exec sleep 60"])
    supervisor = Supervisor([steady, broken], RestartPolicy(first_delay_seconds=0.01, maximum_restarts=2))
    try:
        supervisor.start()
        assert supervisor.wait() == 1
    finally:
        supervisor.stop()
    assert steady.process is not None
    assert steady.process.poll() is not None, "the other child was stopped"
    output = capsys.readouterr().out
    assert output.count("[launcher] restarted broken") == 2
    assert "exited with status 7: 3 deaths within 60 s; giving up, stopping the site" in output
    assert "[launcher] all site processes stopped" in output


def test_deaths_older_than_the_window_are_forgotten() -> None:
    policy = RestartPolicy(first_delay_seconds=0.01, maximum_restarts=1, window_seconds=1.0)
    child = Child("child", ["/bin/sh", "-c", "exit 1"])
    supervisor = Supervisor([child], policy)
    try:
        supervisor.start()
        assert child.process is not None
        child.process.wait()
        assert supervisor.supervise_once(100.0), "first death: restart"
        assert supervisor.supervise_once(100.02)  # starts it again
        child.process.wait()
        assert supervisor.supervise_once(102.0), "a death two windows later is a first death again"
        assert len(child.deaths) == 1
        assert supervisor.supervise_once(102.02)
        child.process.wait()
        assert not supervisor.supervise_once(102.5), "two deaths within one window: give up"
    finally:
        supervisor.stop()


def test_a_stop_request_ends_supervision_with_status_zero() -> None:
    supervisor = Supervisor([Child("steady", ["/bin/sh", "-c", "exec sleep 60"])])
    try:
        supervisor.start()
        supervisor.stopping = True
        started = time.monotonic()
        assert supervisor.wait() == 0
        assert time.monotonic() - started < 5
    finally:
        supervisor.stop()
