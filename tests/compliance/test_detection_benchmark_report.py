"""FRD-19: the detection benchmark (benchmarks/bench_detection.py) runs on a few thousand hands and reports, per
indicator, planted cases, recall, honest players and false flags, and the speeds (the figures themselves are measured
on 200,000 hands and recorded in docs/benchmarks.md; no timing is checked here)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def benchmark_module() -> Any:
    """``benchmarks/bench_detection.py``, imported as the script imports its neighbours (its folder on the path)."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import bench_detection
    finally:
        sys.path.remove(str(BENCHMARKS))
    return bench_detection


def test_a_small_run_reports_every_indicator_with_recall_false_flags_and_speeds() -> None:
    bench_detection = benchmark_module()
    report = bench_detection.run(3_000, seed=19, hands_per_round=100, with_peer=False)
    assert report["hands"] == 3_000
    assert set(report["indicators"]) == {
        "chip_dumping",
        "net_flow",
        "soft_play",
        "giving_way",
        "pair_evidence",
        "shared_connection",
        "coordinated_entry",
        "counter_use",
        "bot_timing",
        "sitting_out_together",
    }
    for row in report["indicators"].values():
        assert set(row) >= {"planted", "flagged", "recall", "honest_players", "honest_flagged", "false_flag_rate"}
        assert 0 <= row["flagged"] <= row["planted"]
        assert row["honest_players"] == report["population"]["honest"] + 2 * report["population"]["friend_pairs"]
        assert 0.0 <= row["false_flag_rate"] <= 1.0
    assert report["indicators"]["counter_use"]["planted"] == report["population"]["counter_abusers"]
    bots = report["indicators"]["bot_timing"]
    assert bots["planted_in_population"] == report["population"]["bots"]
    # Judged over the bots whose behaviour these 3,000 hands could show (enough timed decisions or a marathon
    # session past the limit): in so few hands of a 579-player room, not all of them.
    assert bots["planted"] < bots["planted_in_population"]
    sharing = report["indicators"]["shared_connection"]
    assert sharing["planted"] <= sharing["planted_in_population"]
    assert report["indicators"]["sitting_out_together"]["planted"] > 0  # TRN-32: colluding pairs sitting out together
    speed = report["speed"]
    assert speed["detection_hands_per_second"] > 0
    assert speed["simulation_hands_per_second"] > 0
    assert report["state_bytes"] > 0
    assert set(report["behaviours"]) == {"colluding_pairs", "dumping_pairs", "honest"}
    colluding = report["behaviours"]["colluding_pairs"]
    assert colluding["planted_in_population"] == report["population"]["colluding_pairs"]
    # Judged over the pairs dealt into a hand together (no pair statistic sees a pair that never met).
    assert 0 < colluding["planted"] <= colluding["planted_in_population"]
    assert colluding["flagged"] <= colluding["planted"]


def test_the_second_generator_reports_planted_pairs_found_by_any_pair_indicator_and_honest_players_flagged() -> None:
    """Issue 31: a second, independent room (benchmarks/second_room.py) with 8 colluding and 8 dumping pairs among
    120 players; its report has the same rows, and the targets are judged per planted behaviour."""
    bench_detection = benchmark_module()
    report = bench_detection.run_second(2_000, seed=31)
    assert report["hands"] == 2_000
    assert report["players"] == 120
    assert set(report["indicators"]) == {
        "chip_dumping",
        "net_flow",
        "soft_play",
        "giving_way",
        "pair_evidence",
        "coordinated_entry",
    }
    assert report["indicators"]["coordinated_entry"]["planted"] == 16  # colluders and dumpers join tables together
    assert report["table_entries"]["connections"] > 0
    behaviours = report["behaviours"]
    assert behaviours["colluding_pairs"]["planted_in_population"] == 8
    assert behaviours["colluding_pairs"]["planted"] <= 8
    assert behaviours["honest"]["honest_players"] == 88
    assert 0 <= behaviours["dumping_pairs"]["flagged"] <= behaviours["dumping_pairs"]["planted"] <= 8
    misses = bench_detection.target_misses(report)
    assert all(isinstance(miss, str) for miss in misses)
