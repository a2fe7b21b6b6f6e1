"""A rule change proposed by one staff member and applied when a second one approves it (issue 30: rule changes by
staff need two people, as money does). The kinds of rule and how each is checked and applied are registered by their
apps in :mod:`poker_site.core.rule_changes`."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class RuleChangeStatus(models.TextChoices):
    PENDING = "pending", _("awaiting approval")
    APPROVED = "approved", _("approved and applied")
    REJECTED = "rejected", _("rejected")
    # Closed by the system, decided by nobody: what it would change has ended (a hold released or seized while its
    # seizure waited), so it can no longer apply. The decision note says why.
    WITHDRAWN = "withdrawn", _("withdrawn (it can no longer apply)")


class RuleChangeProposal(models.Model):
    """One proposed change of a rule (``kind``) on one row (``target``, ``"<app_label>.<model>:<pk>"``): the values
    before and the changes, a reason, and the decision. The database refuses a decision by the proposer, and a
    rejection or a withdrawal without a reason (a withdrawal has no decider: the system closed it)."""

    kind = models.CharField(_("kind of rule"), max_length=40)
    target = models.CharField(_("target"), max_length=200)
    summary = models.CharField(_("change"), max_length=300)
    before = models.JSONField(_("before"), default=dict)
    changes = models.JSONField(_("changes"))
    reason = models.TextField(_("reason"))
    needs_administrator = models.BooleanField(_("needs an administrator's approval"), default=False)
    status = models.CharField(
        _("status"), max_length=10, choices=RuleChangeStatus.choices, default=RuleChangeStatus.PENDING
    )
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("proposed by"), on_delete=models.PROTECT, related_name="+"
    )
    proposed_at = models.DateTimeField(_("proposed at"), default=timezone.now)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("decided by"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decision_note = models.TextField(_("decision note"), blank=True)

    class Meta:
        verbose_name = _("rule change proposal")
        verbose_name_plural = _("rule change proposals")
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="core_rule_change_reason_given"),
            models.CheckConstraint(
                condition=Q(decided_by__isnull=True) | ~Q(decided_by=models.F("proposed_by")),
                name="core_rule_change_decided_by_another",
            ),
            models.CheckConstraint(
                condition=Q(status=RuleChangeStatus.PENDING, decided_by__isnull=True)
                | Q(status=RuleChangeStatus.APPROVED, decided_by__isnull=False)
                | (Q(status=RuleChangeStatus.REJECTED, decided_by__isnull=False) & ~Q(decision_note=""))
                | (
                    Q(status=RuleChangeStatus.WITHDRAWN, decided_by__isnull=True, decided_at__isnull=False)
                    & ~Q(decision_note="")
                ),
                name="core_rule_change_status_consistent",
            ),
        ]
        indexes = [models.Index(fields=["status", "proposed_at"], name="core_rule_change_status")]
        permissions = [
            ("approve_any_rule_change", "Can approve any rule change proposed by another staff member"),
        ]

    def __str__(self) -> str:
        return f"rule change #{self.pk}: {self.summary}"
