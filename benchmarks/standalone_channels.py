"""Django settings for the benchmark's bare Channels servers (benchmarks/echo_server.py, benchmarks/floor_server.py):
just Channels, over the same kind of Redis channel layer as the site (``CHANNEL_LAYER``: pubsub unless "queues").

Environment: ``REDIS_URL`` (required) and ``REDIS_KEY_PREFIX`` (default ``bench``).
"""

from __future__ import annotations

import os

import django
from django.conf import settings

from poker_site.channel_layers import channel_layer


def channels_configure(name: str) -> None:
    """Configure Django with only Channels and a channel layer whose keys carry ``name`` (once per process)."""
    if settings.configured:
        return
    layer = channel_layer(
        os.environ.get("CHANNEL_LAYER", "pubsub"),
        os.environ["REDIS_URL"],
        f"{os.environ.get('REDIS_KEY_PREFIX', 'bench')}:{name}",
    )
    settings.configure(DEBUG=False, INSTALLED_APPS=["channels"], CHANNEL_LAYERS={"default": layer})
    django.setup()
