"""Where players connect from (FRD-03): each log-in and each socket connect to a table is recorded with the IP address
and the device it came from, for the shared-connection indicator (FRD-19: the same address or device at the same
table or tournament) and the reviewer's player page.

The device is the browser's ``device`` cookie, a random identifier the site sets at log-in and keeps for two years
(:class:`compliance.middleware.DeviceCookieMiddleware`); the address is the client's as the log-in lock reads it
(``TRUSTED_PROXY_COUNT``). A socket at a tournament's table is recorded at the tournament (``"tournament:<id>"``), so
two accounts of one person at different tables of a tournament share the place (FRD-15).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest

from compliance.models import ConnectionKind, ConnectionRecord
from poker_site.accounts import throttle
from poker_site.core.compiled_sql import rows_insert

DEVICE_COOKIE = "device"
DEVICE_PATTERN = re.compile(r"^[0-9a-f]{32}$")
USER_AGENT_LENGTH = 300


def device_of(value: object) -> str:
    """The device identifier from a cookie value ("" unless it has the form the site gives it)."""
    return value if isinstance(value, str) and DEVICE_PATTERN.match(value) else ""


def device_id_for(request: HttpRequest) -> str:
    """The browser's device identifier; a new one if it has none (the middleware sets it as the cookie)."""
    existing = device_of(request.COOKIES.get(DEVICE_COOKIE))
    if existing:
        return existing
    if not getattr(request, "device_id", ""):
        request.device_id = secrets.token_hex(16)  # type: ignore[attr-defined]
    return str(request.device_id)  # type: ignore[attr-defined]


def address_of(request: HttpRequest) -> str | None:
    address = throttle.client_address(request)
    return None if address == throttle.UNKNOWN_ADDRESS else address


def connection_record(
    user_id: int, kind: str, *, place: str = "", ip: str | None = None, device: str = "", user_agent: str = ""
) -> ConnectionRecord:
    """Record one connection (a single row: in the caller's transaction, or on its own). Every socket opened at a
    table records one: the INSERT is built once per process (``rows_insert``), not by the ORM each time."""
    record = ConnectionRecord(
        user_id=user_id,
        kind=kind,
        place=place,
        ip=ip,
        device=device_of(device),
        user_agent=user_agent[:USER_AGENT_LENGTH],
    )
    rows_insert([record])
    return record


def log_in_record(request: HttpRequest, user_id: int) -> ConnectionRecord:
    """Record a log-in from ``request`` (its device: the cookie, or the one this response will set)."""
    return connection_record(
        user_id,
        ConnectionKind.LOG_IN,
        ip=address_of(request),
        device=device_id_for(request),
        user_agent=str(request.META.get("HTTP_USER_AGENT", "")),
    )


def _request_from_scope(scope: Mapping[str, Any]) -> HttpRequest:
    """An ``HttpRequest`` with the socket's client address and headers in ``META`` (for the address rules)."""
    request = HttpRequest()
    client = scope.get("client") or (None, None)
    request.META["REMOTE_ADDR"] = client[0] or ""
    for name, value in scope.get("headers") or ():
        key = name.decode("latin-1").upper().replace("-", "_")
        request.META[f"HTTP_{key}"] = value.decode("latin-1")
    return request


def place_of_table(table_id: int) -> str:
    """``"tournament:<id>"`` for a tournament's table, else ``"table:<id>"`` (the tournaments' own compiled look-up of a
    table's link, read on every socket opened)."""
    from tournaments.models import TournamentTable
    from tournaments.table_policy import table_link

    try:
        return f"tournament:{table_link(table_id).tournament_id}"
    except TournamentTable.DoesNotExist:
        return f"table:{table_id}"


def table_socket_record(scope: Mapping[str, Any], user_id: int, table_id: int) -> ConnectionRecord:
    """Record a player's socket connect to a table, from the socket's scope."""
    request = _request_from_scope(scope)
    cookies = scope.get("cookies") or {}
    return connection_record(
        user_id,
        ConnectionKind.TABLE_SOCKET,
        place=place_of_table(table_id),
        ip=address_of(request),
        device=cookies.get(DEVICE_COOKIE, ""),
        user_agent=str(request.META.get("HTTP_USER_AGENT", "")),
    )
