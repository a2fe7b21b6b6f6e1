"""The beat's periodic tasks expire (TRN-33 clocks, architecture rule 5: levels, breaks and starts are advanced by
idempotent beat work): a worker slower than the beat — a busy host — skips the ticks that the next one supersedes
instead of queueing them without end behind every tournament start, level and coordination. The expiry must reach
the messages through the scheduler the site runs (django-celery-beat's DatabaseScheduler, which keeps
``expire_seconds`` and silently drops an ``expires`` option)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django_celery_beat.schedulers import DatabaseScheduler, ModelEntry

from poker_site.celery import app

pytestmark = pytest.mark.django_db


def entry_as_the_site_runs_it(name: str) -> ModelEntry:
    assert settings.CELERY_BEAT_SCHEDULER == "django_celery_beat.schedulers:DatabaseScheduler"
    assert issubclass(DatabaseScheduler.Entry, ModelEntry)
    return ModelEntry.from_entry(name, app=app, **settings.CELERY_BEAT_SCHEDULE[name])


def test_every_periodic_task_of_the_site_is_sent_with_an_expiry() -> None:
    for name in settings.CELERY_BEAT_SCHEDULE:
        assert entry_as_the_site_runs_it(name).options.get("expires"), name


def test_a_tournament_tick_expires_once_the_next_tick_is_due_but_not_before_its_own_interval() -> None:
    interval = settings.CELERY_BEAT_SCHEDULE["tournaments-advance"]["schedule"]
    expires = entry_as_the_site_runs_it("tournaments-advance").options["expires"]
    # Long enough that a tick on time is never dropped (clocks of hosts a second apart), short enough that a backlog
    # is at most a few ticks long.
    assert interval < expires <= max(5, 2 * interval)
