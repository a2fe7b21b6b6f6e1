"""A socket opened at a path no route serves (``/ws/tables/abc/``: the table route takes ``<int:table_id>``) has its
handshake refused, cleanly: no consumer, no exception and nothing logged as an error. Channels' router raised
``ValueError("No route found ...")`` for it, which daphne answered 500 with a traceback in the log (QA finding).
The served paths still open."""

from __future__ import annotations

import logging

import pytest
from channels.db import database_sync_to_async

from tests.realtime.conftest import headers_for, make_table, make_user, run

pytestmark = pytest.mark.django_db(transaction=True)

UNSERVED_PATHS = (
    "/ws/tables/abc/",
    "/ws/tables/1/extra/",
    "/ws/tables/-1/",
    "/ws/uth/abc/",
    "/ws/nowhere/",
    "/ws/",
    "/",
    "/api/wallet/balance/",
)


def test_every_unserved_path_is_refused_at_the_handshake_and_logs_no_error(caplog: pytest.LogCaptureFixture) -> None:
    from channels.testing import WebsocketCommunicator

    from poker_site.asgi import application
    from poker_site.core.unknown_sockets import UNKNOWN_PATH_CLOSE_CODE

    table = make_table()
    alice = make_user("alice")

    async def scenario() -> None:
        headers = await database_sync_to_async(headers_for)(alice)
        for path in UNSERVED_PATHS:
            communicator = WebsocketCommunicator(application, path, headers=headers)
            connected, close_code = await communicator.connect(timeout=30)
            assert (connected, close_code) == (False, UNKNOWN_PATH_CLOSE_CODE), path
            await communicator.wait(timeout=5)
        for path in (f"/ws/tables/{table.pk}/", "/ws/lobby/", "/ws/player/"):
            communicator = WebsocketCommunicator(application, path, headers=headers)
            connected, _ = await communicator.connect(timeout=30)
            assert connected, path
            await communicator.disconnect()

    with caplog.at_level(logging.INFO):
        run(scenario)

    assert [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR] == []
    assert not [record for record in caplog.records if record.exc_info]


def test_the_refusing_route_is_the_last_socket_route_so_it_shadows_none() -> None:
    from poker_site.core.unknown_sockets import UNKNOWN_SOCKET_ROUTE
    from poker_site.routing import websocket_urlpatterns

    assert websocket_urlpatterns[-1] is UNKNOWN_SOCKET_ROUTE
    assert websocket_urlpatterns.count(UNKNOWN_SOCKET_ROUTE) == 1
