"""The product load benchmark (``benchmarks/bench_hexapro.py play``, issue 27) judges HexaPro games and Sit & Gos
against cash tables at the same number of tables: each product's p99 over the mean p99 of the two cash windows that
bracket them, within 1.2×; and a run with a broken window (a socket not open, no action) is no figure: its problems
make the exit status 1. The run itself starts the whole site and is measured by hand; its arithmetic is tested here."""

from __future__ import annotations

from typing import Any

from benchmarks.bench_hexapro import PRODUCT_P99_TARGET, products_summary


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
