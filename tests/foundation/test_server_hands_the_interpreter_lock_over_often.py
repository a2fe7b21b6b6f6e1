"""The ASGI server process and the table runtime (``manage.py run_tables``) switch threads every 0.5 ms instead of
CPython's 5 ms, so a worker thread settling a hand cannot hold the event loop (every socket's frames, every owned
table's messages) off for 5 ms at each of its system calls."""

from __future__ import annotations

import sys

import pytest

from tests.foundation.probes.started_process import RUN_TABLES_PROBE, probe


def test_importing_the_asgi_application_shortens_the_switch_interval() -> None:
    from poker_site import asgi  # noqa: F401 - importing the application tunes the interpreter
    from poker_site.core.thread_switching import SWITCH_INTERVAL_SECONDS

    assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL_SECONDS)
    assert sys.getswitchinterval() < 0.005  # CPython's default


def test_the_table_runtime_shortens_the_switch_interval_once_started() -> None:
    from poker_site.core.thread_switching import SWITCH_INTERVAL_SECONDS

    # In a process of its own: the test process may have imported the ASGI application (which tunes it) already.
    seen = probe(RUN_TABLES_PROBE, TABLE_ACTORS="1")

    assert seen["switch_interval_before"] == pytest.approx(0.005)  # CPython's default until the runtime starts
    assert seen["switch_interval_after"] == pytest.approx(SWITCH_INTERVAL_SECONDS)
