"""A request that finds no free database connection answers 503 "busy, try again", never 500.

Each process borrows connections from a bounded pool (``DATABASE_POOL``, see settings). When every connection is lent
out for ``DATABASE_POOL_TIMEOUT`` seconds, psycopg_pool raises ``PoolTimeout`` (or ``TooManyRequests`` when more than
``DATABASE_POOL_MAX_WAITING`` requests already wait); Django wraps it in its own ``OperationalError``. PostgreSQL
refusing a new session at its ``max_connections`` (SQLSTATE 53300) is the same condition one level down. The request
changed nothing (it never reached the database), so the honest answer is 503 with ``Retry-After``, which clients and
proxies know to retry.

:class:`DatabaseBusyMiddleware` answers for exceptions from views, DRF's included (DRF re-raises what it does not
handle). That covers every request: the site's middleware reads the session and user lazily, so a request first asks
for a connection inside its view (or the template it renders), and keeps that connection until it has answered.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import psycopg
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.html import escape
from django.utils.translation import gettext
from psycopg_pool import PoolTimeout, TooManyRequests

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 2


def database_is_busy(error: BaseException | None) -> bool:
    """Whether ``error`` (or an exception it was raised from) says no database connection could be had right now."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, PoolTimeout | TooManyRequests | psycopg.errors.TooManyConnections):
            return True
        error = error.__cause__ or error.__context__
    return False


def wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", "")


def busy_response(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After: JSON (``{"detail", "code": "busy"}``, DRF's shape) for the API, a bare page otherwise.

    The page renders no template: the site's base template reads the user and balance, which need the database."""
    message = gettext("The site is busy right now. Please try again in a moment.")
    response: HttpResponse
    if wants_json(request):
        response = JsonResponse({"detail": message, "code": "busy"}, status=503)
    else:
        title = escape(gettext("Busy"))
        response = HttpResponse(
            f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{title}</title></head>'
            f"<body><h1>{title}</h1><p>{escape(message)}</p></body></html>",
            status=503,
        )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseBusyMiddleware:
    """Turns a view's "no database connection free" error into :func:`busy_response`; other errors pass on."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not database_is_busy(exception):
            return None
        logger.warning("database busy, answered 503 to %s %s: %s", request.method, request.path, exception)
        return busy_response(request)
