"""The cash game's records around a table: a player's stay at a table (table sessions, CASH-08), their cross-table
settings and daily counters (CASH-12, CASH-15, CASH-18..20, CASH-31, CASH-32) and the seating queue (CASH-04, CASH-05).

Money: a player's chips at a cash table are the balance of the wallet account of their :class:`TableSession` (kind
TABLE_SESSION). During a hand that balance stays at its start-of-hand amount; the hand's single settlement transfer
moves the result when the hand ends (so a hand that never finishes moves no money, CASH-23/24).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models.catalog import Stake
from games.models.tables import Table


class BuyInKind(models.TextChoices):
    NORMAL = "normal", _("normal")
    RATHOLE_RETURN = "rathole_return", _("return with a big stack (counted, CASH-12)")
    BANZAI_RESUME = "banzai_resume", _("Banzai Resume (CASH-31)")
    BANZAI_RESET = "banzai_reset", _("Banzai Reset (CASH-31)")


class LeaveReason(models.TextChoices):
    PLAYER = "player", _("left")
    SIT_OUT_LIMIT = "sit_out_limit", _("sat out for too long (CASH-17)")
    GLOBAL_SIT_OUT_LIMIT = "global_sit_out_limit", _("global sit out expired (CASH-20)")
    NO_CHIPS = "no_chips", _("no chips left")
    TABLE_CLOSED = "table_closed", _("table closed")


class TableSession(models.Model):
    """A player's stay at a table: from sitting down to leaving (CASH-08).

    The chips are the balance of ``account`` (a TABLE_SESSION wallet account owned by the player). On leaving, the
    stack in cents and the big blind of the moment are recorded for the ratholing and Banzai carry-over rules
    (CASH-11..14, CASH-30).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="table_sessions")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="sessions")
    seat_number = models.PositiveSmallIntegerField(_("seat number"))
    account = models.OneToOneField(
        "wallet.Account", on_delete=models.PROTECT, related_name="table_session", verbose_name=_("table account")
    )
    initial_buy_in = models.PositiveBigIntegerField(_("initial buy-in (cents)"))
    buy_in_kind = models.CharField(_("buy-in"), max_length=16, choices=BuyInKind.choices, default=BuyInKind.NORMAL)
    started_at = models.DateTimeField(_("seated at"), default=timezone.now)
    ended_at = models.DateTimeField(_("left at"), null=True, blank=True, db_index=True)
    leave_reason = models.CharField(_("leave reason"), max_length=24, choices=LeaveReason.choices, blank=True)
    leave_stack = models.BigIntegerField(_("stack on leaving (cents)"), null=True, blank=True)
    leave_big_blind = models.PositiveIntegerField(_("big blind on leaving (cents)"), null=True, blank=True)

    class Meta:
        ordering = ("-started_at",)
        verbose_name = _("table session")
        indexes = [
            models.Index(fields=("user", "table", "ended_at"), name="games_session_user_table_end"),
            models.Index(fields=("user", "ended_at"), name="games_session_user_end"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=("user", "table"), condition=models.Q(ended_at__isnull=True), name="games_session_one_open"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} at {self.table.name} from {self.started_at:%Y-%m-%d %H:%M}"

    @property
    def leave_stack_in_big_blinds(self) -> float | None:
        """The stack on leaving in big blinds of that moment (for display; rules compare cents exactly)."""
        if self.leave_stack is None or not self.leave_big_blind:
            return None
        return self.leave_stack / self.leave_big_blind


class PlayerTableSettings(models.Model):
    """A player's cash-table settings and cross-table state (LOB-04, CASH-15, CASH-18..20, CASH-32)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_settings", primary_key=True
    )
    auto_top_up = models.BooleanField(
        _("auto top up to initial buy-in in Cash Games and Banzai"),
        default=False,
        help_text=_("CASH-15: off by default."),
    )
    sit_out_next_big_blind = models.BooleanField(_("sit out next big blind"), default=False)
    global_sit_out_since = models.DateTimeField(_("global sit out since"), null=True, blank=True)
    global_sit_out_deadline = models.DateTimeField(
        _("global sit out expires"), null=True, blank=True, db_index=True, help_text=_("CASH-20: 500 s.")
    )
    banzai_excluded = models.BooleanField(_("excluded from Banzai (CASH-32)"), default=False)
    banzai_exclusion_reason = models.TextField(_("Banzai exclusion reason"), blank=True)

    class Meta:
        verbose_name = _("player table settings")
        verbose_name_plural = _("player table settings")

    def __str__(self) -> str:
        return f"Table settings of {self.user}"


class DailyCounterKind(models.TextChoices):
    RATHOLING = "ratholing", _("ratholing counter (CASH-12)")
    BANZAI_RESET = "banzai_reset", _("Banzai resets used (CASH-31)")


class PlayerDailyCounter(models.Model):
    """A per-player counter for one UTC day; a new day starts at zero (CASH-12, CASH-31 reset at 00:00 UTC)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="daily_table_counters")
    kind = models.CharField(_("counter"), max_length=16, choices=DailyCounterKind.choices)
    day = models.DateField(_("UTC day"))
    count = models.PositiveIntegerField(_("count"), default=0)

    class Meta:
        ordering = ("-day", "user", "kind")
        verbose_name = _("player daily counter")
        constraints = [models.UniqueConstraint(fields=("user", "kind", "day"), name="games_counter_per_day")]

    def __str__(self) -> str:
        return f"{self.user} {self.kind} {self.day}: {self.count}"


class SeatingRequestStatus(models.TextChoices):
    WAITING = "waiting", _("waiting")
    SEATED = "seated", _("seated")
    CANCELLED = "cancelled", _("left the queue")
    FAILED = "failed", _("could not be seated")


class SeatingRequest(models.Model):
    """A player asking to play a stake (CASH-04, CASH-05): seated at once, or queued until a table can open."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seating_requests")
    stake = models.ForeignKey(Stake, on_delete=models.PROTECT, related_name="seating_requests")
    buy_in = models.PositiveBigIntegerField(_("buy-in (cents)"))
    post_out_of_position = models.BooleanField(_("post a big blind out of position"), default=False)
    status = models.CharField(
        _("status"), max_length=10, choices=SeatingRequestStatus.choices, default=SeatingRequestStatus.WAITING
    )
    created_at = models.DateTimeField(_("asked at"), default=timezone.now)
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    message = models.CharField(_("message"), max_length=300, blank=True)
    # --- assigned seats (issue 22): the Banzai Resume/Reset choice goes with the request, as every sit-down does ---
    banzai_choice = models.CharField(
        _("Banzai choice"),
        max_length=6,
        blank=True,
        help_text=_("Banzai, returning within 30 minutes with more than 10 BB: resume (the default) or reset."),
    )

    class Meta:
        ordering = ("created_at", "pk")
        verbose_name = _("seating request")
        constraints = [
            models.UniqueConstraint(
                fields=("user", "stake"), condition=models.Q(status="waiting"), name="games_request_one_waiting"
            ),
        ]
        indexes = [models.Index(fields=("stake", "status", "created_at"), name="games_request_queue")]

    def __str__(self) -> str:
        return f"{self.user} for {self.stake} ({self.status})"
