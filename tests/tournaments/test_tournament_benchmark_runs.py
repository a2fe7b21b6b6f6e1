"""The tournament benchmark (benchmarks/bench_tournament.py) runs small: a freezeout played to the end through the
services with every place given once, every prize paid and the ledger at zero (TRN-21, TRN-22, TRN-25, TRN-27,
FEE-04), and a registration burst from concurrent clients with no double registration and no lost fee (TRN-09).
Its figures are checked for shape only: timing targets belong to the benchmark, not to the tests."""

from __future__ import annotations

import pytest

from benchmarks.bench_tournament import HAND_WORK, TOURNAMENT_WORK, burst, freezeout, sweep


@pytest.mark.django_db(transaction=True)  # the after-commit hooks (prize credits) run as in production
def test_the_freezeout_benchmark_plays_30_entrants_to_the_end_with_every_check_passing() -> None:
    report = freezeout(30, level_seconds=60, break_every=2, cash_hands=6, cash_tables=2, seed=11)

    assert report["checks"] == {name: True for name in report["checks"]}
    assert report["problems"] == []
    assert report["entrants"] == 30
    assert report["tables_at_start"] == 4
    assert report["hands"] > 0
    assert report["actions"] >= report["hands"]
    assert report["largest_spread_after_balancing"] <= 1
    assert report["tables_broken"] >= 3  # four tables down to the last one
    assert report["balancing_moves"] > 0
    assert set(TOURNAMENT_WORK) | set(HAND_WORK) <= set(report["seconds"])
    assert 0 < report["tournament_work_share"] < report["tournament_work_share_with_registration"] < 1
    assert 0 < report["hand_work_share"] < 1
    assert report["calls"]["registration"] == 30
    assert report["calls"]["start"] == 1
    assert report["calls"]["prizes"] == report["paid_places"] > 1
    peer = report["cash_peer"]
    assert peer["hands"] >= 6
    assert peer["hands_per_second_of_hand_work"] > 0


@pytest.mark.django_db(transaction=True)
def test_the_registration_burst_registers_each_player_once_from_concurrent_clients() -> None:
    report = burst(20, 4, serial=5)

    assert report["outcomes"] == {"registered": 20, "refused_already_registered": 20}
    assert report["errors"] == []
    checks = {name: passed for name, passed in report["checks"].items() if name != "within_a_minute"}
    assert checks == {name: True for name in checks}
    assert report["problems"] == []
    assert report["sends"] == 40
    assert report["serial_registrations"] == 5
    assert report["burst_registrations_per_second"] > 0


@pytest.mark.django_db
def test_the_sweep_benchmark_starts_the_sit_and_gos_it_counts_and_times_each_sweep() -> None:
    """The sweep's figure is per running tournament: the Sit & Gos it makes are all started (one table each), and the
    counts are cumulative (the second row holds the first row's tournaments too). Each row times a sweep that finds
    them all due and one that finds none due (the benchmark raises when the sweeps looked at any other number)."""
    report = sweep((1, 3), sweeps=1)

    assert [row["running_tournaments"] for row in report["sweeps"]] == [1, 3]
    assert all(row["sweep_cpu_ms"] > 0 and row["cpu_ms_per_tournament"] > 0 for row in report["sweeps"])
    assert all(0 <= row["idle_sweep_cpu_ms"] < row["sweep_cpu_ms"] for row in report["sweeps"])
    assert report["safety_interval_seconds"] == 30


@pytest.mark.django_db(transaction=True)
def test_the_freezeout_coordinated_as_the_site_does_plays_to_the_end_with_fewer_coordinations_than_hands() -> None:
    """``--as-production``: a hand end asks for the coordinator only when its table waits (a knock-out, several tables,
    hand-for-hand, a break due), after the site's coordination window, and the hand ends within the window share one
    coordination; a step only when the beat's sweep finds the tournament due; the same checks hold (issue 27)."""
    report = freezeout(
        30,
        level_seconds=60,
        break_every=2,
        cash_hands=6,
        cash_tables=2,
        seed=11,
        as_production=True,
        action_seconds=0.1,  # a pass over the tables takes 0.1 s: a window of one second spans several hand ends
    )

    assert report["checks"] == {name: True for name in report["checks"]}
    assert report["problems"] == []
    assert report["settings"]["as_production"] is True
    assert report["tables_broken"] >= 3
    assert 0 < report["calls"]["coordination"] < report["hands"]
    assert report["calls"]["coordination"] < report["coordinations_asked_by_hand_ends"]  # shared windows
