"""Print how fast this machine runs plain Python, so a test run's or a benchmark's time can be read against it.

    python scripts/machine_speed.py [--additions N] [--repeats R]

The figure is the CPU time of a loop of ten million additions (the best and the median of three loops: on a shared
machine one loop took 0.74 s and the next 1.20 s), the yardstick ``docs/test-suite.md`` and
``docs/benchmarks.md`` give each session's machine by (0.7 s on the fast machines seen here, 1.0-2.5 s on slower
ones). It is a rough guide only: the suite's own work (allocation, dictionaries, PostgreSQL) slowed by 2.5 times on
a machine whose loop took 1.0 to 1.7 times as long (``docs/test-suite.md``, twenty-third session).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

TEN_MILLION = 10_000_000


def seconds_for_additions(additions: int = TEN_MILLION) -> float:
    """CPU seconds (this process's) that a loop of ``additions`` integer additions takes, run at module level."""
    # At module level, as the figures in the docs were taken (``python -c`` with a loop): its names are dictionary
    # look-ups, about three times the cost of a function's local variables.
    loop = compile("total = 0\nfor number in range(additions):\n    total += number\n", "<additions>", "exec")
    started = time.process_time()
    exec(loop, {"additions": additions})
    return time.process_time() - started


def speed(additions: int = TEN_MILLION, repeats: int = 3) -> str:
    """``"<additions> additions in <best> s of CPU (median <median> s of <repeats>)"``."""
    times = [seconds_for_additions(additions) for _ in range(repeats)]
    return (
        f"{additions:,} additions in {min(times):.2f} s of CPU (median {statistics.median(times):.2f} s of {repeats})"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--additions", type=int, default=TEN_MILLION, help="loop length (default ten million)")
    parser.add_argument("--repeats", type=int, default=3, help="loops timed (default 3)")
    options = parser.parse_args(argv)
    if options.additions <= 0:
        parser.error("--additions must be a positive number")
    if options.repeats <= 0:
        parser.error("--repeats must be a positive number")
    print(f"machine speed: {speed(options.additions, options.repeats)} ({sys.executable})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
