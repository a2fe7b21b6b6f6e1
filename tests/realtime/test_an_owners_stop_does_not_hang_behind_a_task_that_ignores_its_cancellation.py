"""A table owner's stop (SIGTERM to ``run_tables``; issue 27) waits a bounded time for each cancelled task to end, then
logs what it still waits on, with the task's stack, and goes on to cancel the hands in progress and release the leases
(CASH-23: the hands are rolled back; another process takes the tables over). A stop once waited over 120 s in a test
with its event loop idle; a stop must never hang behind one coroutine."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator

import pytest

from games.runtime import owner as owner_module
from games.runtime.owner import TableOwner


async def ignores_its_cancellation(release: asyncio.Event) -> None:
    """A coroutine that swallows every cancellation until ``release`` is set (the fault the bound protects against)."""
    while not release.is_set():
        try:
            await release.wait()
        except asyncio.CancelledError:
            continue


@pytest.fixture
def owner() -> Iterator[TableOwner]:
    """An owner that never ran: only its clients and thread pools to close after the test."""
    made = TableOwner("stop-under-test")
    try:
        yield made
    finally:
        made.lease_client.close()
        made.database_pool.shutdown(wait=True)
        made.lease_pool.shutdown(wait=True)


def test_a_stop_logs_a_task_that_will_not_end_and_goes_on(
    owner: TableOwner, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(owner_module, "STOP_WAIT_SECONDS", 0.3)

    async def stop_with_a_stubborn_task() -> float:
        release = asyncio.Event()
        stubborn = asyncio.create_task(ignores_its_cancellation(release), name="table-stubborn")
        ended = asyncio.create_task(asyncio.sleep(3600), name="table-obedient")
        await asyncio.sleep(0)
        stubborn.cancel()
        ended.cancel()
        started = time.monotonic()
        await owner._wait_for_the_end_of([stubborn, ended])
        waited = time.monotonic() - started
        assert ended.cancelled()
        assert not stubborn.done()  # still running: the stop went on without it
        release.set()
        await stubborn
        return waited

    with caplog.at_level(logging.ERROR, logger="games.runtime.owner"):
        waited = asyncio.run(stop_with_a_stubborn_task())

    assert waited < 5
    messages = [record.getMessage() for record in caplog.records]
    assert any(
        "table-stubborn did not end" in message and "ignores_its_cancellation" in message for message in messages
    )
    assert not any("table-obedient" in message for message in messages)


def test_a_stop_whose_tasks_end_at_once_logs_nothing(owner: TableOwner, caplog: pytest.LogCaptureFixture) -> None:

    async def stop() -> None:
        task = asyncio.create_task(asyncio.sleep(3600), name="table-obedient")
        await asyncio.sleep(0)
        task.cancel()
        await owner._wait_for_the_end_of([task])
        assert task.cancelled()

    with caplog.at_level(logging.ERROR, logger="games.runtime.owner"):
        asyncio.run(stop())
    assert not caplog.records
