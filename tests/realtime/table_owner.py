"""An owner loop (``games.runtime.owner.TableOwner``) running in a thread of the test process, on this run's test
database and Redis, for the in-process tests of table actors (issue 27)."""

from __future__ import annotations

import asyncio
import io
import random
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from games.runtime.owner import TableOwner


@contextmanager
def table_owner_running(process_id: str = "owner-under-test", seed: int = 7) -> Iterator[TableOwner]:
    """Run a :class:`TableOwner` (claim scans every 0.2 s, seeded decks) until the block ends; then stop it as SIGTERM
    does (hands in progress cancelled, leases released)."""
    decks = random.Random(seed)
    owner = TableOwner(process_id, scan_seconds=0.2, shuffler=lambda: random.Random(decks.random()))
    started = threading.Event()
    handles: dict[str, Any] = {}
    failure: list[BaseException] = []

    async def main() -> None:
        stop = asyncio.Event()
        handles["loop"], handles["stop"] = asyncio.get_running_loop(), stop
        started.set()
        await owner.run(stop)

    def thread_main() -> None:
        try:
            asyncio.run(main())
        except BaseException as error:  # reported by the test, not lost in the thread
            failure.append(error)
            started.set()

    thread = threading.Thread(target=thread_main, name=process_id, daemon=True)
    thread.start()
    assert started.wait(30), "the owner loop did not start"
    try:
        yield owner
    finally:
        if "loop" in handles:
            handles["loop"].call_soon_threadsafe(handles["stop"].set)
        thread.join(120)
        assert not thread.is_alive(), (
            f"the owner loop did not stop:\n{threads_where_they_are(process_id, handles.get('loop'))}"
        )
    if failure:
        raise failure[0]


def threads_where_they_are(process_id: str, loop: asyncio.AbstractEventLoop | None = None) -> str:
    """The stacks of the owner loop's thread and of its database and lease threads, and of every task of the owner's
    event loop (what a coroutine awaits: an idle loop's thread shows only its ``select``), for a stop that hangs."""
    names = {thread.ident: thread.name for thread in threading.enumerate()}
    stacks = []
    if loop is not None:
        # Read from this thread while the loop idles in its select: a diagnosis only, after the stop timed out.
        for task in list(asyncio.all_tasks(loop)):
            written = io.StringIO()
            task.print_stack(file=written)
            stacks.append(f"--- task {task.get_name()}\n{written.getvalue()}")
    for ident, frame in sys._current_frames().items():
        name = names.get(ident, "")
        if name == process_id or name.startswith(("table-db", "table-leases")):
            stacks.append(f"--- {name}\n" + "".join(traceback.format_stack(frame)))
    return "\n".join(stacks) or "(no such thread)"


def wait_for(condition: Callable[[], Any], what: str, timeout: float = 120.0) -> Any:
    """Poll ``condition`` until it returns something true; return it. The timeout is for a real fault only: on a
    starved machine (the suite beside CPU hogs) a claim scan every 0.2 s can take seconds (issue 26)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout} s"
        time.sleep(0.05)
