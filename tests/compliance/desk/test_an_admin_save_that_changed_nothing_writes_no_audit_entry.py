"""Issue 30 (LOB-10): the audit log records what staff changed; saving an admin page as it was changes nothing and
writes no entry (a log full of empty "changes" hides the real ones). A real change is still logged."""

from __future__ import annotations

from typing import Any

import pytest

from tests.compliance.desk.support import player
from tests.tables.back_office import logged_in
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db


def _form_as_it_is(client: Any, url: str) -> dict[str, Any]:
    form = client.get(url).context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None and name in form.fields}
    data.update({"date_joined_0": "2026-01-01", "date_joined_1": "10:00:00"})
    data.pop("date_joined", None)
    data.pop("last_login", None)
    data["is_active"] = "on"
    return data


def test_saving_a_players_page_unchanged_writes_no_audit_entry_and_a_change_does(support_agent: Any) -> None:
    alice = player("alice")
    alice.email = "alice@example.com"
    alice.date_joined = alice.date_joined.replace(year=2026, month=1, day=1, hour=10, minute=0, second=0, microsecond=0)
    alice.save()
    url = f"/admin/accounts/user/{alice.pk}/change/"
    client = logged_in(support_agent)
    data = _form_as_it_is(client, url)

    assert client.post(url, data).status_code == 302
    assert not AuditEntry.objects.filter(target=f"accounts.user:{alice.pk}").exists()

    # A field support edits (issue 30: the e-mail address is read-only to support; a new one is a proposal).
    assert client.post(url, {**data, "first_name": "Alice"}).status_code == 302
    entry = AuditEntry.objects.get(target=f"accounts.user:{alice.pk}")
    assert (entry.before, entry.after) == ({"first_name": ""}, {"first_name": "Alice"})
