"""Issue 27's latency windows: the bots measure action→broadcast on their own event loop, so a stall of that loop
delays every in-flight measurement at once and would pass for the site's latency. The meter counts such stalls per
window (``bots_loop_stalls``) beside the collector's pauses."""

from __future__ import annotations

import asyncio
import time

from benchmarks.bench_tables import LoopStalls


def test_a_loop_blocked_for_50_ms_is_counted_as_a_stall_of_at_least_that_length() -> None:
    async def window() -> dict[str, float] | None:
        stalls = LoopStalls()
        stalls.start()
        await asyncio.sleep(0.05)
        time.sleep(0.05)  # the loop blocked, as a heavy frame's handling would block it
        await asyncio.sleep(0.05)
        return stalls.report()

    report = asyncio.run(window())

    assert report is not None
    # At least: a machine under load may add stalls of its own (the soak runs beside CPU hogs).
    assert report["stalls_over_10_ms"] >= 1
    assert report["longest_ms"] >= 40
    assert report["total_ms"] >= report["longest_ms"]


def test_without_a_running_loop_there_is_nothing_to_report() -> None:
    stalls = LoopStalls()
    stalls.start()

    assert stalls.report() is None
