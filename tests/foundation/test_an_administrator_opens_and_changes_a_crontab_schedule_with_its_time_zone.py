"""QA finding 8 (back office, LOB-10): the admin's audit snapshots every row it opens, and a crontab schedule's time
zone (a ``ZoneInfo``) is not a JSON value. Opening, changing and deleting a scheduler crontab answers its page, not a
500, and the audit log keeps the time zone by its name."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django_celery_beat.models import CrontabSchedule

from poker_site.accounts.models import User
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def administrator_browser() -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("crontab-admin", "crontab-admin@example.com", None))
    return client


def test_the_crontab_change_page_opens_and_a_change_is_audited_with_the_time_zones_name(
    administrator_browser: Client,
) -> None:
    schedule = CrontabSchedule.objects.create(minute="5", hour="4", timezone=ZoneInfo("Europe/Tallinn"))
    page = f"/admin/django_celery_beat/crontabschedule/{schedule.pk}/change/"

    assert administrator_browser.get(page).status_code == 200

    form = {
        "minute": "10",
        "hour": "4",
        "day_of_week": "*",
        "day_of_month": "*",
        "month_of_year": "*",
        "timezone": "Europe/Tallinn",
        "periodictask_set-TOTAL_FORMS": "0",  # the page's inline of the schedule's tasks, left empty
        "periodictask_set-INITIAL_FORMS": "0",
    }
    answer = administrator_browser.post(page, form)

    assert answer.status_code == 302
    entry = AuditEntry.objects.get(action="admin_changed", target=f"django_celery_beat.crontabschedule:{schedule.pk}")
    assert entry.before == {"minute": "5"}
    assert entry.after == {"minute": "10"}


def test_a_new_crontab_and_its_deletion_are_audited_with_the_time_zones_name(administrator_browser: Client) -> None:
    schedule = CrontabSchedule.objects.create(minute="7", timezone=ZoneInfo("Europe/Tallinn"))
    page = f"/admin/django_celery_beat/crontabschedule/{schedule.pk}/delete/"

    assert administrator_browser.get(page).status_code == 200
    assert administrator_browser.post(page, {"post": "yes"}).status_code == 302

    entry = AuditEntry.objects.get(action="admin_deleted", target=f"django_celery_beat.crontabschedule:{schedule.pk}")
    assert entry.before["timezone"] == "Europe/Tallinn"
