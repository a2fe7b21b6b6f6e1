"""Fraud and compliance cases (FRD-18): subjects, linked hands and tournaments, evidence, status and decisions."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class CaseStatus(models.TextChoices):
    OPEN = "open", _("open")
    UNDER_REVIEW = "under_review", _("under review")
    CLOSED = "closed", _("closed")


class CaseSource(models.TextChoices):
    FLAG = "flag", _("a detection flag")
    PLAYER_REPORT = "player_report", _("a player's report")
    STAFF = "staff", _("opened by staff")


class CaseOutcome(models.TextChoices):
    NO_VIOLATION = "no_violation", _("no violation found")
    VIOLATION = "violation", _("violation found")
    INCONCLUSIVE = "inconclusive", _("inconclusive")


class Case(models.Model):
    """One review. Its evidence is what is linked to it: flags, player reports, hands, tournaments, notes. Holds made
    for it carry its :attr:`reference` as their review reference. Closed cases take no more actions."""

    title = models.CharField(_("title"), max_length=200)
    source = models.CharField(_("source"), max_length=16, choices=CaseSource.choices)
    status = models.CharField(_("status"), max_length=16, choices=CaseStatus.choices, default=CaseStatus.OPEN)
    subjects = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="compliance_cases", verbose_name=_("subject accounts")
    )
    hands = models.ManyToManyField("games.Hand", related_name="+", blank=True, verbose_name=_("linked hands"))
    tournaments = models.ManyToManyField(
        "tournaments.Tournament", related_name="+", blank=True, verbose_name=_("linked tournaments")
    )
    opened_at = models.DateTimeField(_("opened at"), default=timezone.now)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("reviewer"),
    )
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    outcome = models.CharField(_("outcome"), max_length=16, choices=CaseOutcome.choices, blank=True)
    decision = models.TextField(_("decision"), blank=True)

    class Meta:
        verbose_name = _("case")
        verbose_name_plural = _("cases")
        ordering = ("-pk",)
        permissions = [
            ("review_cases", "Can work the compliance desk (flags, cases, every card of finished hands)"),
            ("sanction_accounts", "Can suspend, terminate, exclude from Banzai, disqualify and record disclosures"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=(Q(status=CaseStatus.CLOSED) & Q(closed_at__isnull=False) & ~Q(outcome=""))
                | (~Q(status=CaseStatus.CLOSED) & Q(closed_at__isnull=True)),
                name="compliance_case_closed_with_outcome",
            ),
        ]
        indexes = [models.Index(fields=("status", "-id"), name="compliance_case_status")]

    def __str__(self) -> str:
        return f"case #{self.pk}: {self.title}"

    @property
    def reference(self) -> str:
        """The review reference of holds made for this case."""
        return f"compliance-case:{self.pk}"


class CaseActionKind(models.TextChoices):
    OPENED = "opened", _("case opened")
    REVIEW_STARTED = "review_started", _("review started")
    NOTE = "note", _("note")
    LINKED = "linked", _("evidence linked")
    FLAG_ADDED = "flag_added", _("flag added")
    HOLD = "hold", _("funds withheld")
    HOLD_RELEASED = "hold_released", _("hold released")
    HOLD_SEIZED = "hold_seized", _("hold seized")
    STANDING = "standing", _("account standing changed")
    BANZAI_EXCLUDED = "banzai_excluded", _("excluded from Banzai")
    BANZAI_READMITTED = "banzai_readmitted", _("readmitted to Banzai")
    DISCLOSED = "disclosed", _("information disclosed")
    DISQUALIFIED = "disqualified", _("disqualified from a tournament")
    VIDEO_REQUESTED = "video_requested", _("video recording requested")
    VIDEO_OUTCOME = "video_outcome", _("video recording outcome")
    CLOSED = "closed", _("case closed")


class CaseAction(models.Model):
    """One decision or action on a case, in order (FRD-18). Append-only (database triggers refuse UPDATE and DELETE);
    ``audit_entry`` is the back office audit log's record of the same action (LOB-10)."""

    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="actions")
    kind = models.CharField(_("kind"), max_length=20, choices=CaseActionKind.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    subject = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("player"),
    )
    text = models.TextField(_("text"), blank=True)
    details = models.JSONField(_("details"), default=dict, blank=True)
    at = models.DateTimeField(_("at"), default=timezone.now)
    audit_entry = models.ForeignKey(
        "wallet.AuditEntry", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name = _("case action")
        verbose_name_plural = _("case actions")
        ordering = ("case", "pk")

    def __str__(self) -> str:
        return f"case #{self.case_id}: {self.get_kind_display()}"
