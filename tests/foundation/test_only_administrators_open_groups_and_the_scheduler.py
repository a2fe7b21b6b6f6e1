"""LOB-10: groups (the roles and their permissions) and the scheduler's periodic tasks are administrators' alone.
Support cannot open the periodic tasks (list, add page, a task's page) nor run, enable or disable one through an
action; and a staff member who was given the permissions by hand still gets 403 on those pages and changes nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import SUPERUSERS_ONLY_APPS, SUPPORT_STAFF
from tests.foundation.staff_roles import WITHOUT_A_ROLE, staff_member
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db

TASKS = "/admin/django_celery_beat/periodictask/"
GROUPS = "/admin/auth/group/"


def periodic_task() -> PeriodicTask:
    every_minute = IntervalSchedule.objects.create(every=1, period=IntervalSchedule.MINUTES)
    return PeriodicTask.objects.create(name="nightly report", task="wallet.tasks.report", interval=every_minute)


def test_support_cannot_see_or_run_the_periodic_tasks() -> None:
    task = periodic_task()
    client = logged_in(staff_member(SUPPORT_STAFF))

    pages = [TASKS, f"{TASKS}add/", f"{TASKS}{task.pk}/change/", "/admin/django_celery_beat/intervalschedule/"]
    assert [client.get(page).status_code for page in pages] == [403] * len(pages)
    for action in ("run_tasks", "disable_tasks", "toggle_tasks"):
        assert client.post(TASKS, {"action": action, "_selected_action": [task.pk], "index": 0}).status_code == 403
    assert "django_celery_beat" not in client.get("/admin/").content.decode()
    task.refresh_from_db()
    assert task.enabled
    assert task.total_run_count == 0


def test_permissions_given_by_hand_do_not_open_groups_or_the_scheduler_to_a_non_superuser() -> None:
    task = periodic_task()
    staff = staff_member(WITHOUT_A_ROLE, "hand-granted")
    staff.user_permissions.add(*Permission.objects.filter(content_type__app_label__in=SUPERUSERS_ONLY_APPS))
    support_group = Group.objects.get(name=SUPPORT_STAFF)
    client = logged_in(staff)

    assert client.get(GROUPS).status_code == 403
    assert client.get(f"{GROUPS}{support_group.pk}/change/").status_code == 403
    everything = list(Permission.objects.values_list("pk", flat=True))
    response = client.post(f"{GROUPS}{support_group.pk}/change/", {"name": SUPPORT_STAFF, "permissions": everything})
    assert response.status_code == 403
    assert client.post(f"{TASKS}{task.pk}/change/", {"name": "renamed", "enabled": ""}).status_code == 403
    assert client.post(TASKS, {"action": "disable_tasks", "_selected_action": [task.pk], "index": 0}).status_code == 403

    assert support_group.permissions.count() < len(everything)
    task.refresh_from_db()
    assert (task.name, task.enabled) == ("nightly report", True)


def test_an_administrator_opens_both() -> None:
    task = periodic_task()
    client = logged_in(staff_member(ADMINISTRATORS))

    assert client.get(GROUPS).status_code == 200
    assert client.get(f"{TASKS}{task.pk}/change/").status_code == 200
    client.post(TASKS, {"action": "disable_tasks", "_selected_action": [task.pk], "index": 0})
    task.refresh_from_db()
    assert not task.enabled
