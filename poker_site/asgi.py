"""ASGI entry point: HTTP goes to Django, WebSockets to the Channels consumers of each app."""

import gc
import os

from django.core.asgi import get_asgi_application

GARBAGE_COLLECTION_THRESHOLDS = (2_000, 10, 1_000)
"""``gc.set_threshold`` for the server process (CPython's defaults are 700, 10, 10); see the end of this module."""

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poker_site.settings")
# Django must be set up before the routing modules import models.
django_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from poker_site.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# Garbage collection in a long-running server: a full collection walks every tracked object, and the oldest generation
# holds all of Django (modules, models, URL patterns) plus every open socket's protocol and consumer objects. Under
# load such collections ran every few seconds and paused the whole process for 110-150 ms, which every table felt at
# once (the live-table benchmark's p99). What exists after start-up is frozen (never scanned again); the young
# generation is collected a little less often (fewer short-lived objects promoted), and a full collection waits for
# 1,000 middle-generation ones instead of 10: about once a minute at a hundred actions a second, not every few seconds.
# (Each action leaves reference cycles behind — Django caches both sides of a select_related one-to-one — so the
# collector has steady work; the short collections it does cost a few milliseconds.)
gc.freeze()
gc.set_threshold(*GARBAGE_COLLECTION_THRESHOLDS)
