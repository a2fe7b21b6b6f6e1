"""The player's own deposit limits and self-exclusions. Both are append-only records: a limit change is a new row
with the moment it takes effect, a self-exclusion is a row that nobody edits (the admin shows them read-only)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class LimitPeriod(models.TextChoices):
    """The window a deposit limit counts over: the last 24 hours, 7 days or 30 days (rolling)."""

    DAY = "day", _("daily")
    WEEK = "week", _("weekly")
    MONTH = "month", _("monthly")


LIMIT_WINDOWS: dict[str, timedelta] = {
    LimitPeriod.DAY: timedelta(hours=24),
    LimitPeriod.WEEK: timedelta(days=7),
    LimitPeriod.MONTH: timedelta(days=30),
}


class DepositLimitChange(models.Model):
    """One choice of a player's deposit limit for one period. ``amount`` ``None`` removes the limit. The limit in
    force at a moment is the latest chosen row (by ``requested_at``) whose ``effective_at`` has come and that no later
    choice replaced before then; a raise or a removal takes effect 24 hours after it was asked for, a cut at once.
    The latest request decides: any choice replaces a change still pending (which then never takes effect)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="deposit_limit_changes",
    )
    period = models.CharField(_("period"), max_length=8, choices=LimitPeriod.choices)
    amount = models.BigIntegerField(_("limit (cents)"), null=True, blank=True, help_text=_("Empty: no limit."))
    requested_at = models.DateTimeField(_("requested at"), default=timezone.now)
    effective_at = models.DateTimeField(_("takes effect at"))

    class Meta:
        verbose_name = _("deposit limit change")
        verbose_name_plural = _("deposit limit changes")
        constraints = [
            models.CheckConstraint(
                condition=Q(amount__isnull=True) | Q(amount__gt=0), name="responsible_gaming_limit_positive"
            ),
            models.CheckConstraint(
                condition=Q(effective_at__gte=models.F("requested_at")),
                name="responsible_gaming_limit_not_retroactive",
            ),
        ]
        indexes = [models.Index(fields=["user", "period", "-requested_at"], name="rg_limit_user_period")]

    def __str__(self) -> str:
        return f"{self.user} {self.period} limit {self.amount} from {self.effective_at:%Y-%m-%d %H:%M}"


class ExclusionPeriod(models.TextChoices):
    """The periods a player may exclude themselves for."""

    DAY = "24h", _("24 hours")
    WEEK = "7d", _("7 days")
    MONTH = "30d", _("30 days")
    HALF_YEAR = "6m", _("6 months")
    PERMANENT = "permanent", _("permanently")


EXCLUSION_LENGTHS: dict[str, timedelta | None] = {
    ExclusionPeriod.DAY: timedelta(hours=24),
    ExclusionPeriod.WEEK: timedelta(days=7),
    ExclusionPeriod.MONTH: timedelta(days=30),
    ExclusionPeriod.HALF_YEAR: timedelta(days=183),
    ExclusionPeriod.PERMANENT: None,
}


class SelfExclusion(models.Model):
    """A player's self-exclusion from play and deposits, from ``started_at`` to ``ends_at`` (``None``: permanent).
    It cannot be lifted before it ends: no service changes it and the admin shows it read-only."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("player"), on_delete=models.PROTECT, related_name="self_exclusions"
    )
    period = models.CharField(_("period"), max_length=16, choices=ExclusionPeriod.choices)
    started_at = models.DateTimeField(_("started at"), default=timezone.now)
    ends_at = models.DateTimeField(_("ends at"), null=True, blank=True, help_text=_("Empty: permanent."))

    class Meta:
        verbose_name = _("self-exclusion")
        verbose_name_plural = _("self-exclusions")
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__isnull=True) | Q(ends_at__gt=models.F("started_at")),
                name="responsible_gaming_exclusion_ends_after_start",
            )
        ]
        indexes = [models.Index(fields=["user", "-started_at"], name="rg_exclusion_user_started")]

    def __str__(self) -> str:
        return f"{self.user} excluded {self.period} from {self.started_at:%Y-%m-%d %H:%M}"
