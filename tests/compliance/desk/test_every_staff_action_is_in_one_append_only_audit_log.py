"""LOB-10: every staff action across the back office is in one audit log — who, when, what (the action and what it
acted on), why, and the state before and after — whether it was made by a desk service or through any admin page
(a change of a player's e-mail by an administrator, a password set, a threshold tuned, a row deleted). PostgreSQL
refuses UPDATE and DELETE of the log and of the cases' actions, as of the ledger."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction

from compliance.models import CaseAction, IndicatorSetting
from compliance.services import case_note_add, settings_ensure
from poker_site.core.models import RuleChangeProposal
from tests.compliance.desk.support import case_about, player
from tests.tables.back_office import logged_in
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db


def test_an_administrator_changing_a_players_e_mail_in_the_admin_is_logged_with_before_and_after(
    administrator: Any,
) -> None:
    """Issue 30: support no longer edits the address (a new one is a proposal a second staff member approves:
    tests/accounts); an administrator's direct change is logged with before and after."""
    alice = player("alice")
    alice.email = "alice@old.example"
    alice.save()
    page = logged_in(administrator).get(f"/admin/accounts/user/{alice.pk}/change/")
    form = page.context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None and name in form.fields}
    data.update({"email": "alice@new.example", "date_joined_0": "2026-01-01", "date_joined_1": "10:00:00"})
    data.pop("date_joined", None)
    data.pop("last_login", None)
    data["is_active"] = "on"

    response = logged_in(administrator).post(f"/admin/accounts/user/{alice.pk}/change/", data)

    assert response.status_code == 302, response.content.decode()[:2000]
    entry = AuditEntry.objects.get(action="admin_changed", target=f"accounts.user:{alice.pk}")
    assert (entry.actor, entry.player) == (administrator, alice)
    assert entry.before["email"] == "alice@old.example"
    assert entry.after["email"] == "alice@new.example"
    assert "password" not in entry.after


def test_a_password_set_in_the_admin_needs_a_reason_and_is_logged_with_it_without_the_password(
    administrator: Any,
) -> None:
    """Issue 30: a password set by staff (an administrator: support sends a reset link instead, tests/accounts) needs
    a reason, which the audit entry keeps."""
    alice = player("alice")
    new_password = {"password1": "a-new-long-passphrase-77", "password2": "a-new-long-passphrase-77"}
    url = f"/admin/accounts/user/{alice.pk}/password/"
    refused = logged_in(administrator).post(url, {**new_password, "usable_password": "true", "reason": " "})
    assert refused.status_code == 200
    assert "reason" in refused.context["form"].errors
    alice.refresh_from_db()
    assert not alice.check_password("a-new-long-passphrase-77")
    assert not AuditEntry.objects.filter(target=f"accounts.user:{alice.pk}").exists()

    response = logged_in(administrator).post(
        url, {**new_password, "usable_password": "true", "reason": "Ticket 4411: locked out after a phone change"}
    )
    assert response.status_code == 302
    entry = AuditEntry.objects.get(action="admin_changed", target=f"accounts.user:{alice.pk}")
    assert entry.reason == "Ticket 4411: locked out after a phone change"
    assert (entry.before, entry.after) == ({"password": "(set)"}, {"password": "(changed)"})
    alice.refresh_from_db()
    assert alice.password not in str(entry.details) + str(entry.after)


def test_a_threshold_change_is_logged_when_proposed_and_when_approved_and_a_bad_value_is_refused(
    reviewer: Any, administrator: Any
) -> None:
    """Issue 30: a threshold is changed by a proposal another staff member approves; both steps are logged."""
    settings_ensure()
    setting = IndicatorSetting.objects.get(indicator="chip_dumping", parameter="minimum_weak_decisions")
    url = f"/admin/compliance/indicatorsetting/{setting.pk}/propose/"
    client = logged_in(reviewer)
    for bad in ("2.5", "-1", "0"):
        response = client.post(url, {"value": bad, "reason": "Tuning"})
        assert response.status_code == 200, bad  # the form again, with the error
        assert response.context["form"].errors, bad
    assert not AuditEntry.objects.filter(target=f"compliance.indicatorsetting:{setting.pk}").exists()

    assert client.post(url, {"value": "4", "reason": "Too many false positives"}).status_code == 302
    proposal = RuleChangeProposal.objects.get()
    assert logged_in(administrator).post(f"/admin/core/rulechangeproposal/{proposal.pk}/approve/").status_code == 302

    setting.refresh_from_db()
    assert setting.value == 4
    proposed, approved = AuditEntry.objects.filter(target=f"compliance.indicatorsetting:{setting.pk}").order_by("pk")
    assert (proposed.action, proposed.actor, proposed.reason) == (
        "rule_change_proposed",
        reviewer,
        "Too many false positives",
    )
    assert (approved.action, approved.actor) == ("rule_change_approved", administrator)
    assert (approved.before, approved.after) == ({"value": 3}, {"value": 4})


def test_a_row_deleted_in_the_admin_is_logged_with_what_it_held(administrator: Any) -> None:
    from django_celery_beat.models import IntervalSchedule

    schedule = IntervalSchedule.objects.create(every=7, period="minutes")
    response = logged_in(administrator).post(
        f"/admin/django_celery_beat/intervalschedule/{schedule.pk}/delete/", {"post": "yes"}
    )
    assert response.status_code == 302
    entry = AuditEntry.objects.get(action="admin_deleted")
    assert entry.target == f"django_celery_beat.intervalschedule:{schedule.pk}"
    assert (entry.before["every"], entry.before["period"], entry.after) == (7, "minutes", None)


def test_every_registered_admin_writes_to_the_audit_log() -> None:
    from django.contrib import admin

    from poker_site.core.admin_audit import AuditedAdmin

    unaudited = [
        model._meta.label
        for model, model_admin in admin.site._registry.items()
        if not isinstance(model_admin, AuditedAdmin)
    ]
    assert unaudited == []


@pytest.mark.parametrize(
    ("table", "sql"),
    [
        ("wallet_auditentry", "UPDATE wallet_auditentry SET reason = 'rewritten' WHERE id = %s"),
        ("wallet_auditentry", "DELETE FROM wallet_auditentry WHERE id = %s"),
        ("compliance_caseaction", "UPDATE compliance_caseaction SET text = 'rewritten' WHERE id = %s"),
        ("compliance_caseaction", "DELETE FROM compliance_caseaction WHERE id = %s"),
    ],
)
def test_the_database_refuses_to_rewrite_the_audit_log_or_a_cases_actions(reviewer: Any, table: str, sql: str) -> None:
    case = case_about(reviewer, player("alice"))
    case_note_add(case, reviewer, "The original note")
    row = (AuditEntry if table == "wallet_auditentry" else CaseAction).objects.order_by("-pk").first()
    assert row is not None
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, [row.pk])
    assert CaseAction.objects.filter(text="The original note").exists()
    assert AuditEntry.objects.filter(reason="The original note").exists()
