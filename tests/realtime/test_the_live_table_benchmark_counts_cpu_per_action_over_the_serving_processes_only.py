"""The live-table benchmark's CPU per action (issue 27: ≤ 2 ms over all the processes that serve the tables) sums the
site, the runtime owners, the ticker, the bench database's PostgreSQL backends and Redis, and nothing else: not the
bots, not the peers' servers, not the PostgreSQL server's own processes, not other sessions' backends on a shared
machine. A window without actions has no figure (None), not a division by zero or a 0.0."""

from __future__ import annotations

from pathlib import Path

from benchmarks.bench_tables import CpuMeter, cpu_per_action_ms


def test_cpu_per_action_sums_the_serving_roles_and_leaves_the_rest_out() -> None:
    cores = {
        "site": 0.25,
        "runtime": 0.40,
        "ticker": 0.05,
        "postgresql": 0.10,
        "redis": 0.05,
        "bots": 0.07,
        "echo": 0.30,
        "postgresql-server": 0.02,
        "other": 1.10,
    }
    assert cpu_per_action_ms(cores, 85.0) == 10.0  # 0.85 cores ÷ 85 actions/s
    assert cpu_per_action_ms(cores, 0.0) is None


def _process(directory: Path, title: str) -> str:
    directory.mkdir()
    (directory / "cmdline").write_bytes(title.replace(" ", "\0").encode())
    return str(directory)


def test_postgresql_processes_are_told_apart_by_their_database(tmp_path: Path) -> None:
    meter = CpuMeter({}, "poker_x_bench_42")
    ours = _process(tmp_path / "1", "postgres: postgres poker_x_bench_42 127.0.0.1(5012) idle")
    theirs = _process(tmp_path / "2", "postgres: postgres test_poker_other 127.0.0.1(5013) idle")
    server = _process(tmp_path / "3", "postgres: checkpointer ")
    assert meter.postgres_role(ours) == "postgresql"
    assert meter.postgres_role(theirs) == "other"
    assert meter.postgres_role(server) == "postgresql-server"
