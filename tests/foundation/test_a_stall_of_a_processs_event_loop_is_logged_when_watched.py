"""``EVENT_LOOP_STALL_MILLISECONDS`` (issue 27): the web and runtime processes log each stall of their event loop
longer than it, naming the loop, so an operator can set a latency tail against the moments the loop stood still.
Off (0, the default) nothing watches; one watch per loop however often it is asked for."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import pytest

from poker_site.core.loop_stalls import loop_stalls_watch_start


def test_a_stall_longer_than_the_threshold_is_logged_and_a_shorter_one_is_not(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.EVENT_LOOP_STALL_MILLISECONDS = 40

    async def main() -> None:
        watch = loop_stalls_watch_start("the loop under test")
        assert watch is not None
        assert loop_stalls_watch_start("asked again") is watch
        await asyncio.sleep(0.02)
        time.sleep(0.01)  # a short stall: under the threshold
        await asyncio.sleep(0.02)
        time.sleep(0.15)  # the loop stands still
        await asyncio.sleep(0.02)
        watch.cancel()

    with caplog.at_level(logging.WARNING, logger="poker_site.core.loop_stalls"):
        asyncio.run(main())
    stalls = [record.getMessage() for record in caplog.records if "stalled" in record.getMessage()]
    assert len(stalls) == 1
    assert stalls[0].startswith("the event loop of the loop under test stalled ")
    assert float(stalls[0].split()[-2]) >= 100


def test_nothing_watches_the_loop_when_the_setting_is_zero(settings: Any) -> None:
    settings.EVENT_LOOP_STALL_MILLISECONDS = 0

    async def main() -> object:
        return loop_stalls_watch_start("not watched")

    assert asyncio.run(main()) is None
