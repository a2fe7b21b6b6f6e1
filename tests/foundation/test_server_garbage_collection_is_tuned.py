"""The ASGI server process freezes its start-up objects and collects garbage with the tuned thresholds, so full
collections (which paused every table at once for 110-150 ms under load) come rarely and scan little."""

from __future__ import annotations

import gc


def test_importing_the_asgi_application_freezes_start_up_objects_and_sets_the_thresholds() -> None:
    from poker_site import asgi  # noqa: F401 - importing the application tunes the collector
    from poker_site.core.garbage_collection import GARBAGE_COLLECTION_THRESHOLDS

    assert gc.get_threshold() == GARBAGE_COLLECTION_THRESHOLDS
    assert gc.get_threshold() != (700, 10, 10)  # CPython's defaults
    assert gc.get_freeze_count() > 10_000  # Django, the URL conf and the models are in the permanent generation
