"""A request that finds no free database connection (the pool's wait ran out, or PostgreSQL is at max_connections)
answers 503 "busy" with Retry-After, as JSON on the API and as a bare page elsewhere, and /healthz says the database is
busy; any other database error is still a server error."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from django.db import OperationalError, connection
from django.test import Client
from psycopg_pool import PoolTimeout

from poker_site.core import health
from poker_site.core.busy import database_is_busy

pytestmark = pytest.mark.django_db


def raised_as_django_raises_it(error: Exception) -> OperationalError:
    """``error`` as Django hands it to a view: wrapped in ``django.db.OperationalError`` (``__cause__`` = ``error``)."""
    try:
        with connection.wrap_database_errors:
            raise error
    except OperationalError as wrapped:
        return wrapped
    raise AssertionError("not wrapped")


def pool_timeout() -> OperationalError:
    return raised_as_django_raises_it(PoolTimeout("couldn't get a connection after 3.00 sec"))


def raiser(error: Exception) -> Any:
    def raise_it(*_arguments: Any, **_keywords: Any) -> Any:
        raise error

    return raise_it


def test_busy_errors_are_recognised_through_django_s_wrapping() -> None:
    assert database_is_busy(pool_timeout())
    assert database_is_busy(raised_as_django_raises_it(psycopg.errors.TooManyConnections("too many clients")))
    refused = psycopg.OperationalError("connection failed: FATAL:  sorry, too many clients already")
    assert database_is_busy(raised_as_django_raises_it(refused)), "as psycopg reports a refused connection attempt"
    assert not database_is_busy(raised_as_django_raises_it(psycopg.OperationalError("server closed the connection")))
    assert not database_is_busy(ValueError("unrelated"))


def test_the_lobby_api_answers_503_busy_as_json(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("games.api.lobby.lobby_rows", raiser(pool_timeout()))
    response = client.get("/api/games/tables/")
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "busy"


def test_a_page_answers_503_busy_as_html(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("poker_site.core.views.render", raiser(pool_timeout()))
    response = client.get("/")
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    assert b"busy" in response.content


def test_another_database_error_is_not_disguised_as_busy(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    broken = raised_as_django_raises_it(psycopg.OperationalError("server closed the connection unexpectedly"))
    monkeypatch.setattr("games.api.lobby.lobby_rows", raiser(broken))
    with pytest.raises(OperationalError):  # the test client re-raises what would be a 500
        client.get("/api/games/tables/")


class BusyConnection:
    def cursor(self) -> Any:
        raise pool_timeout()


def test_healthz_reports_a_busy_database(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(health, "connection", BusyConnection())
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["database"].startswith("error: busy: no database connection free")
