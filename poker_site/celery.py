"""The Celery application: Redis broker, tasks discovered in every installed app."""

import os

from celery import Celery
from celery.signals import worker_process_init

from poker_site.core.garbage_collection import garbage_collection_tune

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poker_site.settings")

app = Celery("poker_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _tune_the_collector(**_arguments: object) -> None:
    """Each worker process (prefork child, started with the tasks imported) collects garbage as the web and runtime
    processes do (``poker_site.core.garbage_collection``)."""
    garbage_collection_tune()
