"""The product load benchmark (``benchmarks/bench_hexapro.py play``, issue 27) judges HexaPro games and Sit & Gos
against cash tables at the same number of tables: each product's p99 over the mean p99 of the two cash windows that
bracket them, within 1.2×, with the ratio's 95 % bootstrap interval deciding whether one run settles it; and a run
with a broken window (a socket not open, no action) is no figure: its problems
make the exit status 1. The run itself starts the whole site and is measured by hand; its arithmetic is tested here."""

from __future__ import annotations

import random
from typing import Any

from benchmarks.bench_hexapro import PRODUCT_P99_TARGET, products_summary, slowest_actions


def window(p99: float, *, problems: list[str] | None = None) -> dict[str, Any]:
    return {"actions_per_second": 25.0, "p50_ms": p99 / 4, "p99_ms": p99, "problems": problems or []}


def report(**windows: dict[str, Any]) -> dict[str, Any]:
    parts = {"cash_tables": window(100.0), "hexapro": window(100.0), "sit_and_gos": window(100.0)}
    parts["cash_tables_again"] = window(100.0)
    return {**parts, **windows}


def test_each_product_is_compared_with_the_mean_of_the_two_cash_windows() -> None:
    summary = products_summary(
        report(
            cash_tables=window(80.0), cash_tables_again=window(120.0), hexapro=window(110.0), sit_and_gos=window(150.0)
        )
    )

    assert summary["cash_p99_ms_mean"] == 100.0
    assert summary["hexapro"]["p99_over_cash"] == 1.1
    assert summary["hexapro"]["within_target"] is True
    assert summary["sit_and_gos"]["p99_over_cash"] == 1.5
    assert summary["sit_and_gos"]["within_target"] is False
    assert summary["problems"] == []


def test_a_product_exactly_at_the_target_is_within_it() -> None:
    summary = products_summary(report(hexapro=window(100.0 * PRODUCT_P99_TARGET)))

    assert summary["hexapro"]["within_target"] is True


def test_a_broken_window_of_any_part_is_a_problem_of_the_run() -> None:
    broken = ["Sit & Gos: 2 of 300 sockets were not open at the window's start"]

    summary = products_summary(report(sit_and_gos=window(90.0, problems=broken)))

    assert summary["problems"] == broken


def timed_window(latencies_ms: list[float]) -> dict[str, Any]:
    ordered = sorted(latencies_ms)
    p99 = ordered[int(0.99 * len(ordered))]
    return {**window(p99), "p50_ms": ordered[len(ordered) // 2], "latencies_ms": latencies_ms}


def latencies(count: int, seed: int, scale: float = 1.0) -> list[float]:
    rng = random.Random(seed)
    return [scale * rng.lognormvariate(2.5, 0.6) for _ in range(count)]


def test_a_product_as_fast_as_cash_over_long_windows_meets_the_target_with_its_interval() -> None:
    """A p99 ratio is judged with its 95 % bootstrap interval: long windows of one distribution decide "met"."""
    summary = products_summary(
        report(
            cash_tables=timed_window(latencies(6_000, 1)),
            cash_tables_again=timed_window(latencies(6_000, 2)),
            hexapro=timed_window(latencies(6_000, 3)),
            sit_and_gos=timed_window(latencies(6_000, 4, scale=2.0)),
        ),
        resamples=300,
    )

    low, high = summary["hexapro"]["p99_over_cash_95_percent_interval"]
    assert low < summary["hexapro"]["p99_over_cash"] < high <= PRODUCT_P99_TARGET
    assert summary["hexapro"]["verdict"] == "met"
    low, _high = summary["sit_and_gos"]["p99_over_cash_95_percent_interval"]
    assert low > PRODUCT_P99_TARGET
    assert summary["sit_and_gos"]["verdict"] == "missed"


def test_short_windows_leave_the_same_products_undecided() -> None:
    """300 actions a window (12 s of 50 tables): the p99 is the third slowest, and the interval spans the target."""
    summary = products_summary(
        report(
            cash_tables=timed_window(latencies(300, 1)),
            cash_tables_again=timed_window(latencies(300, 2)),
            hexapro=timed_window(latencies(300, 3)),
        )
    )

    low, high = summary["hexapro"]["p99_over_cash_95_percent_interval"]
    assert low < 1.0 < PRODUCT_P99_TARGET < high
    assert summary["hexapro"]["verdict"] == "undecided"


def test_a_window_without_its_latencies_gives_no_interval() -> None:
    summary = products_summary(report())

    assert summary["hexapro"]["p99_over_cash_95_percent_interval"] is None
    assert summary["hexapro"]["verdict"] == "no figure"


def test_a_product_window_lighter_than_the_cash_windows_gets_no_verdict() -> None:
    """Games that end during the window lower its actions per second: a lighter load is no evidence for the target."""
    lighter = {**timed_window(latencies(300, 3)), "actions_per_second": 0.85 * 25.0}
    summary = products_summary(
        report(
            cash_tables=timed_window(latencies(300, 1)),
            cash_tables_again=timed_window(latencies(300, 2)),
            hexapro=lighter,
        )
    )

    assert summary["hexapro"]["load_share_of_cash"] == 0.85
    assert summary["hexapro"]["verdict"] == "unequal load"


def test_the_slowest_actions_of_a_window_are_listed_with_their_moments_in_time_order() -> None:
    class Stats:
        latencies = [0.004, 0.050, 0.003, 0.020, 0.090, 0.030]
        latency_times = [100.5, 101.0, 101.2, 103.0, 104.0, 120.0]  # the last one after the window

    assert slowest_actions(Stats(), 100.0, 110.0, count=3) == [(1.0, 50.0), (3.0, 20.0), (4.0, 90.0)]


def test_every_products_window_is_measured_with_the_bots_collector_off(monkeypatch: Any) -> None:
    """The bots' process collects before a window, not in it: a full collection would stop every bot at once and
    count as the site's latency (issue 27's product comparison)."""
    import gc

    import benchmarks.bench_hexapro as bench

    seen: list[bool] = []

    def window_recorded(label: str, tables: int, seconds: float, stack: Any) -> dict[str, Any]:
        seen.append(gc.isenabled())
        return {}

    monkeypatch.setattr(bench, "cash_window", window_recorded)
    was_enabled = gc.isenabled()
    try:
        bench.play_part("cash", "cash tables", 1, 1.0, stack=None, seed=1)  # type: ignore[arg-type]
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()
    assert seen == [False]
