"""What the incremental fraud detection keeps (FRD-19): its state and cursors, the thresholds staff tune, the flags."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class DetectorState(models.Model):
    """The indicators' accumulators (``compliance.detection.Detector.state()``, JSON) and how far they have read.

    One row (``name="site"``). The cursors say what has been fed: every hand with an id up to ``hands_cursor`` (the
    finished cash hands among them; a hand still running stops the cursor until it ends), every connection record up
    to ``connections_cursor`` and every table session up to ``sessions_cursor``. A batch reads only past them: nothing
    is ever read twice, and history is never rescanned.
    """

    name = models.CharField(_("name"), max_length=40, unique=True, default="site")
    state = models.JSONField(_("accumulators"), null=True, blank=True)
    hands_cursor = models.BigIntegerField(_("hands read up to id"), default=0)
    connections_cursor = models.BigIntegerField(_("connections read up to id"), default=0)
    sessions_cursor = models.BigIntegerField(_("table sessions read up to id"), default=0)
    hands_fed = models.BigIntegerField(_("hands fed"), default=0)
    updated_at = models.DateTimeField(_("updated at"), default=timezone.now)
    flags_behind = models.BooleanField(
        _("fed since the flags were computed"),
        default=False,
        help_text=_("Something was fed after the stored flags were last computed from the accumulators."),
    )
    flags_computed_at = models.DateTimeField(_("flags computed at"), null=True, blank=True)
    flags_seconds = models.FloatField(
        _("seconds the last flag computation took"),
        default=0.0,
        help_text=_("The flags are computed again once ten times this has passed (the detection's flag cadence)."),
    )

    class Meta:
        verbose_name = _("detector state")
        verbose_name_plural = _("detector state")

    def __str__(self) -> str:
        return f"detector {self.name}: hands to #{self.hands_cursor}"


class IndicatorSetting(models.Model):
    """One tunable parameter of an indicator (FRD-19: thresholds staff can tune). Rows exist for every parameter of
    every indicator (created after each migrate with the defaults); staff change ``value``. Parameters marked
    "accumulation" shape what is counted from then on; the others apply the next time flags are computed."""

    indicator = models.CharField(_("indicator"), max_length=40)
    parameter = models.CharField(_("parameter"), max_length=60)
    value = models.FloatField(_("value"))
    default = models.FloatField(_("default"), editable=False)
    whole_number = models.BooleanField(_("whole number"), default=False, editable=False)
    description = models.TextField(_("description"), blank=True, editable=False)
    updated_at = models.DateTimeField(_("updated at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("indicator setting")
        verbose_name_plural = _("indicator settings")
        ordering = ("indicator", "parameter")
        constraints = [
            models.UniqueConstraint(fields=("indicator", "parameter"), name="compliance_setting_per_parameter"),
            models.CheckConstraint(condition=Q(value__gte=0), name="compliance_setting_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.indicator}.{self.parameter} = {self.value:g}"


class FlagStatus(models.TextChoices):
    OPEN = "open", _("open: awaiting review")
    IN_CASE = "in_case", _("taken into a case")
    DISMISSED = "dismissed", _("dismissed")
    RETRACTED = "retracted", _("retracted: its evidence no longer holds")


PROHIBITED_PROGRAM = "prohibited_program"
"""The indicator of flags raised by the client's prohibited-program reports (FRD-08), beside the detector's."""


class Flag(models.Model):
    """A finding for review (FRD-19): an indicator reached its threshold for these players.

    ``player_keys`` are the players in the indicator's order (``"user:3,user:9"``: for chip dumping the loser
    first); ``hands`` the hand ids that are the evidence; ``evidence`` the numbers behind the score; ``score`` is in the
    indicator's own unit, ``severity`` on the scale common to all indicators (the queue's order). Each detection
    batch updates the flags it computes. A dismissed flag opens again only when its score rises above the score it
    was dismissed at.
    """

    indicator = models.CharField(_("indicator"), max_length=40)
    player_keys = models.CharField(_("players"), max_length=200)
    players = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="compliance_flags", blank=True)
    score = models.FloatField(_("score"))
    severity = models.FloatField(
        _("severity"),
        default=0.0,
        help_text=_(
            "0 to 100, one scale for every indicator: 30 is a finding honest play shows about once in a thousand, "
            "50 once in 100,000 (see compliance.detection.flags)."
        ),
    )
    threshold = models.FloatField(_("threshold"))
    hands = models.JSONField(_("evidence hands"), default=list, blank=True)
    evidence = models.JSONField(_("evidence"), default=dict, blank=True)
    requirements = models.JSONField(_("requirements"), default=list, blank=True)
    status = models.CharField(_("status"), max_length=12, choices=FlagStatus.choices, default=FlagStatus.OPEN)
    case = models.ForeignKey(
        "compliance.Case", null=True, blank=True, on_delete=models.PROTECT, related_name="flags", verbose_name=_("case")
    )
    raised_at = models.DateTimeField(_("raised at"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated at"), default=timezone.now)
    dismissed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    dismissed_at = models.DateTimeField(_("dismissed at"), null=True, blank=True)
    dismissal_reason = models.TextField(_("dismissal reason"), blank=True)
    dismissed_score = models.FloatField(_("score when dismissed"), null=True, blank=True)

    class Meta:
        verbose_name = _("flag")
        verbose_name_plural = _("flags")
        constraints = [
            models.UniqueConstraint(fields=("indicator", "player_keys"), name="compliance_flag_per_players"),
        ]
        indexes = [models.Index(fields=("status", "-severity", "-score"), name="compliance_flag_queue_severity")]

    def __str__(self) -> str:
        return f"flag #{self.pk} {self.indicator} ({self.score:.2f}, severity {self.severity:.0f})"

    @property
    def player_ids(self) -> list[int]:
        """The players' user ids in the indicator's order."""
        return [int(key.partition(":")[2]) for key in self.player_keys.split(",") if key]
