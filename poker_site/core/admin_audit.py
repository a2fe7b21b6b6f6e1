"""Every change made through a Django admin page goes into the back office's audit log (LOB-10), with before and after.

Django's admin writes its own history (``LogEntry``: who, when, which row, a change message) when a row is added,
changed or deleted through its pages, and the site's admin actions record what they did the same way
(``log_change``). :class:`AuditedAdmin` hooks those three moments and writes an :class:`wallet.models.AuditEntry` in
the same transaction: the actor, the target (``"<app_label>.<model>:<pk>"``), the fields that changed with their
values before and after (the whole row when added or deleted), and the admin's change message.

The values before are read when the admin loads the row (``get_object``), so they are what the database held before
the form changed anything. A password is never copied into the log (nor a digest of it): it shows as ``"(set)"`` or
``"(changed)"``.

:func:`audit_every_admin` puts the mixin in front of every model admin registered on a site; the core app calls it
once every admin module is loaded (``CoreConfig.ready``).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.conf import settings
from django.contrib import admin
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import Q
from django.http import HttpRequest

AUDIT_LOG_ACTIONS = (
    "account_active",  # the compliance desk: a subject's account state (compliance.services.sanctions)
    "account_suspended",
    "account_terminated",
    "account_under_review",
    "adjustment_approved",
    "adjustment_proposed",
    "adjustment_rejected",
    "admin_added",  # any admin page (this module)
    "admin_changed",
    "admin_deleted",
    "banzai_excluded",
    "banzai_readmitted",
    "case_closed",
    "case_disqualification",
    "case_hold",
    "case_hold_released",
    "case_hold_seized",
    "case_linked",
    "case_note",
    "case_opened",
    "case_review_started",
    "chat_mute_lifted",
    "chat_muted",
    "csv_exported",
    "deposit",
    "deposit_limit_set",
    "flag_dismissed",
    "flag_taken_into_case",
    "hexapro_game_parked",
    "hexapro_sitting_out_together",
    "hexapro_version_changed",
    "hexapro_version_scheduled",
    "hold_created",
    "hold_released",
    "hold_seized",
    "hole_cards_viewed",
    "information_disclosed",
    "password_reset_by_player",
    "password_reset_link_sent",
    "password_reset_refused_privileged_account",
    "pending_deposit_credited",
    "pending_deposit_released",
    "rule_change_approved",
    "rule_change_proposed",
    "rule_change_rejected",
    "rule_change_withdrawn",
    "self_exclusion_started",
    "self_exclusion_tables_closed",
    "session_reminder_set",
    "sitting_out_together_seen",
    "staff_adjustment",  # no longer recorded (issue 30 made adjustments proposals); the log keeps older rows
    "tournament.flight_ended",
    "tournament_bar_lifted",
    "tournament_cancellation_altered",
    "tournament_cancellation_proposed",
    "tournament_cancellation_withdrawn",
    "tournament_cancelled",
    "tournament_defined",
    "tournament_definition_changed",
    "tournament_delayed",
    "tournament_hand_for_hand",
    "tournament_paused",
    "tournament_player_barred",
    "tournament_player_disqualified",
    "tournament_prize_credited",
    "tournament_prize_forfeited",
    "tournament_resumed",
    "tournament_ticket_issued",
    "tournament_ticket_voided",
    "unresolved_game_opened",
    "unresolved_game_resolved",
    "unresolved_game_voided",
    "uth_round_cancel",
    "uth_round_pause",
    "uth_round_refund",
    "uth_round_resume",
    "video_outcome",
    "video_requested",
    "withdrawal_paid",
    "withdrawal_requested",
    "withdrawal_returned",
)
"""Every action the code base writes to the audit log, for the log's "action" filter (QA finding 9: a fixed list,
not the actions among the latest rows). A test reads every ``audit_record(action=...)`` of the code and checks that
each is here, and that each name here is still recorded (``staff_adjustment`` aside: history)."""

HISTORICAL_ACTIONS = frozenset({"staff_adjustment"})
"""Actions of :data:`AUDIT_LOG_ACTIONS` that the code no longer records; older rows of the log still have them."""

COMPLIANCE_ACTIONS = frozenset(
    {
        *(action for action in AUDIT_LOG_ACTIONS if action.startswith(("case_", "flag_", "account_", "hold_"))),
        "hole_cards_viewed",
        "information_disclosed",
        "video_requested",
        "video_outcome",
        "sitting_out_together_seen",
        "hexapro_sitting_out_together",
        "tournament_prize_forfeited",
    }
)
"""The compliance desk's actions (cases, flags, account states, holds, disclosures, video checks, detections, prize
forfeitures, reviewers' views of hole cards): their reasons and details are compliance's, so the audit log leaves them
out for anyone without ``compliance.review_cases`` (issue 30, QA finding 3; docs/roles.md)."""

COMPLIANCE_RULE_KINDS = frozenset({"hold_seizure", "tournament_prize_forfeiture", "detection_threshold"})
"""Rule change proposals whose reasons are compliance's: a seizure of withheld funds, a prize forfeiture, a detection
threshold. Their proposals' reasons and details, and their ``rule_change_*`` audit entries, are restricted alike."""

