"""The HexaPro matching benchmark (benchmarks/bench_hexapro.py) runs small: registrations from concurrent clients over
ten buy-ins form every game at once, no player twice in a game, no registration lost or charged twice, every prize
pool multiplier × buy-in and the ledger reconciled (HEX-03, HEX-04, HEX-05, FEE-06). Its figures are checked for shape
only: timing targets belong to the benchmark, not to the tests."""

from __future__ import annotations

import pytest

from benchmarks.bench_hexapro import matching
from tournaments.hexapro.products import hexapro_products_seed


@pytest.mark.django_db(transaction=True)  # concurrent clients on their own connections see each other's commits
def test_the_matching_benchmark_forms_every_game_from_a_concurrent_burst() -> None:
    hexapro_products_seed()  # an earlier transactional test may have flushed what the data migration stored
    report = matching(60, 4, 6, seed=3)

    assert report["checks"] == {name: True for name in report["checks"]}
    assert report["problems"] == []
    assert report["errors"] == []
    assert report["outcomes"] == {"registered": 60}
    assert report["games_formed"] == 20
    assert report["serial_games_formed"] == 2
    assert report["burst_games_per_second"] > 0
