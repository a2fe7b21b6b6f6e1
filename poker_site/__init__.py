"""The Django project package: settings, URLs, ASGI routing, Celery app and the process launcher."""

from poker_site.celery import app as celery_app

__all__ = ["celery_app"]
