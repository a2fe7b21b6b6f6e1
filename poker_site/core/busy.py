"""Answers 503 "busy, try again" (never 500, never a wait without end) when the web process has no room for a request.

Two limits, each answered the same way (:func:`busy_body`, with ``Retry-After``): the request changed nothing, so
clients and proxies may simply retry.

**Requests in flight** (:class:`RequestAdmission`, ASGI): daphne runs each HTTP request in a thread of its own, so a
burst of a thousand requests meant a thousand threads taking turns on two cores, and every answer, 503s included, came
after seconds. At most ``WEB_MAX_CONCURRENT_REQUESTS`` requests of a process are inside Django at once; the next is
answered at once from the event loop, without a thread or the database.

**Database connections** (:class:`DatabaseBusyMiddleware`): each process borrows connections from a bounded pool
(``DATABASE_POOL``, see settings). When every connection is lent out for ``DATABASE_POOL_TIMEOUT`` seconds,
psycopg_pool raises ``PoolTimeout`` (or ``TooManyRequests`` when more than ``DATABASE_POOL_MAX_WAITING`` requests
already wait); Django wraps it in its own ``OperationalError``. PostgreSQL refusing a new session at its
``max_connections`` (SQLSTATE 53300) is the same condition one level down. The middleware answers for exceptions from
views, DRF's included (DRF re-raises what it does not handle). That covers every request: the site's middleware reads
the session and user lazily, so a request first asks for a connection inside its view (or the template it renders),
and keeps that connection until it has answered.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg
from django.http import HttpRequest, HttpResponse
from django.utils.html import escape
from django.utils.translation import gettext
from psycopg_pool import PoolTimeout, TooManyRequests

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 2

SERVER_FULL_WORDS = ("too many clients already", "remaining connection slots are reserved")
"""PostgreSQL's words when it refuses a session at ``max_connections`` (SQLSTATE 53300)."""


def database_is_busy(error: BaseException | None) -> bool:
    """Whether ``error`` (or an exception it was raised from) says no database connection could be had right now."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, PoolTimeout | TooManyRequests | psycopg.errors.TooManyConnections):
            return True
        # A refused connection attempt comes as a plain OperationalError; only its message names the cause.
        if isinstance(error, psycopg.OperationalError) and any(words in str(error) for words in SERVER_FULL_WORDS):
            return True
        error = error.__cause__ or error.__context__
    return False


def wants_json(path: str, accept: str) -> bool:
    return path.startswith("/api/") or "application/json" in accept


def busy_body(path: str, accept: str) -> tuple[str, bytes]:
    """The content type and body of a busy answer: JSON (``{"detail", "code": "busy"}``, DRF's shape) for the API,
    a bare page otherwise (no template: the site's base template reads the user and balance from the database)."""
    message = gettext("The site is busy right now. Please try again in a moment.")
    if wants_json(path, accept):
        return "application/json", json.dumps({"detail": message, "code": "busy"}).encode()
    title = escape(gettext("Busy"))
    page = (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{title}</title></head>'
        f"<body><h1>{title}</h1><p>{escape(message)}</p></body></html>"
    )
    return "text/html; charset=utf-8", page.encode()


BUSY_HEADERS = {"Retry-After": str(RETRY_AFTER_SECONDS), "Cache-Control": "no-store"}


def busy_response(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After, in the request's language (:func:`busy_body`)."""
    content_type, body = busy_body(request.path, request.headers.get("Accept", ""))
    response = HttpResponse(body, content_type=content_type, status=503)
    for name, value in BUSY_HEADERS.items():
        response[name] = value
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


Scope = dict[str, Any]
Receive = Callable[[], Awaitable[Any]]
Send = Callable[[Any], Awaitable[None]]
Application = Callable[[Any, Any, Any], Awaitable[None]]


class RequestAdmission:
    """ASGI middleware: at most ``limit`` HTTP requests inside ``application`` at once (0: no limit); the next one is
    answered 503 busy at once. Sockets (and their database calls, which run in a bounded thread pool) pass through.
    One event loop runs it, so the counter needs no lock."""

    def __init__(self, application: Application, limit: int) -> None:
        self.application = application
        self.limit = limit
        self.in_flight = 0
        self.turned_away = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.limit:
            await self.application(scope, receive, send)
            return
        if self.in_flight >= self.limit:
            self.turned_away += 1
            await self.answer_busy(scope, send)
            return
        self.in_flight += 1
        try:
            await self.application(scope, receive, send)
        finally:
            self.in_flight -= 1

    @staticmethod
    async def answer_busy(scope: Scope, send: Send) -> None:
        headers = dict(scope.get("headers") or [])
        accept = headers.get(b"accept", b"").decode("latin-1")
        content_type, body = busy_body(str(scope.get("path", "")), accept)
        response_headers = [(b"content-type", content_type.encode()), (b"content-length", str(len(body)).encode())]
        response_headers += [(name.lower().encode(), value.encode()) for name, value in BUSY_HEADERS.items()]
        await send({"type": "http.response.start", "status": 503, "headers": response_headers})
        await send({"type": "http.response.body", "body": body})
