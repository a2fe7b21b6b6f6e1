"""Garbage-collector settings for the ASGI server process (many sockets, long-running).

A full collection walks every tracked object, and the oldest generation holds all of Django (modules, models, URL
patterns) plus every open socket's protocol and consumer objects. Under load such collections ran every few seconds
and paused the whole process for 110-150 ms, which every table on it felt at once (the live-table benchmark's p99).
:func:`garbage_collection_tune` freezes what exists after start-up (never scanned again) and collects the young
generation a little less often (fewer short-lived objects promoted); a full collection waits for 1,000
middle-generation ones instead of 10: about once a minute at a hundred actions a second, not every few seconds.
"""

from __future__ import annotations

import gc

GARBAGE_COLLECTION_THRESHOLDS = (2_000, 10, 1_000)
"""``gc.set_threshold`` for the server (CPython's defaults are 700, 10, 10)."""


def garbage_collection_tune() -> None:
    """Freeze the objects that exist now and set :data:`GARBAGE_COLLECTION_THRESHOLDS`; call once start-up is done."""
    gc.freeze()
    gc.set_threshold(*GARBAGE_COLLECTION_THRESHOLDS)
