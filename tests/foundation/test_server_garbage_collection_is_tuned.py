"""The ASGI server process freezes its start-up objects and collects garbage with the tuned thresholds, so full
collections (which paused every table at once for 110-150 ms under load) come rarely and scan little."""

from __future__ import annotations

import json
import subprocess
import sys

from poker_site.core.garbage_collection import GARBAGE_COLLECTION_THRESHOLDS
from poker_site.embedded import PROJECT_DIRECTORY

# In a process of its own: the test process has tuned its own collector already (tests/conftest.py).
PROBE = """
import gc, json, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poker_site.settings")
before = gc.get_threshold()
from poker_site import asgi  # importing the application tunes the collector
print(json.dumps({"before": before, "after": gc.get_threshold(), "frozen": gc.get_freeze_count()}))
"""


def test_importing_the_asgi_application_freezes_start_up_objects_and_sets_the_thresholds() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=PROJECT_DIRECTORY, capture_output=True, text=True, timeout=120, check=False
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    seen = json.loads(completed.stdout.splitlines()[-1])
    assert tuple(seen["before"]) == (700, 10, 10)  # CPython's defaults
    assert tuple(seen["after"]) == GARBAGE_COLLECTION_THRESHOLDS
    assert seen["frozen"] > 10_000  # Django, the URL conf and the models are in the permanent generation
