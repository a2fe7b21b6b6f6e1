"""LOB-10, issue 31: the back office's audit log is filtered by date — a "from" and a "to" day, both included, either
one alone, together with the other filters; a date that is not one is refused the way the admin refuses any bad
filter, and the sidebar shows the two date inputs."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from tests.tables.back_office import logged_in
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db

URL = "/admin/wallet/auditentry/"


def entry(action: str, day: int) -> AuditEntry:
    return AuditEntry.objects.create(action=action, created_at=datetime(2026, 3, day, 12, 0, tzinfo=UTC), reason=action)


def listed(client: Any, query: str) -> set[str]:
    response = client.get(f"{URL}?{query}")
    assert response.status_code == 200
    return {row.action for row in response.context["cl"].result_list}


def test_the_audit_log_shows_only_the_entries_between_the_two_dates_both_included(administrator: Any) -> None:
    for day in (1, 5, 10, 15):
        entry(f"day_{day}", day)
    client = logged_in(administrator)

    assert listed(client, "created_at_from=2026-03-05&created_at_to=2026-03-10") == {"day_5", "day_10"}
    since = listed(client, "created_at_from=2026-03-10")  # also whatever staff did today
    assert {action for action in since if action.startswith("day_")} == {"day_10", "day_15"}
    assert listed(client, "created_at_to=2026-03-04") == {"day_1"}


def test_the_date_filter_combines_with_the_action_filter_and_keeps_it_in_its_form(administrator: Any) -> None:
    entry("hold_created", 5)
    entry("hold_released", 5)
    entry("hold_created", 20)
    client = logged_in(administrator)

    assert listed(client, "action=hold_created&created_at_from=2026-03-01&created_at_to=2026-03-10") == {"hold_created"}
    page = client.get(f"{URL}?action=hold_created&created_at_from=2026-03-01").content.decode()
    assert 'type="date" name="created_at_from" value="2026-03-01"' in page
    assert 'type="date" name="created_at_to" value=""' in page
    assert '<input type="hidden" name="action" value="hold_created">' in page


def test_a_date_that_is_not_a_date_is_refused_and_shows_no_rows(administrator: Any) -> None:
    entry("day_5", 5)

    response = logged_in(administrator).get(f"{URL}?created_at_from=2026-13-45")

    assert response.status_code == 302
    assert response.url.endswith("?e=1")
