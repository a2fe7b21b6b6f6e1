"""The suite runs in pytest-xdist workers (``make test``): each worker has its own test database and Redis key prefix
(so its cache keys, channel groups and Celery queues), and ``.venv/bin/pytest`` alone loads the run's environment."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from poker_site.embedded import PROJECT_DIRECTORY
from poker_site.pytest_plugin import worker_key_prefix
from tests.conftest import delete_redis_keys_of_this_run

PROBE = PROJECT_DIRECTORY / "tests" / "foundation" / "probes" / "worker_isolation_probe.py"


def test_a_worker_appends_its_id_to_the_runs_prefix_once() -> None:
    assert worker_key_prefix("test-41", None) == "test-41"
    assert worker_key_prefix("test-41", "gw1") == "test-41-gw1"
    assert worker_key_prefix("test-41-gw1", "gw1") == "test-41-gw1"


def test_a_worker_deletes_its_own_keys_and_not_those_of_a_worker_whose_id_begins_like_its_own(settings) -> None:
    import redis

    settings.REDIS_KEY_PREFIX = f"probe-{os.getpid()}-gw1"
    client = redis.Redis.from_url(settings.REDIS_URL)
    own, other = f"probe-{os.getpid()}-gw1:key", f"probe-{os.getpid()}-gw10:key"
    try:
        client.set(own, 1)
        client.set(other, 1)
        delete_redis_keys_of_this_run()
        assert client.exists(own) == 0
        assert client.exists(other) == 1
    finally:
        client.delete(own, other)
        client.close()


@pytest.mark.slow
def test_each_test_worker_has_its_own_database_and_redis_prefix(tmp_path: Path) -> None:
    """Two workers, started by ``.venv/bin/pytest`` itself (not ``python -m pytest``, which alone puts the checkout
    on the path): every test ran, on two workers, each with a database and prefixes no other worker has."""
    environment = {**os.environ, "POKER_PROBE_DIRECTORY": str(tmp_path)}
    environment.pop("REDIS_KEY_PREFIX", None)  # the run under test chooses its own
    environment.pop("PYTEST_XDIST_WORKER", None)
    # POKER_TEST_TEMPLATE_DATABASE stays: under xdist the run under test clones its workers' databases from this
    # run's migrated template instead of migrating one of its own (about 20 s of CPU); run alone, there is none.
    completed = subprocess.run(
        [
            str(Path(sys.executable).parent / "pytest"),
            "-n",
            "2",
            "--dist",
            "load",
            "-p",
            "no:randomly",
            "-q",
            str(PROBE),
        ],
        cwd=PROJECT_DIRECTORY,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]
    observations = [json.loads(path.read_text()) for path in sorted(tmp_path.glob("*.json"))]
    assert len(observations) == 6
    by_worker: dict[str, dict[str, str]] = {}
    for observation in observations:
        seen = by_worker.setdefault(observation.pop("worker"), observation)
        assert seen == observation  # one worker, one database and one set of prefixes
    assert sorted(by_worker) == ["gw0", "gw1"]
    first, second = by_worker.values()
    for name in ("redis_key_prefix", "database", "celery_key_prefix", "channel_layer_prefix"):
        assert first[name] != second[name], name
    assert all(seen["database"].startswith("test_poker_") for seen in by_worker.values())
