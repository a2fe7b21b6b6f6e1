"""``manage.py uth_rtp`` prints the exact Trips return (96.50 %), the exact main-bet returns of the basic strategy next
to the published perfect-play 97.82 % and 99.47 %, and a simulated cross-check whose confidence interval holds them
(UTH-21)."""

from __future__ import annotations

import re
from dataclasses import replace
from io import StringIO

import pytest
from django.core.management import call_command

from games.engine.uth.main_bet_exact import RECORDED_BASIC_STRATEGY_TOTALS, MainBetTotals
from games.uth.management.commands import uth_rtp

EXACT_ANTE_LINE = (
    "per initial main bet (Ante): 97.6186% ± 0.0000% (exact); published 97.82% (perfect play); "
    "the basic strategy gives up 0.2014%"
)
EXACT_TOTAL_LINE = (
    "per total main bet       : 99.4280% ± 0.0000% (exact); published 99.47% (perfect play); "
    "the basic strategy gives up 0.0420%"
)


def test_uth_21_uth_rtp_prints_the_exact_returns_and_a_simulation_that_agrees_with_them() -> None:
    output = StringIO()
    call_command("uth_rtp", "--rounds", "100000", "--seed", "5", "--workers", "1", "--skip-enumeration", stdout=output)
    text = output.getvalue()
    assert "Trips RTP: 96.50% (96.5021% = 129,104,860 / 133,784,560); published 96.50%: matches" in text
    assert "Royal Flush             4,324  pays 50:1" in text
    assert "Two Pair           31,433,400  loses" in text
    assert "the recorded totals of the count of all 27,813,810,024,000 deals" in text
    assert EXACT_ANTE_LINE in text
    assert EXACT_TOTAL_LINE in text
    initial = re.search(
        r"per initial main bet \(Ante\): ([\d.]+)%  \(95% CI ([\d.]+)% – ([\d.]+)%\); "
        r"the exact 97.6186% is (inside|OUTSIDE) the interval",
        text,
    )
    total = re.search(
        r"per total main bet\s+: ([\d.]+)%  \(95% CI ([\d.]+)% – ([\d.]+)%\); "
        r"the exact 99.4280% is (inside|OUTSIDE) the interval",
        text,
    )
    assert initial is not None
    assert total is not None
    low, high = float(initial[2]), float(initial[3])
    assert low < float(initial[1]) < high
    assert high - low < 8  # 100,000 rounds: an interval of a few percent, not a rubber band
    assert initial[4] == "inside"
    assert total[4] == "inside"
    assert "100,000 rounds, 1 process(es), seed 5" in text


def test_uth_rtp_counts_every_deal_unless_told_to_show_the_recorded_totals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --skip-enumeration the command counts (here a stand-in count that differs from the recorded one, so the
    printed figures are seen to come from the count and the difference is reported)."""
    counted = replace(RECORDED_BASIC_STRATEGY_TOTALS, folds=RECORDED_BASIC_STRATEGY_TOTALS.folds + 1_000_000_000)
    workers_used: list[int] = []

    def stand_in_count(workers: int) -> MainBetTotals:
        workers_used.append(workers)
        return counted

    monkeypatch.setattr(uth_rtp, "basic_strategy_totals", stand_in_count)
    output = StringIO()
    call_command("uth_rtp", "--skip-simulation", "--workers", "2", stdout=output)
    text = output.getvalue()
    assert workers_used == [2]
    assert "counting all 27,813,810,024,000 deals" in text
    assert "the totals are DIFFERENT FROM the recorded ones" in text
    assert f"per initial main bet (Ante): {float(counted.return_per_ante()) * 100:.4f}% ± 0.0000% (exact)" in text
    assert EXACT_ANTE_LINE not in text
    assert "simulated" not in text

    monkeypatch.setattr(uth_rtp, "basic_strategy_totals", lambda workers: RECORDED_BASIC_STRATEGY_TOTALS)
    output = StringIO()
    call_command("uth_rtp", "--skip-simulation", stdout=output)
    assert "the totals are equal to the recorded ones" in output.getvalue()
    assert EXACT_ANTE_LINE in output.getvalue()


def test_uth_rtp_can_show_the_exact_figures_alone() -> None:
    output = StringIO()
    call_command("uth_rtp", "--skip-simulation", "--skip-enumeration", stdout=output)
    assert "matches" in output.getvalue()
    assert EXACT_ANTE_LINE in output.getvalue()
    assert "simulated" not in output.getvalue()
