"""The beat's periodic tasks expire (TRN-33 clocks, architecture rule 5: levels, breaks and starts are advanced by
idempotent beat work): a worker slower than the beat — a busy host — skips the ticks that the next one supersedes
instead of queueing them without end behind every tournament start, level and coordination. The expiry must reach
the messages through either scheduler a site runs: django-celery-beat's DatabaseScheduler (deployments; it keeps
``expire_seconds`` and silently drops an ``expires`` option) and Celery's file-based PersistentScheduler (the browser
tests' site, whose database is emptied between tests)."""

from __future__ import annotations

import pytest
from celery.beat import ScheduleEntry
from django.conf import settings
from django_celery_beat.schedulers import DatabaseScheduler, ModelEntry

from poker_site.celery import app

pytestmark = pytest.mark.django_db


def entry_as_the_site_runs_it(name: str) -> ModelEntry:
    assert settings.CELERY_BEAT_SCHEDULER == "django_celery_beat.schedulers:DatabaseScheduler"
    assert issubclass(DatabaseScheduler.Entry, ModelEntry)
    return ModelEntry.from_entry(name, app=app, **settings.CELERY_BEAT_SCHEDULE[name])


def entry_as_the_test_site_runs_it(name: str) -> ScheduleEntry:
    return ScheduleEntry(name=name, app=app, **settings.CELERY_BEAT_SCHEDULE[name])


def test_every_periodic_task_of_the_site_is_sent_with_an_expiry() -> None:
    for name in settings.CELERY_BEAT_SCHEDULE:
        assert entry_as_the_site_runs_it(name).options.get("expires"), name


def test_every_periodic_task_is_sent_with_the_same_expiry_by_the_file_based_scheduler_of_the_test_site() -> None:
    for name in settings.CELERY_BEAT_SCHEDULE:
        expires = entry_as_the_test_site_runs_it(name).options.get("expires")
        assert expires, name
        assert expires == entry_as_the_site_runs_it(name).options["expires"], name


def test_a_tournament_tick_expires_once_the_next_tick_is_due_but_not_before_its_own_interval() -> None:
    interval = settings.CELERY_BEAT_SCHEDULE["tournaments-advance"]["schedule"]
    expires = entry_as_the_site_runs_it("tournaments-advance").options["expires"]
    # Long enough that a tick on time is never dropped (clocks of hosts a second apart), short enough that a backlog
    # is at most a few ticks long.
    assert interval < expires <= max(5, 2 * interval)
