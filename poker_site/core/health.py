"""``/healthz``: is the database, Redis and at least one Celery worker reachable?"""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

CELERY_PING_SECONDS = 1.0


def check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


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
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 with every check "ok", or 503 naming what failed."""
    results: dict[str, str] = {}
    for name, check in CHECKS.items():
        try:
            results[name] = check()
        except Exception as error:
            results[name] = f"error: {error}"
    healthy = all(value == "ok" for value in results.values())
    return JsonResponse({"status": "ok" if healthy else "error", "checks": results}, status=200 if healthy else 503)
