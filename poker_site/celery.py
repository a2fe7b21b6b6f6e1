"""The Celery application: Redis broker, tasks discovered in every installed app."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poker_site.settings")

app = Celery("poker_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
