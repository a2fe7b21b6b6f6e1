"""/healthz reports database, Redis and Celery worker reachability with the right status."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.test import Client

from poker_site.embedded import PROJECT_DIRECTORY

pytestmark = pytest.mark.django_db


def test_without_a_celery_worker_the_site_is_unhealthy(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["redis"] == "ok"
    assert body["checks"]["celery"].startswith("error: no Celery worker answered")


def test_an_unreachable_redis_makes_the_site_unhealthy(client: Client, settings: object) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # type: ignore[attr-defined]
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["redis"].startswith("error:")


@pytest.fixture
def celery_worker() -> Iterator[subprocess.Popen[bytes]]:
    environment = {**os.environ, "REDIS_KEY_PREFIX": settings.REDIS_KEY_PREFIX}
    worker = subprocess.Popen(
        [
            os.path.join(os.path.dirname(sys.executable), "celery"),
            "-A",
            "poker_site",
            "worker",
            "--pool",
            "solo",
            "--loglevel",
            "WARNING",
            "--hostname",
            f"healthz-test-{os.getpid()}@%h",
        ],
        cwd=PROJECT_DIRECTORY,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    yield worker
    worker.terminate()
    worker.wait(timeout=30)


@pytest.mark.slow
@pytest.mark.live  # a Celery worker in a subprocess
def test_with_a_worker_running_the_site_is_healthy(client: Client, celery_worker: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    response = client.get("/healthz")
    while response.status_code != 200 and time.monotonic() < deadline:
        time.sleep(0.5)
        response = client.get("/healthz")
    assert response.status_code == 200, response.json()
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "redis": "ok", "celery": "ok"}}


@pytest.mark.slow
@pytest.mark.live  # a Celery worker in a subprocess
def test_a_worker_that_stopped_is_reported(client: Client, celery_worker: subprocess.Popen[bytes]) -> None:
    """The tournaments' clocks and payouts run on the Celery worker: /healthz says when none answers any more."""
    deadline = time.monotonic() + 60
    while client.get("/healthz").status_code != 200 and time.monotonic() < deadline:
        time.sleep(0.5)
    assert client.get("/healthz").status_code == 200
    celery_worker.terminate()
    celery_worker.wait(timeout=30)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["celery"].startswith("error: no Celery worker answered")