REVIEW_CASES = "compliance.review_cases"


def reads_compliance_reasons(user: Any) -> bool:
    """Whether ``user`` may read compliance's reasons (issue 30: without, they read "restricted, ask compliance")."""
    return bool(user.has_perm(REVIEW_CASES))


def restricted_audit_entries() -> Q:
    """The audit entries someone without ``compliance.review_cases`` does not see: the desk's actions, the rule
    changes of compliance's kinds, and admin changes of compliance's rows."""
    return (
        Q(action__in=COMPLIANCE_ACTIONS)
        | Q(action__startswith="rule_change_", details__kind__in=sorted(COMPLIANCE_RULE_KINDS))
        | Q(action__startswith="admin_", target__startswith="compliance.")
    )


SECRET_FIELDS = frozenset({"password"})
PLAYER_FIELDS = ("user", "player", "owner")
"""A row's foreign key to a user under one of these names makes that user the audit entry's ``player``."""


def snapshot(instance: models.Model) -> dict[str, Any]:
    """The row's field values as JSON values (foreign keys by id, many-to-many as sorted ids). A secret shows as
    ``"(set)"``; a digest of it under a private key (see :func:`public`) lets :func:`changed_fields` see a change."""
    values: dict[str, Any] = {}
    for field in instance._meta.concrete_fields:
        value = field.value_from_object(instance)
        if field.name in SECRET_FIELDS:
            values[field.name] = "(set)" if value else ""
            values[_digest_key(field.name)] = hashlib.sha256(str(value).encode()).hexdigest()
        else:
            values[field.name] = value
    if instance.pk is not None:
        for field in instance._meta.many_to_many:
            values[field.name] = sorted(getattr(instance, field.name).values_list("pk", flat=True))
    return {name: _json_value(value) for name, value in values.items()}


def _json_value(value: Any) -> Any:
    """``value`` as a JSON value; one the encoder cannot encode (e.g. django_celery_beat's crontab time zone, a
    ``ZoneInfo``) as its text, so an admin page never fails for its audit (QA finding 8)."""
    try:
        return json.loads(json.dumps(value, cls=DjangoJSONEncoder))
    except (TypeError, ValueError):
        return str(value)


def _digest_key(name: str) -> str:
    return f"_{name}_digest"


def public(values: dict[str, Any]) -> dict[str, Any]:
    """A snapshot without its private digests (what the log keeps)."""
    return {name: value for name, value in values.items() if not name.startswith("_")}


