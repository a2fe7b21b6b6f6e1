"""``/healthz``: are the database, Redis and a Celery worker reachable? And how busy is the connection pool?"""

from __future__ import annotations

from typing import Any

from django.db import OperationalError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from poker_site.core.busy import database_is_busy

CELERY_PING_SECONDS = 1.0


def check_database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except OperationalError as error:
        if database_is_busy(error):
            raise RuntimeError(f"busy: no database connection free ({error})") from error
        raise
    return "ok"


def database_pool_state() -> dict[str, Any] | None:
    """This process's connection pool: its bounds, connections open and idle, requests waiting (None without one)."""
    pool = getattr(connection, "pool", None)
    if pool is None:
        return None
    statistics = pool.get_stats()
    return {
        "min_size": statistics.get("pool_min"),
        "max_size": statistics.get("pool_max"),
        "open": statistics.get("pool_size"),
        "idle": statistics.get("pool_available"),
        "waiting": statistics.get("requests_waiting"),
        "timeout_seconds": pool.timeout,
    }


def check_redis() -> str:
    import redis
    from django.conf import settings

    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
    try:
        client.ping()
    finally:
        client.close()
    return "ok"


def check_celery() -> str:
    from poker_site.celery import app

    replies = app.control.ping(timeout=CELERY_PING_SECONDS)
    if not replies:
        raise RuntimeError("no Celery worker answered")
    return "ok"


CHECKS = {"database": check_database, "redis": check_redis, "celery": check_celery}


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 with every check "ok", or 503 naming what failed (a busy connection pool fails the database check).

    HEAD is answered like GET without the body: load balancers and the launcher's readiness probe send it."""
    results: dict[str, str] = {}
    for name, check in CHECKS.items():
        try:
            results[name] = check()
        except Exception as error:
            results[name] = f"error: {error}"
    healthy = all(value == "ok" for value in results.values())
    body: dict[str, Any] = {"status": "ok" if healthy else "error", "checks": results}
    pool = database_pool_state()
    if pool is not None:
        body["database_pool"] = pool
    return JsonResponse(body, status=200 if healthy else 503)
