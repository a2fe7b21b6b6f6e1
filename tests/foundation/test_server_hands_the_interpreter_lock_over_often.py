"""The ASGI server process switches threads every 0.5 ms instead of CPython's 5 ms, so a worker thread settling a
hand cannot hold the event loop (every socket's frames) off for 5 ms at each of its system calls."""

from __future__ import annotations

import sys

import pytest


def test_importing_the_asgi_application_shortens_the_switch_interval() -> None:
    from poker_site import asgi  # noqa: F401 - importing the application tunes the interpreter
    from poker_site.core.thread_switching import SWITCH_INTERVAL_SECONDS

    assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL_SECONDS)
    assert sys.getswitchinterval() < 0.005  # CPython's default
