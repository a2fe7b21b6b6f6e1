"""The answer to a socket opened at a path no route serves (``/ws/tables/abc/``, ``/ws/nowhere/``): the handshake is
refused (``websocket.close`` before ``websocket.accept``: daphne answers it 403), with no consumer and no error.

Channels' outermost ``URLRouter`` raises ``ValueError("No route found for path ...")`` for such a path: daphne then
answered 500 and logged a traceback as an error. :data:`UNKNOWN_SOCKET_ROUTE` matches every path and must be the last
route of the router (``poker_site/routing.py`` puts it after every app's routes).
"""

from __future__ import annotations

import logging
from typing import Any, Final

from django.urls import URLPattern, re_path

logger = logging.getLogger(__name__)

UNKNOWN_PATH_CLOSE_CODE: Final[int] = 4404
"""The close code of the refusal (what an ASGI test client sees; a browser sees the handshake refused with 403)."""


async def refuse_unknown_socket(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """ASGI app: refuse the handshake of a socket at a path no route serves."""
    message = await receive()
    if message.get("type") == "websocket.connect":
        logger.info("socket refused: no route for the path %r", str(scope.get("path", ""))[:200])
        await send({"type": "websocket.close", "code": UNKNOWN_PATH_CLOSE_CODE})


# Channels' router takes ASGI apps where django-stubs types Django views.
UNKNOWN_SOCKET_ROUTE: Final[URLPattern] = re_path(
    r"^",
    refuse_unknown_socket,  # type: ignore[arg-type]
    name="ws-unknown-path",
)
"""Every path: the last route of the sockets' router."""
