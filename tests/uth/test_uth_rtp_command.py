"""``manage.py uth_rtp`` prints the exact Trips return (96.50 %) and the simulated main-bet returns with confidence
intervals next to the published 97.82 % and 99.47 % (UTH-21)."""

from __future__ import annotations

import re
from io import StringIO

from django.core.management import call_command


def test_uth_21_uth_rtp_prints_the_exact_trips_return_and_simulated_main_bet_returns() -> None:
    output = StringIO()
    call_command("uth_rtp", "--rounds", "100000", "--seed", "5", "--workers", "1", stdout=output)
    text = output.getvalue()
    assert "Trips RTP: 96.50% (96.5021% = 129,104,860 / 133,784,560); published 96.50%: matches" in text
    assert "Royal Flush             4,324  pays 50:1" in text
    assert "Two Pair           31,433,400  loses" in text
    initial = re.search(
        r"per initial main bet \(Ante\): ([\d.]+)%  \(95% CI ([\d.]+)% – ([\d.]+)%\); "
        r"published 97.82% is (inside|OUTSIDE)",
        text,
    )
    total = re.search(
        r"per total main bet\s+: ([\d.]+)%  \(95% CI ([\d.]+)% – ([\d.]+)%\); "
        r"published 99.47% is (inside|OUTSIDE)",
        text,
    )
    assert initial is not None
    assert total is not None
    low, high = float(initial[2]), float(initial[3])
    assert low < float(initial[1]) < high
    assert high - low < 8  # 100,000 rounds: an interval of a few percent, not a rubber band
    assert "100,000 rounds, 1 process(es), seed 5" in text


def test_uth_rtp_can_run_the_exact_enumeration_alone() -> None:
    output = StringIO()
    call_command("uth_rtp", "--skip-simulation", stdout=output)
    assert "matches" in output.getvalue()
    assert "simulated" not in output.getvalue()
