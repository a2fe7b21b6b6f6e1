"""Warnings when a process's event loop stalls: a task that wakes every :data:`TICK_SECONDS` and logs each wake-up that
came more than ``EVENT_LOOP_STALL_MILLISECONDS`` late (0: not watched).

A stall of the loop that carries a web process's sockets or a runtime process's tables delays every action and
broadcast it carries at once; the log line's time places it against the latency tails an operator sees (issue 27:
the Sit & Go tables' tail came in bursts across many tables). One watch per loop: :func:`loop_stalls_watch_start`
returns the running one when called again on the same loop.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Callable
from typing import Final

from django.conf import settings

logger = logging.getLogger(__name__)

TICK_SECONDS: Final[float] = 0.005
"""How often the watch wakes: a stall is measured to within this."""

_watches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task[None]] = weakref.WeakKeyDictionary()


async def loop_stalls_watch(
    threshold_seconds: float, on_stall: Callable[[float], object], tick_seconds: float = TICK_SECONDS
) -> None:
    """Wake every ``tick_seconds`` and call ``on_stall`` with the lateness (seconds) of each wake-up more than
    ``threshold_seconds`` late; runs until cancelled. (The load benchmarks count their own loop's stalls with it.)"""
    while True:
        due = time.perf_counter() + tick_seconds
        await asyncio.sleep(tick_seconds)
        late = time.perf_counter() - due
        if late > threshold_seconds:
            on_stall(late)


def loop_stalls_watch_start(name: str) -> asyncio.Task[None] | None:
    """Start watching the running loop (once per loop) when ``EVENT_LOOP_STALL_MILLISECONDS`` is above 0; return the
    watch's task, or None when stalls are not watched."""
    threshold = int(settings.EVENT_LOOP_STALL_MILLISECONDS)
    if threshold <= 0:
        return None
    loop = asyncio.get_running_loop()
    running = _watches.get(loop)
    if running is not None and not running.done():
        return running

    def logged(late: float) -> None:
        logger.warning("the event loop of %s stalled %.1f ms", name, late * 1000)

    task = loop.create_task(loop_stalls_watch(threshold / 1000, logged), name=f"loop-stalls-{name}")
    _watches[loop] = task
    return task
