"""Running a socket test's async scenario in an event loop of its own, so one test can never hang the run.

Each scenario gets a new loop and a new channel-layer instance: ``channels_redis`` keeps per-loop connection pools and
a receive lock and buffers that belong to the loop that made them, so a layer shared between tests' loops can carry a
lock or a half-finished receive from a closed loop into the next test. Afterwards every task the scenario left
behind (the communicator's application, a consumer's channel-layer receive) is cancelled and given a bounded time to
finish; a task that ignores cancellation is abandoned with the loop instead of blocking the test run for ever (as
``asyncio.run`` would: it waits without a limit for cancelled tasks).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from channels.layers import channel_layers

T = TypeVar("T")
logger = logging.getLogger(__name__)

LEFTOVER_TASKS_SECONDS = 10.0
"""How long tasks left running by a scenario get to finish after they are cancelled."""


def run_scenario(
    coroutine_function: Callable[[], Awaitable[T]],
    *,
    timeout: float,
    after: Callable[[], Awaitable[None]] | None = None,
) -> T:
    """Run ``coroutine_function()`` in a fresh loop with a fresh channel layer; fail after ``timeout`` seconds.

    ``after`` (e.g. closing the worker threads' database connections) runs in the loop when the scenario ends, passed
    or failed."""

    async def scenario() -> T:
        try:
            return await asyncio.wait_for(coroutine_function(), timeout=timeout)
        finally:
            if after is not None:
                await after()

    channel_layers.backends.clear()
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(scenario())
    finally:
        try:
            leftovers = [task for task in asyncio.all_tasks(loop) if not task.done()]
            for task in leftovers:
                task.cancel()
            if leftovers:
                _done, pending = loop.run_until_complete(asyncio.wait(leftovers, timeout=LEFTOVER_TASKS_SECONDS))
                if pending:
                    logger.warning("abandoned %d task(s) that ignored cancellation: %s", len(pending), pending)
            loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            loop.close()
            channel_layers.backends.clear()
