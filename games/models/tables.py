"""Cash tables, their seats, players' stays at them (table sessions) and the seating queue (CASH-04..09).

Money: a player's chips at a table are the balance of the wallet account of their :class:`TableSession` (kind
TABLE_SESSION). During a hand that balance stays at its start-of-hand amount; the hand's single settlement transfer
moves the result when the hand ends (so a hand that never finishes moves no money, CASH-23/24).

Timers are deadlines on the rows, advanced by the ``cash_tables`` ticker handler (games/ticks.py): the table's
``next_hand_at``, a seat's ``sit_out_deadline`` and ``disconnected_since``, the hand's ``action_deadline``
(games/models/hands.py) and the player's ``global_sit_out_deadline``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models.catalog import Stake


class TableStatus(models.TextChoices):
    OPEN = "open", _("open")
    CLOSED = "closed", _("closed")


class TableKind(models.TextChoices):
    """Which policy runs the table on the shared runtime (games.services.policy): where stacks live, how a hand
    settles, who sets the blinds and seats the players."""

    CASH = "cash", _("cash game")
    TOURNAMENT = "tournament", _("tournament")


class CashTable(models.Model):
    """A live cash table of one stake.

    ``last_sequence`` is the last event sequence number used on this table (:class:`games.models.HandEvent`); it is
    only advanced while the table row is locked, so sequences are gap-free and increasing. The ``previous_*`` fields
    remember the last hand's positions for the button and blinds rules (ENG-05, AMB-22, AMB-66) and the heads-up
    exception (CASH-06, AMB-11). ``version`` increases on every change (compare-and-swap claims).

    Support staff close a table from the back office (``games.services.table_close``): at once between hands, or —
    ``close_after_hand`` set meanwhile — when the hand in play ends; ``close_reason`` records why.
    """

    kind = models.CharField(_("kind"), max_length=10, choices=TableKind.choices, default=TableKind.CASH)
    stake = models.ForeignKey(Stake, null=True, blank=True, on_delete=models.PROTECT, related_name="tables")
    name = models.CharField(_("name"), max_length=60)
    status = models.CharField(_("status"), max_length=8, choices=TableStatus.choices, default=TableStatus.OPEN)
    seat_count = models.PositiveSmallIntegerField(_("seats"))
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    close_after_hand = models.BooleanField(
        _("close when the hand ends"),
        default=False,
        help_text=_("Support staff closed the table during a hand: it closes when that hand ends."),
    )
    close_reason = models.CharField(_("reason for closing"), max_length=300, blank=True)
    hands_played = models.PositiveIntegerField(_("hands dealt"), default=0)
    last_sequence = models.BigIntegerField(_("last event sequence"), default=0)
    current_hand = models.OneToOneField(
        "games.Hand", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("hand in play")
    )
    previous_button_seat = models.PositiveSmallIntegerField(_("last hand's button"), null=True, blank=True)
    previous_small_blind_seat = models.PositiveSmallIntegerField(_("last hand's small blind"), null=True, blank=True)
    previous_big_blind_seat = models.PositiveSmallIntegerField(_("last hand's big blind"), null=True, blank=True)
    previous_dealt_in_seats = models.JSONField(_("seats dealt into the last hand"), default=list, blank=True)
    next_hand_at = models.DateTimeField(
        _("next hand not before"), null=True, blank=True, db_index=True, help_text=_("Deadline for the ticker.")
    )
    version = models.PositiveBigIntegerField(_("version"), default=0)

    class Meta:
        ordering = ("stake", "name")
        verbose_name = _("cash table")
        permissions = [("close_table", "Can close a cash table (every player is cashed out)")]
        constraints = [
            models.CheckConstraint(condition=models.Q(seat_count__gte=2, seat_count__lte=10), name="games_table_seats"),
            models.CheckConstraint(
                condition=~models.Q(kind="cash") | models.Q(stake__isnull=False), name="games_cash_table_has_stake"
            ),
        ]
        indexes = [models.Index(fields=("stake", "status"), name="games_table_stake_status")]

    def __str__(self) -> str:
        return f"{self.name} ({self.stake})" if self.stake_id is not None else self.name

    @property
    def cash_stake(self) -> Stake:
        """The stake of a cash table; asking a tournament table for one is a programming error."""
        if self.stake is None:
            raise ValueError(f"table {self.pk} is a {self.kind} table: it has no stake")
        return self.stake


TABLES_TAKING_PLAYERS = models.Q(kind=TableKind.CASH, status=TableStatus.OPEN, close_after_hand=False)
"""Cash tables that seat new players and are listed: open, and not closing when the hand in play ends."""


class SeatStatus(models.TextChoices):
    """Where a seat stands for the next hand."""

    EMPTY = "empty", _("empty")
    PLAYING = "playing", _("playing")
    WAITING_FOR_BIG_BLIND = "waiting_big_blind", _("waiting for the big blind")
    POSTING_OUT_OF_POSITION = "posting", _("will post a big blind out of position")
    SITTING_OUT = "sitting_out", _("sitting out")


class SitOutReason(models.TextChoices):
    NONE = "", _("—")
    PLAYER = "player", _("chose to sit out")
    GLOBAL = "global", _("global sit out (CASH-18)")
    NEXT_BIG_BLIND = "next_big_blind", _("sit out next big blind (CASH-19)")
    DISCONNECTED = "disconnected", _("timed out while disconnected (CASH-22)")
    NO_CHIPS = "no_chips", _("no chips left")


class Seat(models.Model):
    """One seat of a table; occupied while ``user`` is set.

    Where the occupant's stack lives depends on the table's kind: at a cash table it is the balance of the wallet
    account of ``session`` (money, integer cents); at a tournament table it is ``chips`` (counters with no money value,
    TRN-16), and there is no session.

    Timers: ``sit_out_deadline`` (CASH-17 10 minutes, CASH-20 500 s), ``disconnected_since`` (CASH-22), and the seat's
    timebank balance ``timebank_milliseconds`` (TB-01..04; per table, not renewed between hands).
    """

    table = models.ForeignKey(CashTable, on_delete=models.PROTECT, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat number"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="cash_seats"
    )
    session = models.OneToOneField(
        "games.TableSession", null=True, blank=True, on_delete=models.PROTECT, related_name="seat"
    )
    status = models.CharField(_("status"), max_length=20, choices=SeatStatus.choices, default=SeatStatus.EMPTY)
    sit_out_reason = models.CharField(
        _("sit-out reason"), max_length=16, choices=SitOutReason.choices, default=SitOutReason.NONE, blank=True
    )
    sit_out_since = models.DateTimeField(_("sitting out since"), null=True, blank=True)
    sit_out_deadline = models.DateTimeField(_("removed at"), null=True, blank=True, db_index=True)
    sit_out_after_hand = models.BooleanField(_("sit out when the hand ends"), default=False)
    sit_out_reason_after_hand = models.CharField(
        _("reason for sitting out after the hand"), max_length=16, choices=SitOutReason.choices, blank=True, default=""
    )
    sit_out_next_big_blind = models.BooleanField(_("sit out at the next big blind (CASH-19)"), default=False)
    missed_big_blind = models.BooleanField(
        _("missed the big blind while sitting out"),
        default=False,
        help_text=_("CASH-21: on returning, wait for the big blind or post one out of position."),
    )
    leave_after_hand = models.BooleanField(_("leave when the hand ends"), default=False)
    disconnected_since = models.DateTimeField(_("disconnected since"), null=True, blank=True)
    timebank_milliseconds = models.PositiveIntegerField(_("timebank left (ms)"), default=0)
    chips = models.BigIntegerField(_("tournament chips"), default=0, help_text=_("Tournament tables only."))
    hands_dealt_in = models.PositiveIntegerField(_("hands dealt in at this seat"), default=0)
    seated_at = models.DateTimeField(_("seated at"), null=True, blank=True)
    version = models.PositiveBigIntegerField(_("version"), default=0)

    class Meta:
        ordering = ("table", "number")
        constraints = [
            models.UniqueConstraint(fields=("table", "number"), name="games_seat_number_per_table"),
            models.UniqueConstraint(
                fields=("table", "user"), condition=models.Q(user__isnull=False), name="games_seat_one_per_player"
            ),
            models.CheckConstraint(
                condition=(models.Q(status="empty") & models.Q(user__isnull=True) & models.Q(session__isnull=True))
                | (~models.Q(status="empty") & models.Q(user__isnull=False)),
                name="games_seat_occupied_iff_user",
            ),
            models.CheckConstraint(condition=models.Q(chips__gte=0), name="games_seat_chips_not_negative"),
        ]
        indexes = [models.Index(fields=("user", "status"), name="games_seat_user_status")]

    def __str__(self) -> str:
        return f"{self.table.name} seat {self.number}"

    @property
    def occupied(self) -> bool:
        return self.user_id is not None


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
    table = models.ForeignKey(CashTable, on_delete=models.PROTECT, related_name="sessions")
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
    table = models.ForeignKey(CashTable, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    message = models.CharField(_("message"), max_length=300, blank=True)

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
