"""The ASGI server process, the table runtime (``manage.py run_tables``), the ticker (``manage.py run_ticker``) and each
Celery worker process freeze their start-up objects and collect garbage with the tuned thresholds, so full collections
(which paused every table at once for 110-150 ms under load) come rarely and scan little."""

from __future__ import annotations

from poker_site.core.garbage_collection import GARBAGE_COLLECTION_THRESHOLDS
from tests.foundation.probes.started_process import RUN_TABLES_PROBE, probe

# In a process of its own: the test process has tuned its own collector already (tests/conftest.py).
ASGI_PROBE = """
import gc, json, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poker_site.settings")
before = gc.get_threshold()
from poker_site import asgi  # importing the application tunes the collector
print(json.dumps({"before": before, "after": gc.get_threshold(), "frozen": gc.get_freeze_count()}))
"""


RUN_TICKER_PROBE = """
import gc, json, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poker_site.settings")
import django
django.setup()
from django.core.management import call_command
from poker_site.core.management.commands import run_ticker
before = gc.get_threshold()

def tick():  # what the ticker sees once it is running (one tick: --once)
    print(json.dumps({"before": before, "after": gc.get_threshold(), "frozen": gc.get_freeze_count()}), flush=True)

run_ticker.tick_once = tick
call_command("run_ticker", once=True)
"""


CELERY_WORKER_PROBE = """
import gc, json, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poker_site.settings")
import django
django.setup()
from celery.signals import worker_process_init
from poker_site.celery import app
app.loader.import_default_modules()  # the tasks, as a worker imports them before it forks its processes
before = gc.get_threshold()
worker_process_init.send(sender=None)  # what a worker process receives once started
print(json.dumps({"before": before, "after": gc.get_threshold(), "frozen": gc.get_freeze_count()}))
"""


def assert_tuned_from_the_defaults(seen: dict[str, object]) -> None:
    assert tuple(seen["before"]) == (700, 10, 10)  # type: ignore[arg-type]  # CPython's defaults
    assert tuple(seen["after"]) == GARBAGE_COLLECTION_THRESHOLDS  # type: ignore[arg-type]
    assert seen["frozen"] > 10_000  # type: ignore[operator]  # Django, the URL conf and the models are frozen


def test_the_table_runtime_process_freezes_start_up_objects_and_sets_the_thresholds() -> None:
    assert_tuned_from_the_defaults(probe(RUN_TABLES_PROBE, TABLE_ACTORS="1"))


def test_importing_the_asgi_application_freezes_start_up_objects_and_sets_the_thresholds() -> None:
    assert_tuned_from_the_defaults(probe(ASGI_PROBE))


def test_the_ticker_process_freezes_start_up_objects_and_sets_the_thresholds() -> None:
    assert_tuned_from_the_defaults(probe(RUN_TICKER_PROBE))


def test_a_celery_worker_process_freezes_start_up_objects_and_sets_the_thresholds() -> None:
    assert_tuned_from_the_defaults(probe(CELERY_WORKER_PROBE))
