"""Not collected by the suite (no ``test_`` prefix): ``test_each_test_worker_has_its_own_database_and_redis_prefix``
runs this file in a pytest-xdist run of its own. Each test writes what its worker sees (worker id, Redis key prefix,
test database, Celery queue key prefix) to the directory named by POKER_PROBE_DIRECTORY, and checks that the
database answers and that its own Redis key is not another worker's."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest


@pytest.mark.django_db
@pytest.mark.parametrize("number", range(6))
def test_what_this_worker_sees(number: int) -> None:
    import redis
    from django.conf import settings
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        (database,) = cursor.fetchone()
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    client = redis.Redis.from_url(settings.REDIS_URL)
    key = f"{settings.REDIS_KEY_PREFIX}:probe-owner"
    client.set(key, worker, ex=300)
    assert client.get(key) == worker.encode()
    client.close()
    observation = {
        "worker": worker,
        "redis_key_prefix": settings.REDIS_KEY_PREFIX,
        "database": database,
        "celery_key_prefix": settings.CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"],
        "channel_layer_prefix": settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("prefix"),
    }
    Path(os.environ["POKER_PROBE_DIRECTORY"], f"{number}.json").write_text(json.dumps(observation))