def changed_fields(before: dict[str, Any], after: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The fields whose value differs, as (before, after); a changed secret shows as ``"(set)"`` → ``"(changed)"``."""
    names = [name for name in public(after) if before.get(name) != after.get(name)]
    old = {name: before.get(name) for name in names}
    new = {name: after[name] for name in names}
    for name in SECRET_FIELDS:
        key = _digest_key(name)
        if key in after and before.get(key) != after[key]:
            old[name], new[name] = "(set)", "(changed)"
    return old, new


def _player_of(instance: models.Model) -> Any:
    if instance._meta.label == settings.AUTH_USER_MODEL:
        return instance
    for name in PLAYER_FIELDS:
        try:
            field = instance._meta.get_field(name)
        except Exception:
            continue
        if isinstance(field, models.ForeignKey) and field.related_model._meta.label == settings.AUTH_USER_MODEL:
            return getattr(instance, name)
    return None


def _target(instance: models.Model) -> str:
    return f"{instance._meta.label_lower}:{instance.pk}"


def _message_text(message: Any) -> str:
    """The admin's change message as text (a list of changes is JSON, a custom action's is a sentence)."""
    return message if isinstance(message, str) else json.dumps(message, cls=DjangoJSONEncoder)


def _only_form_fields(message: Any) -> bool:
    """True when the admin's change message speaks of the page's own form fields at most (no inline row added,
    changed or deleted, no sentence of a custom page or action): the stored values then say whether anything
    changed (a form may call a field "changed" that stores the same value, e.g. a date typed differently)."""
    if not isinstance(message, list):
        return False
    for item in message:
        if not isinstance(item, dict) or "added" in item or "deleted" in item:
            return False
        changed = item.get("changed")
        if not isinstance(changed, dict) or "object" in changed:
            return False
    return True


class AuditedAdmin(admin.ModelAdmin):
    """Mixed in before a model admin: its additions, changes and deletions are written to the audit log."""

    def get_object(self, request: HttpRequest, object_id: str, from_field: str | None = None) -> Any:
        found = super().get_object(request, object_id, from_field)
        if found is not None:
            remembered = request.__dict__.setdefault("_audit_before", {})
            remembered.setdefault(_target(found), snapshot(found))
        return found

    def log_addition(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        entry = super().log_addition(request, obj, message)
        _audit("admin_added", request, obj, message, before=None, after=public(snapshot(obj)))
        return entry

    def log_change(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        entry = super().log_change(request, obj, message)
        after = snapshot(obj)
        remembered = request.__dict__.get("_audit_before", {}).get(_target(obj))
        if remembered is None:  # changed by a custom page or action that did not load the row through get_object
            _audit("admin_changed", request, obj, message, before=None, after=public(after))
        else:
            old, new = changed_fields(remembered, after)
            if not old and _only_form_fields(message):
                # Saved as it was (no stored value and no inline row changed): nothing happened, nothing is audited.
                return entry
            _audit("admin_changed", request, obj, message, before=old, after=new)
            request.__dict__["_audit_before"][_target(obj)] = after
        return entry

    def log_deletions(self, request: HttpRequest, queryset: Any) -> Any:
        for row in queryset:
            _audit("admin_deleted", request, row, "", before=public(snapshot(row)), after=None)
        return super().log_deletions(request, queryset)


def _audit(action: str, request: HttpRequest, obj: Any, message: Any, *, before: Any, after: Any) -> None:
    from wallet.services.audit import audit_record

    actor = request.user if getattr(request.user, "is_authenticated", False) else None
    audit_record(
        action=action,
        actor=actor,  # type: ignore[arg-type]
        reason=request.__dict__.get("_audit_reason", ""),  # a page that asks for one (e.g. setting a password)
        player=_player_of(obj),
        target=_target(obj),
        details={"object": str(obj)[:200], "message": _message_text(message)},
        before=before,
        after=after,
    )


def audit_every_admin(site: admin.AdminSite) -> None:
    """Register every model admin of ``site`` again with :class:`AuditedAdmin` in front (once)."""
    for model, model_admin in list(site._registry.items()):
        if isinstance(model_admin, AuditedAdmin):
            continue
        admin_class = type(model_admin)
        site.unregister(model)
        site.register(model, type(f"Audited{admin_class.__name__}", (AuditedAdmin, admin_class), {}))
