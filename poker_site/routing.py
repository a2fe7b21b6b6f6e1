"""WebSocket routes: each app that serves sockets lists its routes in ``<app>/routing.py``; after them all, the
catch-all that refuses a socket at a path no route serves (:mod:`poker_site.core.unknown_sockets`)."""

from importlib import import_module
from importlib.util import find_spec

from django.urls import URLPattern, URLResolver

from poker_site.core.unknown_sockets import UNKNOWN_SOCKET_ROUTE

SOCKET_APPS = ("games", "games.uth", "tournaments", "compliance")


def _collect() -> list[URLPattern | URLResolver]:
    patterns: list[URLPattern | URLResolver] = []
    for app in SOCKET_APPS:
        if find_spec(f"{app}.routing") is not None:
            patterns.extend(import_module(f"{app}.routing").websocket_urlpatterns)
    return [*patterns, UNKNOWN_SOCKET_ROUTE]


websocket_urlpatterns = _collect()
