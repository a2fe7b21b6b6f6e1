"""How often CPython hands the GIL from one thread to another in the ASGI server process.

The server runs every socket's frames on its event-loop thread and each action's database work on worker threads. A
thread that wants the GIL gets it when the holder blocks, or else after the switch interval (CPython's default:
5 ms). The event loop lets the GIL go at every system call (socket sends, polling); a worker thread busy in Python —
a hand's settlement is about 9 ms of ORM work — then keeps it for a whole interval, so the loop waits up to 5 ms per
call, many times over while one action settles, and every table on the process feels it (the "convoy effect"). A
short interval bounds each of those waits; the extra switches cost too little to show in the closed-loop rate.
"""

from __future__ import annotations

import sys

SWITCH_INTERVAL_SECONDS = 0.0005
"""``sys.setswitchinterval`` for the server (CPython's default is 0.005)."""


def thread_switching_tune() -> None:
    """Set :data:`SWITCH_INTERVAL_SECONDS` for this process; call once from the server's entry point."""
    sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)
