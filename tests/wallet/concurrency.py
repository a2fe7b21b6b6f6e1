"""Run a function in many threads at once, each with its own database connection."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from django.db import connection

T = TypeVar("T")


def run_simultaneously(work: list[Callable[[], T]], *, timeout: float = 60.0) -> list[T | BaseException]:
    """Start every callable on its own thread behind a barrier and return each result or the exception it raised."""
    barrier = threading.Barrier(len(work))
    results: list[T | BaseException] = [RuntimeError("did not finish")] * len(work)

    def run(index: int, job: Callable[[], T]) -> None:
        try:
            barrier.wait(timeout=timeout)
            results[index] = job()
        except BaseException as error:  # handed back to the test to assert on
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(index, job)) for index, job in enumerate(work)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
        assert not thread.is_alive(), "a worker thread hung (deadlock?)"
    return results
