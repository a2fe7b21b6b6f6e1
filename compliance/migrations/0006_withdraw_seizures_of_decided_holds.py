"""Withdraw the seizure proposals left pending on holds already decided (issue 30).

Before this change a released hold left its pending seizure on the desk until someone rejected it by hand; since it, the
release withdraws it (``wallet.services.holds``). This closes those left over the same way: withdrawn, decided by
nobody, with the system's reason, and audited (``rule_change_withdrawn``, no actor: nobody acted now)."""

from typing import Any

from django.db import migrations
from django.utils import timezone

KIND = "hold_seizure"  # compliance.seizure_changes.KIND, as it was when this migration was written
TARGET_PREFIX = "wallet.hold:"


def withdraw_stale_seizures(apps: Any, schema_editor: Any) -> None:
    proposals = apps.get_model("core", "RuleChangeProposal")
    holds = apps.get_model("wallet", "Hold")
    audit_entries = apps.get_model("wallet", "AuditEntry")
    now = timezone.now()
    for proposal in proposals.objects.select_for_update().filter(kind=KIND, status="pending").order_by("pk"):
        key = proposal.target.removeprefix(TARGET_PREFIX)
        hold = holds.objects.filter(pk=int(key)).select_related("decided_by").first() if key.isdigit() else None
        if hold is None or hold.status == "held":
            continue
        who = f" by {hold.decided_by.username}" if hold.decided_by_id else ""
        reason = (
            f"Hold #{hold.pk} was {hold.status}{who}: a hold is decided once, so this proposal can no longer apply."
        )
        proposal.status, proposal.decided_at, proposal.decision_note = "withdrawn", now, reason
        proposal.save(update_fields=["status", "decided_at", "decision_note"])
        audit_entries.objects.create(
            action="rule_change_withdrawn",
            actor=None,
            reason=reason,
            target=proposal.target,
            details={"rule_change": proposal.pk, "kind": proposal.kind, "summary": proposal.summary},
            before={"status": "pending"},
            after={"status": "withdrawn"},
        )


class Migration(migrations.Migration):
    dependencies = [
        ("compliance", "0005_detector_flag_cadence"),
        ("core", "0002_rule_change_withdrawn"),
        ("wallet", "0007_cashier_deposit_reservations"),
    ]

    operations = [migrations.RunPython(withdraw_stale_seizures, migrations.RunPython.noop)]
