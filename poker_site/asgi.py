"""ASGI entry point: HTTP goes to Django, WebSockets to the Channels consumers of each app."""

import os

from django.core.asgi import get_asgi_application

from poker_site.core.garbage_collection import garbage_collection_tune
from poker_site.core.thread_switching import thread_switching_tune

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poker_site.settings")
# Django must be set up before the routing modules import models.
django_application = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from poker_site.core.busy import RequestAdmission  # noqa: E402
from poker_site.core.page_cache import PageCache  # noqa: E402
from poker_site.core.socket_origins import SiteOriginValidator  # noqa: E402
from poker_site.core.socket_sessions import socket_middleware_stack  # noqa: E402
from poker_site.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        # A burst beyond WEB_MAX_CONCURRENT_REQUESTS is answered 503 at once instead of queueing a thread per request.
        # In front of that gate, anonymous reads of the lobby, tournament list and HexaPro offers are answered from a
        # cache at most PAGE_CACHE_SECONDS old, without taking a place in it (issue 25, poker_site.core.page_cache).
        "http": PageCache(
            RequestAdmission(django_application, settings.WEB_MAX_CONCURRENT_REQUESTS), settings.PAGE_CACHE_SECONDS
        ),
        "websocket": SiteOriginValidator(socket_middleware_stack(URLRouter(websocket_urlpatterns))),
    }
)

# Start-up is over: freeze it and collect rarely (poker_site.core.garbage_collection says why). Each action still leaves
# some reference cycles behind, so the collector has steady work; the short collections it does cost a few ms.
garbage_collection_tune()
# Worker threads busy in Python must not hold the event loop off for 5 ms at a time (poker_site.core.thread_switching).
thread_switching_tune()
