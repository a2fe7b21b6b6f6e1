"""A socket opens only from the site's own origins, compared by scheme, host *and* port: a page served by another
program on the same host (``http://127.0.0.1:9999``) cannot open the table, lobby or UTH socket with a player's cookie
and have its commands obeyed (the hardening issue, item 5). The site's own origin and CSRF_TRUSTED_ORIGINS are
accepted."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async

from poker_site.core.socket_origins import origin_allowed, parse_origin
from tests.realtime.conftest import make_table, make_user, run, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

SITE_HOST = b"127.0.0.1:8000"


async def handshake(path: str, origin: bytes, cookie: bytes) -> tuple[bool, dict[str, Any]]:
    """Connect with the given Origin (Host is the site's); whether it opened, and the first frame it got."""
    from channels.testing import WebsocketCommunicator

    from poker_site.asgi import application

    headers = [(b"origin", origin), (b"host", SITE_HOST), (b"cookie", cookie)]
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, close_code = await communicator.connect(timeout=30)
    if not connected:  # the handshake was answered with a close: nothing reached a consumer
        return False, {"type": "websocket.close", "code": close_code}
    first = await communicator.receive_output(10)
    await communicator.disconnect()
    return True, first


def test_a_page_on_another_port_of_the_same_host_cannot_open_any_socket() -> None:
    table = make_table()
    alice = make_user("alice")

    async def scenario() -> None:
        cookie = await database_sync_to_async(session_cookie)(alice)
        for path in (f"/ws/tables/{table.pk}/", "/ws/lobby/", "/ws/uth/999999/"):
            connected, first = await handshake(path, b"http://127.0.0.1:9999", cookie)
            assert not connected, path
            assert first["type"] == "websocket.close", path

    run(scenario)


def test_the_sites_own_origin_opens_the_sockets_with_the_players_session() -> None:
    table = make_table()
    alice = make_user("alice")

    async def scenario() -> None:
        cookie = await database_sync_to_async(session_cookie)(alice)
        connected, first = await handshake(f"/ws/tables/{table.pk}/", b"http://127.0.0.1:8000", cookie)
        assert connected
        snapshot = json.loads(first["text"])
        assert snapshot["type"] == "snapshot"
        assert snapshot["snapshot"]["viewer"]["user_id"] == alice.pk, "the player's session came with the socket"
        connected, _ = await handshake("/ws/lobby/", b"http://127.0.0.1:8000", cookie)
        assert connected
        connected, first = await handshake("/ws/uth/999999/", b"http://127.0.0.1:8000", cookie)
        assert connected
        assert json.loads(first["text"])["code"] == "table_not_found"

    run(scenario)


def scope(origin: str | None, host: str | None = "127.0.0.1:8000", scheme: str = "ws", **extra: str) -> dict[str, Any]:
    headers = [(name.replace("_", "-").encode(), value.encode()) for name, value in extra.items()]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if host is not None:
        headers.append((b"host", host.encode()))
    return {"type": "websocket", "scheme": scheme, "headers": headers}


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        ("http://127.0.0.1:8000", True),
        ("HTTP://127.0.0.1:8000/", True),
        ("http://127.0.0.1:9999", False),
        ("http://127.0.0.1", False),
        ("https://127.0.0.1:8000", False),
        ("http://localhost:8000", False),
        ("http://evil.example", False),
        ("null", False),
        ("http://127.0.0.1:8000/path", False),
        ("http://127.0.0.1:notaport", False),
        (None, False),
    ],
)
def test_the_origin_must_match_scheme_host_and_port(origin: str | None, allowed: bool) -> None:
    assert origin_allowed(scope(origin)) is allowed


def test_default_ports_compare_equal_and_a_secure_connection_means_https() -> None:
    assert origin_allowed(scope("https://127.0.0.1", host="127.0.0.1:443", scheme="wss"))
    assert origin_allowed(scope("https://127.0.0.1:443", host="127.0.0.1", scheme="wss"))
    assert not origin_allowed(scope("http://127.0.0.1", host="127.0.0.1", scheme="wss"))
    assert parse_origin("https://example.com") == parse_origin("https://example.com:443")


def test_behind_a_trusted_tls_proxy_the_forwarded_scheme_counts(settings: Any) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert origin_allowed(scope("https://127.0.0.1", host="127.0.0.1", x_forwarded_proto="https"))
    assert not origin_allowed(scope("https://127.0.0.1", host="127.0.0.1"))


def test_a_host_outside_allowed_hosts_has_no_own_origin(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["play.example.com"]
    assert not origin_allowed(scope("http://rebound.example:8000", host="rebound.example:8000"))
    assert origin_allowed(scope("http://play.example.com:8000", host="play.example.com:8000"))


def test_csrf_trusted_origins_are_accepted_exactly_or_by_subdomain_pattern(settings: Any) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.com", "https://*.tables.example.com"]
    assert origin_allowed(scope("https://play.example.com", host="internal:8000"))
    assert not origin_allowed(scope("https://play.example.com:8443", host="internal:8000"))
    assert not origin_allowed(scope("http://play.example.com", host="internal:8000"))
    assert origin_allowed(scope("https://eu.tables.example.com", host="internal:8000"))
    assert not origin_allowed(scope("https://tables.example.com.evil.example", host="internal:8000"))
