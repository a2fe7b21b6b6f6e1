"""What compliance keeps about players: account standing (FRD-18), connections (FRD-03), their reports (FRD-12),
video recording requests (FRD-05), the client's prohibited-program reports (FRD-08) and the support view (LOB-08)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from poker_site.accounts.models import User


class Standing(models.TextChoices):
    """FRD-18's account states (Banzai exclusion, the other one, is ``PlayerTableSettings.banzai_excluded``)."""

    ACTIVE = "active", _("active")
    UNDER_REVIEW = "under_review", _("under review: plays, cannot withdraw")
    SUSPENDED = "suspended", _("suspended: cannot log in or play")
    TERMINATED = "terminated", _("terminated")


BLOCKED_STANDINGS = (Standing.SUSPENDED, Standing.TERMINATED)
"""Standings that sign nobody in (log-in refused, sessions and sockets end)."""
NO_WITHDRAWAL_STANDINGS = (Standing.UNDER_REVIEW, Standing.SUSPENDED, Standing.TERMINATED)


class AccountStanding(models.Model):
    """A player's account state, changed only by the compliance desk's services (each change audited). No row means
    active. ``reason`` is shown to the player (a refused withdrawal or log-in says it)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.PROTECT, related_name="compliance_standing"
    )
    state = models.CharField(_("state"), max_length=16, choices=Standing.choices, default=Standing.ACTIVE)
    reason = models.TextField(_("reason given to the player"), blank=True)
    case = models.ForeignKey(
        "compliance.Case", null=True, blank=True, on_delete=models.PROTECT, related_name="+", verbose_name=_("case")
    )
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    changed_at = models.DateTimeField(_("changed at"), default=timezone.now)

    class Meta:
        verbose_name = _("account standing")
        verbose_name_plural = _("account standings")
        indexes = [models.Index(fields=("state",), name="compliance_standing_state")]

    def __str__(self) -> str:
        return f"{self.user}: {self.get_state_display()}"


class ConnectionKind(models.TextChoices):
    LOG_IN = "log_in", _("log-in")
    TABLE_SOCKET = "table_socket", _("table socket")


class ConnectionRecord(models.Model):
    """A log-in or a socket connect to a table, with the address and device it came from (FRD-03; the shared
    connection indicator reads the socket connects). ``place`` is ``"table:<id>"`` or ``"tournament:<id>"`` for a
    socket, empty for a log-in. ``device`` is the browser's long-lived device cookie."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("kind"), max_length=16, choices=ConnectionKind.choices)
    place = models.CharField(_("place"), max_length=40, blank=True)
    ip = models.GenericIPAddressField(_("IP address"), null=True, blank=True)
    device = models.CharField(_("device"), max_length=64, blank=True)
    user_agent = models.CharField(_("browser"), max_length=300, blank=True)
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        verbose_name = _("connection record")
        verbose_name_plural = _("connection records")
        indexes = [
            models.Index(fields=("user", "-id"), name="compliance_connection_user"),
            models.Index(fields=("ip",), name="compliance_connection_ip"),
            models.Index(fields=("device",), name="compliance_connection_device"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.kind} {self.place} from {self.ip or '?'}"


class PlayerReport(models.Model):
    """A player's report of suspected collusion or cheating in one of their hands (FRD-12); it opened ``case``."""

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    hand = models.ForeignKey("games.Hand", on_delete=models.PROTECT, related_name="+")
    reported = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="+", verbose_name=_("reported players"))
    text = models.TextField(_("what the player saw"))
    created_at = models.DateTimeField(_("reported at"), default=timezone.now)
    case = models.OneToOneField("compliance.Case", on_delete=models.PROTECT, related_name="report")

    class Meta:
        verbose_name = _("player report")
        verbose_name_plural = _("player reports")
        indexes = [models.Index(fields=("reporter", "-created_at"), name="compliance_report_reporter")]

    def __str__(self) -> str:
        return f"report #{self.pk} by {self.reporter} on hand #{self.hand_id}"


class VideoOutcome(models.TextChoices):
    PENDING = "pending", _("awaiting the recording")
    CLEAN = "clean", _("received: nothing wrong found")
    FRAUD = "fraud", _("received: fraud or cheating found")
    NOT_RECEIVED = "not_received", _("not received by the deadline")


class VideoRecordingRequest(models.Model):
    """A request that a player send video recording(s) of their play (FRD-05): the deadline, the file received and the
    outcome. Processed under the Privacy Policy: only the file's reference is kept here."""

    case = models.ForeignKey("compliance.Case", on_delete=models.PROTECT, related_name="video_requests")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    instructions = models.TextField(_("what is requested"))
    deadline = models.DateTimeField(_("deadline"))
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField(_("requested at"), default=timezone.now)
    file_reference = models.CharField(_("received file reference"), max_length=300, blank=True)
    received_at = models.DateTimeField(_("received at"), null=True, blank=True)
    outcome = models.CharField(_("outcome"), max_length=16, choices=VideoOutcome.choices, default=VideoOutcome.PENDING)
    outcome_note = models.TextField(_("outcome note"), blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        verbose_name = _("video recording request")
        verbose_name_plural = _("video recording requests")
        constraints = [
            models.CheckConstraint(
                condition=Q(outcome=VideoOutcome.PENDING) | Q(decided_at__isnull=False),
                name="compliance_video_decided",
            ),
        ]

    def __str__(self) -> str:
        return f"video request #{self.pk} to {self.player} ({self.get_outcome_display()})"


class ProgramCategory(models.TextChoices):
    HAND_TRACKER = "hand_tracker", _("hand tracker")
    HUD = "hud", _("heads-up display (HUD)")
    SCREEN_CAPTURE = "screen_capture", _("screen capture")
    AUTOMATION = "automation", _("automation or bot software")
    OTHER = "other", _("other prohibited program")


class ProhibitedProgramReport(models.Model):
    """What the player's client reported finding running beside it (FRD-08), recorded against the player."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    program = models.CharField(_("program"), max_length=120)
    category = models.CharField(_("category"), max_length=16, choices=ProgramCategory.choices)
    details = models.JSONField(_("details from the client"), default=dict, blank=True)
    detected_at = models.DateTimeField(_("detected at (client's clock)"), null=True, blank=True)
    received_at = models.DateTimeField(_("received at"), default=timezone.now)
    ip = models.GenericIPAddressField(_("IP address"), null=True, blank=True)
    user_agent = models.CharField(_("browser"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("prohibited-program report")
        verbose_name_plural = _("prohibited-program reports")
        indexes = [models.Index(fields=("player", "-received_at"), name="compliance_program_player")]

    def __str__(self) -> str:
        return f"{self.program} ({self.category}) reported for {self.player}"


class PlayerOverview(User):
    """The support view of a player (LOB-08): balances, holds, sanctions, daily counters, Banzai exclusion and open
    cases on one read-only page (the admin's ``compliance.playeroverview``)."""

    class Meta:
        proxy = True
        verbose_name = _("player overview")
        verbose_name_plural = _("player overviews")
