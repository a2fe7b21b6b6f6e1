"""The tables of every product and their seats (the one table runtime, architecture rule 7).

A :class:`Table`'s ``kind`` picks the policy that runs it (games.runtime.policy): cash games or tournaments. Timers
are deadlines on the rows, advanced by the ticker's ``cash_tables`` handler (games/runtime/ticks.py): the table's
``next_hand_at``, a seat's ``sit_out_deadline`` and ``disconnected_since``, the hand's ``action_deadline``
(games/models/hands.py).
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
    """Which policy runs the table on the shared runtime (games.runtime.policy): where stacks live, how a hand
    settles, who sets the blinds and seats the players."""

    CASH = "cash", _("cash game")
    TOURNAMENT = "tournament", _("tournament")


class Table(models.Model):
    """A live cash table of one stake.

    ``last_sequence`` is the last event sequence number used on this table (:class:`games.models.HandEvent`); it is
    only advanced while the table row is locked, so sequences are increasing (gap-free on the per-action path; a hand
    held in memory by a table actor and then cancelled leaves the numbers its published events had unused, and
    ``hand_held_in_memory`` says such a hand is in play: ``games.runtime.hand_log``). The ``previous_*`` fields
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
    hand_held_in_memory = models.BooleanField(
        _("hand held in memory"),
        default=False,
        help_text=_(
            "A table actor holds the hand in play in memory: its events are in Redis until the hand ends, and events "
            "written meanwhile are numbered above them."
        ),
    )
    owner_epoch = models.PositiveBigIntegerField(
        _("owner epoch"),
        default=0,
        help_text=_(
            "The fencing token of the runtime process that owns the table (games.runtime.leases): a hand's start and "
            "end written by an owner whose lease a later owner has since taken are refused."
        ),
    )

    class Meta:
        ordering = ("stake", "name")
        verbose_name = _("table")
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

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="seats")
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
    top_up_after_hand = models.PositiveIntegerField(
        _("top-up asked for during the hand (cents)"),
        default=0,
        help_text=_("CASH-15: added from the balance when the hand ends, never above the table maximum."),
    )
    disconnected_since = models.DateTimeField(_("disconnected since"), null=True, blank=True)
    timebank_milliseconds = models.PositiveIntegerField(_("timebank left (ms)"), default=0)
    chips = models.BigIntegerField(_("tournament chips"), default=0, help_text=_("Tournament tables only."))
    hands_dealt_in = models.PositiveIntegerField(_("hands dealt in at this seat"), default=0)
    seated_at = models.DateTimeField(_("seated at"), null=True, blank=True)
    # The client seed the occupant contributed to the next hands' decks (issue 29; hex), valid only while
    # ``client_seed_user`` is the occupant: a new player in the seat never inherits it.
    client_seed = models.CharField(_("client seed (hex)"), max_length=128, blank=True)
    client_seed_user = models.PositiveBigIntegerField(_("client seed of user id"), null=True, blank=True)
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
