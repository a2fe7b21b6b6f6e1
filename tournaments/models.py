"""Tournaments: definitions, their levels and payouts, entries, tables and breaks (§7 TRN, §9 FEE).

A :class:`Tournament` is both its definition (editable by staff in the back office, TRN-02) and the state of its run
(status, registration, the level clock, breaks, hand-for-hand). Its players' chips live on the seats of its tables
(``games.Seat.chips``, TRN-16): tournament tables are ordinary tables of the one runtime with the tournament policy
(``tournaments.table_policy``). Money moves only through the wallet: buy-in and fee as two legs of the registration
transfer (FEE-04), prizes from the tournament's prize pool account, each transfer idempotent.

Timers are deadlines on these rows (architecture rule 5): ``starts_at``, ``break_due_at`` and ``break_ends_at``, the
level clock (``started_at`` and the recorded :class:`TournamentBreak` pauses); the Celery beat task
``tournaments.tasks.tournaments_advance`` moves them on, idempotently, looking at a running tournament only when one
of them fell due (``coordination_due_at``), a service changed it, or one of its tables waits for it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from poker_site.core.constraints import validate_constraints_in_words


class TournamentKind(models.TextChoices):
    SCHEDULED = "scheduled", _("scheduled multi-table tournament")
    SIT_AND_GO = "sit_and_go", _("Sit & Go")
    HEXAPRO = "hexapro", _("HexaPro game")


class TournamentStatus(models.TextChoices):
    ANNOUNCED = "announced", _("announced (registration not open)")
    REGISTERING = "registering", _("registering")
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")
    CANCELLED = "cancelled", _("cancelled")


class BountyKind(models.TextChoices):
    """TRN-41, TRN-42: the kind of bounty of a tournament (``tournaments.rules.bounties.BountyKind``)."""

    NONE = "none", _("no bounty")
    REGULAR = "regular", _("bounty")
    PROGRESSIVE = "progressive", _("progressive bounty")


class FinalStageStart(models.TextChoices):
    FINAL_TABLE = "final_table", _("from the final table")
    IN_THE_MONEY = "in_the_money", _("from the money")


class HandForHandMode(models.TextChoices):
    AUTOMATIC = "auto", _("automatic at the bubble (AMB-43)")
    ON = "on", _("on (staff)")
    OFF = "off", _("off (staff)")


class PayoutStructure(models.Model):
    """Payout templates keyed by entrant ranges and table size (TRN-06); staff edit the ranges."""

    name = models.CharField(_("name"), max_length=80, unique=True)

    class Meta:
        ordering = ("name",)
        verbose_name = _("payout structure")

    def __str__(self) -> str:
        return self.name


class PayoutRange(models.Model):
    """The prize shares (basis points per place, 1st first; they sum to 10,000) for ``minimum_entrants`` to
    ``maximum_entrants`` (empty: no upper end) at tables of ``table_size`` seats (empty: any size)."""

    structure = models.ForeignKey(PayoutStructure, on_delete=models.CASCADE, related_name="ranges")
    minimum_entrants = models.PositiveIntegerField(_("from entrants"))
    maximum_entrants = models.PositiveIntegerField(_("to entrants"), null=True, blank=True)
    table_size = models.PositiveSmallIntegerField(_("table size"), null=True, blank=True)
    shares_basis_points = models.JSONField(_("shares per place (basis points)"))

    class Meta:
        ordering = ("structure", "table_size", "minimum_entrants")
        verbose_name = _("payout range")

    def __str__(self) -> str:
        upper = self.maximum_entrants if self.maximum_entrants is not None else "∞"
        return f"{self.structure}: {self.minimum_entrants}–{upper} entrants, {len(self.shares_basis_points)} paid"


TOURNAMENT_CONSTRAINT_WORDS = {
    "tournaments_scheduled_has_start": ("starts_at", "A scheduled tournament needs its start date and time."),
    "tournaments_sit_and_go_has_seats": (
        "seats_to_start",
        "A Sit & Go starts when its seats are taken: give at least 2 seats to start.",
    ),
    "tournaments_table_size": ("table_size", "A table seats 2 to 10 players."),
    "tournaments_timebank_first_within_cap": (
        "timebank_first_hand_seconds",
        "The first hand's timebank cannot be longer than the timebank's cap.",
    ),
    "tournaments_replenish_positive": (
        "timebank_replenish_every_hands",
        "The timebank is topped up every 1 or more hands.",
    ),
    "tournaments_minimum_two": ("minimum_entrants", "A tournament needs at least 2 entrants to start."),
    "tournaments_flight_ends_at_a_level": (
        "final_level",
        "A Phase 1 flight ends after one of its levels (level 1 or later) and is not a Phase 2 itself.",
    ),
}
"""Each constraint of :class:`Tournament` in words, on the field staff change to satisfy it."""

LEVEL_CONSTRAINT_WORDS = {
    "tournaments_level_from_one": ("number", "Levels are numbered from 1."),
    "tournaments_level_blinds": ("small_blind", "The small blind is at least 1 and not above the big blind."),
    "tournaments_level_length": ("duration_seconds", "A level lasts at least one second."),
}


class Tournament(models.Model):
    """A tournament's definition (TRN-02) and the state of its run; see the module docstring."""

    name = models.CharField(_("name"), max_length=120)
    kind = models.CharField(_("kind"), max_length=12, choices=TournamentKind.choices)
    variant = models.CharField(
        _("game"), max_length=2, choices=[("NT", _("No-Limit Hold'em")), ("PO", _("Pot-Limit Omaha"))], default="NT"
    )
    status = models.CharField(
        _("status"), max_length=12, choices=TournamentStatus.choices, default=TournamentStatus.REGISTERING
    )
    starts_at = models.DateTimeField(
        _("starts at"), null=True, blank=True, db_index=True, help_text=_("Scheduled tournaments (TRN-01).")
    )
    registration_opens_at = models.DateTimeField(_("registration opens at"), null=True, blank=True)
    seats_to_start = models.PositiveIntegerField(
        _("players to start"), null=True, blank=True, help_text=_("Sit & Go: starts when this many have registered.")
    )
    table_size = models.PositiveSmallIntegerField(_("players per table"), default=9)
    buy_in = models.PositiveBigIntegerField(_("buy-in (prize pool part, cents)"), default=0)
    fee = models.PositiveBigIntegerField(_("entrance fee (cents)"), default=0)
    added_prize_money = models.PositiveBigIntegerField(
        _("operator-added prize money (cents)"), default=0, help_text=_("Freerolls and promotions (TRN-17, CXL-05).")
    )
    guarantee = models.PositiveBigIntegerField(_("guaranteed prize pool (cents)"), default=0)
    # --- Bounties (TRN-41..TRN-44, AMB-18, AMB-48, AMB-61; tournaments/rules/bounties.py) ------------------------
    bounty_kind = models.CharField(_("bounty kind"), max_length=12, choices=BountyKind.choices, default=BountyKind.NONE)
    bounty = models.PositiveBigIntegerField(
        _("bounty per entry (cents)"),
        default=0,
        help_text=_("Paid with the buy-in, held apart from the prize pool: the player's starting bounty (TRN-41)."),
    )
    bounty_credited_percent = models.PositiveSmallIntegerField(
        _("progressive: % credited to the knocking-out player"), default=50, help_text=_("TRN-42, AMB-18.")
    )
    bounty_added_percent = models.PositiveSmallIntegerField(
        _("progressive: % added to the knocking-out player's bounty"), default=50, help_text=_("TRN-42, AMB-18.")
    )
    vip_player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("VIP player"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("TRN-43: the player carrying the VIP bounty."),
    )
    vip_bounty = models.PositiveBigIntegerField(
        _("VIP bounty (cents)"),
        default=0,
        help_text=_("Added by the operator; paid only to whoever knocks the VIP out (TRN-43, AMB-61)."),
    )
    starting_stack = models.PositiveIntegerField(_("starting chips"), default=10_000)
    late_registration_levels = models.PositiveSmallIntegerField(_("late registration (levels)"), default=0)
    unregistration_allowed = models.BooleanField(_("unregistration allowed"), default=True)
    unregistration_closes_minutes = models.PositiveIntegerField(
        _("unregistration closes (minutes before the start)"), default=5
    )
    minimum_entrants = models.PositiveIntegerField(_("minimum entrants"), default=2)
    maximum_entrants = models.PositiveIntegerField(_("maximum entrants"), null=True, blank=True)
    synchronized_breaks = models.BooleanField(_("synchronized breaks at :55 (TRN-30)"), default=False)
    break_every_levels = models.PositiveSmallIntegerField(
        _("break after every N levels"), null=True, blank=True, help_text=_("Only without synchronized breaks.")
    )
    break_seconds = models.PositiveIntegerField(_("break length (s)"), default=300, help_text=_("AMB-41: 5 minutes."))
    payout_structure = models.ForeignKey(PayoutStructure, on_delete=models.PROTECT, related_name="tournaments")
    end_when_prizes_identical = models.BooleanField(
        _("end when the remaining prizes are identical (TRN-21)"), default=False
    )
    hand_for_hand_mode = models.CharField(
        _("hand-for-hand"), max_length=4, choices=HandForHandMode.choices, default=HandForHandMode.AUTOMATIC
    )
    decision_seconds = models.PositiveSmallIntegerField(_("normal decision time (s)"), default=10)
    timebank_first_hand_seconds = models.PositiveSmallIntegerField(_("timebank at first hand (s)"), default=15)
    timebank_cap_seconds = models.PositiveSmallIntegerField(_("timebank cap (s)"), default=30)
    timebank_replenish_seconds = models.PositiveSmallIntegerField(_("timebank replenishment (s)"), default=5)
    timebank_replenish_every_hands = models.PositiveSmallIntegerField(_("replenish every N hands"), default=10)
    reconnect_grace_seconds = models.PositiveSmallIntegerField(_("reconnection grace (s)"), default=20)
    final_stage_reconnect_seconds = models.PositiveSmallIntegerField(
        _("final-stage extra reconnect time (s)"), default=60, help_text=_("TRN-31 / AMB-44.")
    )
    final_stage_from = models.CharField(
        _("final stage starts"), max_length=12, choices=FinalStageStart.choices, default=FinalStageStart.FINAL_TABLE
    )
    pause_between_hands_milliseconds = models.PositiveIntegerField(_("pause between hands (ms)"), default=2500)
    reopens = models.BooleanField(
        _("open the next one when this one starts"),
        default=False,
        help_text=_("Sit & Go: a copy of this definition opens for registration as soon as this one starts."),
    )
    eligibility = models.JSONField(
        _("entry requirements"),
        default=dict,
        blank=True,
        help_text=_('Freerolls (TRN-17): e.g. {"account_age_days": 7} or {"all": [...]}; empty = anyone.'),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    # --- rebuys-reentry: multi-buy-in (TRN-38, AMB-47), re-buys and add-on (TRN-39, FEE-03), re-entry (TRN-40) -----
    # Not combined with bounties or phased tournaments yet (built elsewhere): a definition combining them must be
    # refused there until the prize and bounty parts of a re-buy are decided.
    buy_in_minimum = models.PositiveBigIntegerField(
        _("multi-buy-in: minimum (cents)"),
        null=True,
        blank=True,
        help_text=_("TRN-38: the least a player may pay (buy-in + fee); empty = one fixed buy-in."),
    )
    buy_in_maximum = models.PositiveBigIntegerField(_("multi-buy-in: maximum (cents)"), null=True, blank=True)
    buy_in_step = models.PositiveBigIntegerField(_("multi-buy-in: step (cents)"), null=True, blank=True)
    rebuy_levels = models.PositiveSmallIntegerField(
        _("re-buy period (levels)"), default=0, help_text=_("TRN-39: 0 = no re-buys.")
    )
    rebuy_maximum = models.PositiveSmallIntegerField(_("re-buys per entry"), default=0)
    rebuy_stack_threshold = models.PositiveIntegerField(
        _("re-buy stack threshold (chips)"),
        default=0,
        help_text=_("A re-buy only while the player's chips are at or below this."),
    )
    rebuy_buy_in = models.PositiveBigIntegerField(_("re-buy: prize pool part (cents)"), default=0)
    rebuy_fee = models.PositiveBigIntegerField(_("re-buy: fee (cents)"), default=0)
    rebuy_chips = models.PositiveIntegerField(_("re-buy chips"), default=0)
    add_on_allowed = models.BooleanField(_("add-on offered"), default=False)
    add_on_buy_in = models.PositiveBigIntegerField(_("add-on: prize pool part (cents)"), default=0)
    add_on_fee = models.PositiveBigIntegerField(_("add-on: fee (cents)"), default=0)
    add_on_chips = models.PositiveIntegerField(_("add-on chips"), default=0)
    add_on_timing = models.CharField(
        _("add-on available"),
        max_length=20,
        choices=[
            ("last_rebuy_level", _("during the last level of the re-buy period")),
            ("break", _("at the first break after the re-buy period")),
        ],
        default="last_rebuy_level",
    )
    re_entries_maximum = models.PositiveSmallIntegerField(
        _("re-entries per player"), default=0, help_text=_("TRN-40: 0 = no re-entry (a freezeout).")
    )

    # --- The run --------------------------------------------------------------------------------------------------
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    cancelled_reason = models.CharField(_("cancellation reason"), max_length=300, blank=True)
    registration_closed_at = models.DateTimeField(
        _("registration closed at"), null=True, blank=True, help_text=_("The payouts are final from then (TRN-06).")
    )
    entrants = models.PositiveIntegerField(_("entries"), default=0)
    players_remaining = models.PositiveIntegerField(_("players remaining"), default=0)
    tables_running = models.PositiveIntegerField(_("tables running"), default=0)
    prize_pool = models.PositiveBigIntegerField(_("prize pool (cents)"), null=True, blank=True)
    prizes = models.JSONField(_("prize per place (cents)"), default=list, blank=True)
    level_number = models.PositiveSmallIntegerField(_("level"), default=1)
    level_ends_at = models.DateTimeField(_("level ends at"), null=True, blank=True)
    break_due_at = models.DateTimeField(_("next break due"), null=True, blank=True, db_index=True)
    break_ends_at = models.DateTimeField(_("break ends at"), null=True, blank=True)
    hand_for_hand = models.BooleanField(_("playing hand-for-hand"), default=False)
    hand_for_hand_round = models.PositiveIntegerField(_("hand-for-hand round"), default=0)
    next_table_number = models.PositiveIntegerField(_("next table number"), default=1)
    cancellation_pending = models.BooleanField(
        _("cancellation proposed"), default=False, help_text=_("No new hand is dealt while a cancellation waits.")
    )
    paused_at = models.DateTimeField(
        _("paused at"),
        null=True,
        blank=True,
        help_text=_(
            "Paused by staff (or by a cancellation proposal): the hands in play finish, no new hand is dealt and the "
            "level clock stands still until it resumes."
        ),
    )
    version = models.PositiveBigIntegerField(_("version"), default=0)
    coordination_due_at = models.DateTimeField(
        _("coordination due at"),
        null=True,
        blank=True,
        editable=False,
        help_text=_(
            "When the beat next has work for this running tournament without being asked: its level's end, a break "
            "falling due or ending, the first deal, or a safety interval. Empty: at the next beat (every change "
            "through the services empties it; a table waiting for the tournament is looked at whatever it says)."
        ),
    )

    # --- Satellites and tickets (TRN-37, TRN-10, TRN-11, AMB-54; tournaments/services/tickets.py) ------------------
    series = models.ForeignKey(
        "tournaments.TournamentSeries",
        verbose_name=_("series"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournaments",
        help_text=_("Tickets for a series pay the registration of any of its tournaments of the ticket's value."),
    )
    satellite_target = models.ForeignKey(
        "self",
        verbose_name=_("satellite target"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="satellites",
        help_text=_(
            "A satellite (TRN-37): its prizes are seats in this tournament (its buy-in + fee each), the rest of the "
            "prize pool in cash to the next place."
        ),
    )
    satellite_seats = models.PositiveIntegerField(
        _("satellite seats awarded"), default=0, help_text=_("Fixed when registration closes: prize pool ÷ seat price.")
    )

    # --- Phased tournaments (TRN-45; tournaments/services/phases.py) ----------------------------------------------
    is_phase_two = models.BooleanField(
        _("Phase 2 of a phased tournament"),
        default=False,
        help_text=_("Reached only through its Phase 1 flights: players cannot register for it (TRN-45)."),
    )
    phase_two = models.ForeignKey(
        "self",
        verbose_name=_("Phase 1 flight of"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="flights",
        help_text=_(
            "This tournament is a Phase 1 flight: its survivors are carried with their stacks to this Phase 2."
        ),
    )
    final_level = models.PositiveSmallIntegerField(
        _("flight ends after level"),
        null=True,
        blank=True,
        help_text=_(
            "The flight's last level: it stops dealing when this level's time is up (the hands in play are finished "
            "first)."
        ),
    )
    carried_prize_money = models.PositiveBigIntegerField(
        _("prize money carried from the flights (cents)"),
        default=0,
        help_text=_("Phase 2: the flights' prize pools moved into this one as each flight ended."),
    )

    class Meta:
        ordering = ("-starts_at", "-pk")
        verbose_name = _("tournament")
        permissions = [
            ("run_tournament", "Can delay, cancel and switch hand-for-hand of a tournament"),
            ("disqualify_player", "Can disqualify a tournament player (TRN-28)"),
            # Issue 30: forfeiting a disqualified player's prize takes their money: proposing it and deciding it (never
            # one's own proposal) need this one permission, the compliance desk's (see tournaments.forfeiture_changes).
            ("forfeit_prize", "Can propose, approve and reject forfeiting a disqualified player's prize (TRN-28)"),
            # --- cancel-desk: the second staff member's approval of a started tournament's cancellation (CXL-01) ---
            ("approve_cancellation", "Can approve a proposed cancellation of a started tournament (CXL-01)"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(kind="scheduled") | models.Q(starts_at__isnull=False),
                name="tournaments_scheduled_has_start",
            ),
            models.CheckConstraint(
                condition=~models.Q(kind="sit_and_go") | models.Q(seats_to_start__gte=2),
                name="tournaments_sit_and_go_has_seats",
            ),
            models.CheckConstraint(
                condition=models.Q(table_size__gte=2, table_size__lte=10), name="tournaments_table_size"
            ),
            models.CheckConstraint(
                condition=models.Q(timebank_first_hand_seconds__lte=models.F("timebank_cap_seconds")),
                name="tournaments_timebank_first_within_cap",
            ),
            models.CheckConstraint(
                condition=models.Q(timebank_replenish_every_hands__gt=0), name="tournaments_replenish_positive"
            ),
            models.CheckConstraint(condition=models.Q(minimum_entrants__gte=2), name="tournaments_minimum_two"),
            models.CheckConstraint(
                condition=models.Q(phase_two__isnull=True) | models.Q(final_level__gte=1, is_phase_two=False),
                name="tournaments_flight_ends_at_a_level",
            ),
        ]
        indexes = [
            models.Index(fields=("status", "starts_at"), name="tournaments_status_start"),
            models.Index(fields=("status", "coordination_due_at"), name="tournaments_status_due"),
        ]

    def __str__(self) -> str:
        return self.name

    def validate_constraints(self, exclude: Any = None) -> None:
        """The constraints' refusals in words, on their fields (:data:`TOURNAMENT_CONSTRAINT_WORDS`)."""
        validate_constraints_in_words(self, exclude, TOURNAMENT_CONSTRAINT_WORDS)

    def clean(self) -> None:
        """Refused on their fields in words: entry requirements that are not the rule language or name no existing
        series (TRN-17: they would refuse every registration); bounty settings (TRN-41..TRN-43, AMB-18); multi-buy-in,
        re-buy, add-on and re-entry settings that do not make sense together (TRN-38..TRN-40); multi-buy-in with
        bounties, and any of these formats with phases, which the site does not offer together (docs/decisions.md,
        D-25-1: re-buys, add-ons and re-entry are offered with every bounty kind)."""
        from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

        from tournaments.definitions import purchase_settings_errors
        from tournaments.rules.bounties import bounty_settings_problems
        from tournaments.services.eligibility import eligibility_validate

        problems: dict[str, list[str]] = {}
        for field, message in purchase_settings_errors(self).items():
            problems.setdefault(field, []).append(message)
        buys_more = self.is_multi_buy_in or self.offers_purchases or self.re_entries_maximum > 0
        if self.is_multi_buy_in and (self.has_bounties or self.vip_player_id is not None):
            problems.setdefault(NON_FIELD_ERRORS, []).append(
                "Multi-buy-in is not offered in bounty tournaments (the bounty part of a chosen buy-in is not"
                " decided): choose one format. Re-buys, add-ons and re-entry are."
            )
        if buys_more and (self.is_phase_two or self.phase_two_id is not None):
            problems.setdefault(NON_FIELD_ERRORS, []).append(
                "Multi-buy-in, re-buys, add-ons and re-entry are not offered in phased tournaments: choose one format."
            )
        try:
            eligibility_validate(self.eligibility)
        except ValidationError as error:
            problems["eligibility"] = error.messages
        for field, messages in bounty_settings_problems(
            kind=self.bounty_kind,
            bounty=self.bounty,
            credited_percent=self.bounty_credited_percent,
            bounty_percent=self.bounty_added_percent,
            vip_bounty=self.vip_bounty,
            has_vip=self.vip_player_id is not None,
        ).items():
            problems.setdefault(field, []).extend([messages] if isinstance(messages, str) else list(messages))
        if problems:
            raise ValidationError(problems)

    @property
    def is_freeroll(self) -> bool:
        """TRN-17 / FEE-05: no buy-in and no fee."""
        return self.buy_in == 0 and self.bounty_per_entry == 0 and self.fee == 0

    @property
    def entry_price(self) -> int:
        """What a registration costs in cents: buy-in, bounty part and fee (FEE-03, FEE-04, TRN-41)."""
        return self.buy_in + self.bounty_per_entry + self.fee

    @property
    def has_bounties(self) -> bool:
        return self.bounty_kind != BountyKind.NONE

    @property
    def bounty_per_entry(self) -> int:
        """The bounty part of a registration (TRN-41): nothing in a tournament without bounties."""
        return self.bounty if self.has_bounties else 0

    @property
    def is_multi_buy_in(self) -> bool:
        """TRN-38: the player chooses the buy-in between a minimum and a maximum."""
        return self.buy_in_maximum is not None

    @property
    def offers_rebuys(self) -> bool:
        return self.rebuy_levels > 0

    @property
    def offers_purchases(self) -> bool:
        """Re-buys or an add-on may still be bought after the start (TRN-39)."""
        return self.rebuy_levels > 0 or self.add_on_allowed


class TournamentLevel(models.Model):
    """One blind level of a tournament (TRN-02): blinds, the ante every player dealt in posts, and its length."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="levels")
    number = models.PositiveSmallIntegerField(_("level"))
    small_blind = models.PositiveIntegerField(_("small blind"))
    big_blind = models.PositiveIntegerField(_("big blind"))
    ante = models.PositiveIntegerField(_("ante"), default=0)
    duration_seconds = models.PositiveIntegerField(_("length (s)"))

    class Meta:
        ordering = ("tournament", "number")
        verbose_name = _("tournament level")
        constraints = [
            models.UniqueConstraint(fields=("tournament", "number"), name="tournaments_level_number"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="tournaments_level_from_one"),
            models.CheckConstraint(
                condition=models.Q(small_blind__gte=1, small_blind__lte=models.F("big_blind")),
                name="tournaments_level_blinds",
            ),
            models.CheckConstraint(condition=models.Q(duration_seconds__gte=1), name="tournaments_level_length"),
        ]

    def __str__(self) -> str:
        ante = f" ante {self.ante}" if self.ante else ""
        return f"Level {self.number}: {self.small_blind}/{self.big_blind}{ante}"

    def validate_constraints(self, exclude: Any = None) -> None:
        validate_constraints_in_words(self, exclude, LEVEL_CONSTRAINT_WORDS)


class TournamentBreak(models.Model):
    """A break: the level clocks stand still from ``started_at`` to ``ends_at`` (TRN-30, AMB-41)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="breaks")
    started_at = models.DateTimeField(_("started at"))
    ends_at = models.DateTimeField(_("ends at"))

    class Meta:
        ordering = ("tournament", "started_at")
        verbose_name = _("tournament break")

    def __str__(self) -> str:
        return f"{self.tournament} break {self.started_at:%H:%M:%S}–{self.ends_at:%H:%M:%S}"


class EntryStatus(models.TextChoices):
    REGISTERED = "registered", _("registered")
    PLAYING = "playing", _("playing")
    BUSTED = "busted", _("knocked out (place pending)")
    FINISHED = "finished", _("finished")
    UNREGISTERED = "unregistered", _("unregistered (refunded)")
    REFUNDED = "refunded", _("refunded (cancelled)")
    DISQUALIFIED = "disqualified", _("disqualified")
    QUALIFIED = "qualified", _("through to Phase 2")


LIVE_ENTRY_STATUSES = (EntryStatus.REGISTERED, EntryStatus.PLAYING)


class TournamentEntry(models.Model):
    """One registration of a player (TRN-09: one live entry per player and tournament).

    ``prize_contribution`` and ``fee`` are the two amounts paid (FEE-04). While playing, the player's chips are on
    their seat at ``table``. Knocked out: ``eliminated_in_hand`` with the chips they started that hand with, the
    hand-for-hand round if one was being played, and a random ``tie_breaker`` (TRN-22/24); the coordinator then gives
    the finishing ``place`` and its ``prize``, credited by an idempotent transfer (TRN-27). A place drawn at random
    between players tied on chips records the places drawn (``place_drawn_from`` .. ``place_drawn_to``), so the
    players are told (TRN-22).
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries")
    status = models.CharField(_("status"), max_length=12, choices=EntryStatus.choices, default=EntryStatus.REGISTERED)
    idempotency_key = models.CharField(
        _("idempotency key"),
        max_length=100,
        blank=True,
        default="",
        help_text=_("The client's Idempotency-Key: a retried request with it is this row again, not a new purchase."),
    )
    registered_at = models.DateTimeField(_("registered at"), default=timezone.now)
    prize_contribution = models.PositiveBigIntegerField(_("buy-in paid (cents)"), default=0)
    fee = models.PositiveBigIntegerField(_("fee paid (cents)"), default=0)
    bounty_contribution = models.PositiveBigIntegerField(_("bounty part paid (cents)"), default=0)
    bounty = models.PositiveBigIntegerField(
        _("current bounty (cents)"), default=0, help_text=_("Grows in a progressive bounty tournament (TRN-42).")
    )
    bounty_forfeited = models.PositiveBigIntegerField(
        _("bounty forfeited (cents)"), default=0, help_text=_("A disqualified player's bounty, seized (TRN-28).")
    )
    registration_transfer = models.ForeignKey(
        "wallet.Transfer", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    refund_transfer = models.ForeignKey(
        "wallet.Transfer", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    table = models.ForeignKey(
        "games.Table", null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_entries"
    )
    eliminated_at = models.DateTimeField(_("knocked out at"), null=True, blank=True)
    eliminated_in_hand = models.ForeignKey(
        "games.Hand", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    chips_at_hand_start = models.BigIntegerField(_("chips at the start of that hand"), null=True, blank=True)
    hand_for_hand_round = models.PositiveIntegerField(_("hand-for-hand round"), null=True, blank=True)
    tie_breaker = models.BigIntegerField(_("random tie-breaker"), null=True, blank=True)
    place = models.PositiveIntegerField(_("finishing place"), null=True, blank=True)
    place_drawn_from = models.PositiveIntegerField(
        _("drawn among places from"),
        null=True,
        blank=True,
        help_text=_(
            "When players tied on chips had their places drawn at random (TRN-22), the first of those places; empty "
            "when the chips decided the place."
        ),
    )
    place_drawn_to = models.PositiveIntegerField(
        _("drawn among places to"), null=True, blank=True, help_text=_("The last of the places drawn at random.")
    )
    prize = models.PositiveBigIntegerField(_("prize (cents)"), default=0)
    prize_transfer = models.ForeignKey(
        "wallet.Transfer", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    disqualification_reason = models.CharField(_("disqualification reason"), max_length=300, blank=True)
    prize_forfeited = models.BooleanField(_("prize forfeited"), default=False)
    # --- Satellites and tickets (TRN-10, TRN-37) ---------------------------------------------------------------
    paid_with_ticket = models.ForeignKey(
        "tournaments.TournamentTicket",
        verbose_name=_("paid with ticket"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="entries",
    )
    # --- Phased tournaments (TRN-45): a Phase 2 entry's stack, carried from the flight where it was biggest ---
    carried_chips = models.PositiveBigIntegerField(_("chips carried from Phase 1"), null=True, blank=True)
    carried_from = models.ForeignKey(
        "self",
        verbose_name=_("carried from the flight entry"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    # --- rebuys-reentry (TRN-38, TRN-40) ---
    entry_number = models.PositiveSmallIntegerField(
        _("entry number"), default=1, help_text=_("1 = the first entry; 2 and up = re-entries (TRN-40).")
    )
    starting_chips = models.PositiveIntegerField(
        _("starting chips"), null=True, blank=True, help_text=_("Multi-buy-in (TRN-38): the stack the buy-in gave.")
    )
    # --- cancel-desk: partial forfeiture (TRN-28, TRN-09) ---
    prize_forfeited_cents = models.PositiveBigIntegerField(
        _("prize forfeited (cents)"),
        default=0,
        help_text=_("The part of the prize confiscated on disqualification (all of it when the prize is forfeited)."),
    )

    class Meta:
        ordering = ("tournament", "place", "registered_at")
        verbose_name = _("tournament entry")
        verbose_name_plural = _("tournament entries")
        constraints = [
            models.UniqueConstraint(
                fields=("tournament", "user"),
                condition=models.Q(status__in=["registered", "playing"]),
                name="tournaments_one_live_entry",
            ),
            models.UniqueConstraint(
                fields=("tournament", "place"), condition=models.Q(place__isnull=False), name="tournaments_one_place"
            ),
        ]
        indexes = [
            models.Index(fields=("tournament", "status"), name="tournaments_entry_status"),
            models.Index(fields=("user", "status"), name="tournaments_entry_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"


class TournamentBountyAward(models.Model):
    """One knocking-out player's winnings from one knock-out (TRN-41..TRN-44): the bounty credited in cash at once,
    the part added to their own bounty (progressive) and the VIP bounty, with the transfer that credited them."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="bounty_awards")
    hand = models.ForeignKey("games.Hand", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    eliminated = models.ForeignKey(TournamentEntry, on_delete=models.PROTECT, related_name="bounty_lost")
    winner = models.ForeignKey(TournamentEntry, on_delete=models.PROTECT, related_name="bounty_awards")
    cash = models.PositiveBigIntegerField(_("bounty credited (cents)"), default=0)
    added_to_bounty = models.PositiveBigIntegerField(_("added to own bounty (cents)"), default=0)
    vip = models.PositiveBigIntegerField(_("VIP bounty credited (cents)"), default=0)
    transfer = models.ForeignKey("wallet.Transfer", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        ordering = ("tournament", "created_at", "pk")
        verbose_name = _("bounty won")
        verbose_name_plural = _("bounties won")
        constraints = [
            # Once per winner and hand: a player who loses every chip but stays in by a re-buy bought during the
            # hand loses the bounty they had (docs/decisions.md, D-25-1), and can lose a later one the same way.
            models.UniqueConstraint(
                fields=("eliminated", "winner", "hand"), name="tournaments_bounty_once_per_winner_and_hand"
            ),
        ]

    def __str__(self) -> str:
        return f"Bounty of entry {self.eliminated_id} to entry {self.winner_id}"


class PurchaseKind(models.TextChoices):
    REBUY = "rebuy", _("re-buy")
    ADD_ON = "add_on", _("add-on")


class PurchaseStatus(models.TextChoices):
    PENDING = "pending", _("paid, chips added when the current hand ends")
    ADDED = "added", _("chips added")


class TournamentPurchase(models.Model):
    """A re-buy or add-on of an entry (TRN-39): paid at once as prize contribution (+ bounty part, a re-buy in a bounty
    tournament) + fee (FEE-04) by ``transfer``; its chips are added to the seat between hands (``status``: pending
    until then)."""

    entry = models.ForeignKey(TournamentEntry, on_delete=models.PROTECT, related_name="purchases")
    kind = models.CharField(_("kind"), max_length=8, choices=PurchaseKind.choices)
    number = models.PositiveSmallIntegerField(_("number"), help_text=_("1 for the entry's first re-buy, and so on."))
    prize_contribution = models.PositiveBigIntegerField(_("prize pool part (cents)"))
    bounty_contribution = models.PositiveBigIntegerField(
        _("bounty part (cents)"),
        default=0,
        help_text=_("A re-buy in a bounty tournament: a new bounty part, added to the player's bounty (TRN-41)."),
    )
    fee = models.PositiveBigIntegerField(_("fee (cents)"))
    chips = models.PositiveIntegerField(_("chips"))
    status = models.CharField(_("status"), max_length=8, choices=PurchaseStatus.choices, default=PurchaseStatus.PENDING)
    transfer = models.ForeignKey("wallet.Transfer", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    idempotency_key = models.CharField(
        _("idempotency key"),
        max_length=100,
        blank=True,
        default="",
        help_text=_("The client's Idempotency-Key: a retried request with it is this row again, not a new purchase."),
    )
    bought_at = models.DateTimeField(_("bought at"), default=timezone.now)
    added_at = models.DateTimeField(_("chips added at"), null=True, blank=True)

    class Meta:
        ordering = ("entry", "bought_at", "pk")
        verbose_name = _("re-buy or add-on")
        verbose_name_plural = _("re-buys and add-ons")
        constraints = [
            models.UniqueConstraint(fields=("entry", "kind", "number"), name="tournaments_purchase_number"),
            models.UniqueConstraint(
                fields=("entry",), condition=models.Q(kind="add_on"), name="tournaments_one_add_on_per_entry"
            ),
        ]
        indexes = [models.Index(fields=("status", "entry"), name="tournaments_purchase_pending")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.number} of {self.entry}"


class CancellationStatus(models.TextChoices):
    PROPOSED = "proposed", _("proposed, waiting for a second staff member")
    APPROVED = "approved", _("approved and paid")
    WITHDRAWN = "withdrawn", _("withdrawn")


class TournamentCancellation(models.Model):
    """A cancellation of a started tournament under the cancellation policy (CXL-01): proposed by one staff member
    with the calculation previewed, approved by another, then posted; the calculation (inputs, state, rules applied,
    each player's shares, what the house keeps) is archived here for support and compliance."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="cancellations")
    status = models.CharField(
        _("status"), max_length=10, choices=CancellationStatus.choices, default=CancellationStatus.PROPOSED
    )
    reason = models.CharField(_("reason"), max_length=300)
    proposed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    proposed_at = models.DateTimeField(_("proposed at"), default=timezone.now)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    approved_at = models.DateTimeField(_("approved at"), null=True, blank=True)
    approval_comment = models.CharField(
        _("approver's comment"),
        max_length=300,
        blank=True,
        help_text=_("Optional: what the approver checked or noted."),
    )
    state = models.CharField(_("state at cancellation"), max_length=30)
    calculation = models.JSONField(_("calculation"))
    paid_in_money = models.BigIntegerField(_("paid to players (cents)"), default=0)
    kept_by_house = models.BigIntegerField(_("kept by the house (cents)"), default=0)
    # --- CXL-12: management's alteration of the policy's payouts (tournaments.services.cancellation_alteration) ---
    alterations = models.JSONField(
        _("alterations (CXL-12)"),
        default=dict,
        blank=True,
        help_text=_("Player id to the signed change in cents from the policy's compensation; the house funds the net."),
    )
    alteration_reason = models.CharField(_("reason for the alteration"), max_length=300, blank=True)
    altered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    altered_at = models.DateTimeField(_("altered at"), null=True, blank=True)

    class Meta:
        ordering = ("-proposed_at",)
        verbose_name = _("tournament cancellation")
        constraints = [
            models.UniqueConstraint(
                fields=("tournament",), condition=models.Q(status="proposed"), name="tournaments_one_open_proposal"
            ),
            models.UniqueConstraint(
                fields=("tournament",), condition=models.Q(status="approved"), name="tournaments_cancelled_once"
            ),
        ]

    def __str__(self) -> str:
        return f"Cancellation of {self.tournament} ({self.status})"


class TournamentTable(models.Model):
    """A table of a running tournament: the link from the runtime's table to its tournament, its number, how many
    players it holds (kept in step by the services, so balancing reads the fullest and emptiest tables by index),
    and its place in hand-for-hand play (the last round it dealt)."""

    table = models.OneToOneField("games.Table", on_delete=models.PROTECT, related_name="tournament_link")
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="tables")
    number = models.PositiveIntegerField(_("table number"))
    players = models.PositiveSmallIntegerField(_("players"), default=0)
    hand_for_hand_round_dealt = models.PositiveIntegerField(_("last hand-for-hand round dealt"), default=0)
    needs_coordination = models.BooleanField(
        _("waiting for the tournament"), default=False, help_text=_("A hand ended: eliminations and balancing first.")
    )
    last_hand_ended_at = models.DateTimeField(_("last hand ended at"), null=True, blank=True)
    broken_at = models.DateTimeField(_("broken at"), null=True, blank=True)

    class Meta:
        ordering = ("tournament", "number")
        verbose_name = _("tournament table")
        constraints = [models.UniqueConstraint(fields=("tournament", "number"), name="tournaments_table_number")]
        indexes = [
            models.Index(fields=("tournament", "broken_at", "players"), name="tournaments_table_players"),
            models.Index(fields=("tournament", "needs_coordination"), name="tournaments_table_waiting"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} table {self.number}"


# --- Satellites and tournament tickets (TRN-37, TRN-10, TRN-11, AMB-54) ------------------------------------------


class TournamentSeries(models.Model):
    """A recurring tournament (e.g. "Sunday Major"): what a ticket may be valid for besides one tournament (AMB-54)."""

    name = models.CharField(_("name"), max_length=120, unique=True)
    description = models.CharField(_("description"), max_length=300, blank=True)

    class Meta:
        ordering = ("name",)
        verbose_name = _("tournament series")
        verbose_name_plural = _("tournament series")

    def __str__(self) -> str:
        return self.name


class TicketStatus(models.TextChoices):
    AVAILABLE = "available", _("available")
    USED = "used", _("used for a registration")
    RETURNED = "returned", _("returned (usable again)")
    EXPIRED = "expired", _("expired")
    VOID = "void", _("voided by staff")


USABLE_TICKET_STATUSES = (TicketStatus.AVAILABLE, TicketStatus.RETURNED)


class TournamentTicket(models.Model):
    """A tournament ticket: money-equivalent, worth ``value`` cents, valid for one tournament or any tournament of a
    series whose buy-in + fee equals the value, until ``expires_at`` (TRN-10, TRN-37, AMB-54).

    Its value is held in the ledger on its own account (``tournament_ticket`` account ``ticket:<id>``, owned by the
    player) while it is usable; paying a registration moves it to the target's prize pool and fees, a refund moves it
    back, expiry or a void moves it to the house. ``status`` changes only through ``tournaments.services.tickets``,
    each change a :class:`TournamentTicketEvent` (the ticket's audit trail)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("player"), on_delete=models.PROTECT, related_name="tournament_tickets"
    )
    value = models.PositiveBigIntegerField(_("value (cents)"))
    series = models.ForeignKey(
        TournamentSeries, verbose_name=_("series"), null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    status = models.CharField(
        _("status"), max_length=10, choices=TicketStatus.choices, default=TicketStatus.AVAILABLE, db_index=True
    )
    expires_at = models.DateTimeField(_("expires at"), db_index=True)
    created_at = models.DateTimeField(_("issued at"), default=timezone.now)
    won_in = models.ForeignKey(
        TournamentEntry,
        verbose_name=_("won with the satellite entry"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("issued by staff"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    version = models.PositiveBigIntegerField(_("version"), default=0)

    class Meta:
        ordering = ("-created_at", "-pk")
        verbose_name = _("tournament ticket")
        permissions = [("manage_tickets", "Can issue and void tournament tickets")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(series__isnull=False) | models.Q(tournament__isnull=False),
                name="tournaments_ticket_has_target",
            ),
            models.CheckConstraint(condition=models.Q(value__gt=0), name="tournaments_ticket_value_positive"),
            models.UniqueConstraint(
                fields=("won_in",), condition=models.Q(won_in__isnull=False), name="tournaments_one_ticket_per_seat"
            ),
        ]
        indexes = [models.Index(fields=("user", "status"), name="tournaments_ticket_user")]

    def __str__(self) -> str:
        return f"Ticket #{self.pk} ({self.user}, {self.value / 100:.2f} EUR, {self.status})"

    @property
    def target_name(self) -> str:
        if self.tournament_id is not None:
            return str(self.tournament)
        return str(self.series)


class TournamentTicketEvent(models.Model):
    """One change of a ticket (its audit trail, append-only): issued, used, returned, expired, voided."""

    ticket = models.ForeignKey(TournamentTicket, on_delete=models.PROTECT, related_name="events")
    action = models.CharField(_("action"), max_length=20)
    at = models.DateTimeField(_("at"), default=timezone.now)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    entry = models.ForeignKey(TournamentEntry, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    transfer = models.ForeignKey("wallet.Transfer", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    status_after = models.CharField(_("status after"), max_length=10, choices=TicketStatus.choices)
    reason = models.CharField(_("reason"), max_length=300, blank=True)

    class Meta:
        ordering = ("ticket", "at", "pk")
        verbose_name = _("tournament ticket event")

    def __str__(self) -> str:
        return f"Ticket #{self.ticket_id} {self.action} at {self.at:%Y-%m-%d %H:%M}"


# The HexaPro rows live in their own module; imported here so that Django registers them with this app.
from tournaments.hexapro.models import HexaProBlindLevel as HexaProBlindLevel  # noqa: E402
from tournaments.hexapro.models import HexaProBuyIn as HexaProBuyIn  # noqa: E402
from tournaments.hexapro.models import HexaProGame as HexaProGame  # noqa: E402
from tournaments.hexapro.models import HexaProMultiplier as HexaProMultiplier  # noqa: E402
from tournaments.hexapro.models import HexaProProductVersion as HexaProProductVersion  # noqa: E402
from tournaments.hexapro.models import HexaProRegistration as HexaProRegistration  # noqa: E402
from tournaments.hexapro.models import RegistrationStatus as RegistrationStatus  # noqa: E402

# --- cancel-desk: barring a player from tournaments (TRN-28, TRN-09) -------------------------------------------------


class TournamentBar(models.Model):
    """A player barred from entering tournaments (TRN-28: "bar from the site"; TRN-09 / FRD-15: multi-accounting),
    from ``barred_at`` on, with the staff member, the reason and the disqualification it came with (if any). A barred
    player's registration is refused (``tournaments.services.sanctions.bar_refusal``) until the bar is lifted.

    Rows are a record: never deleted, and only the lifting fields are ever written after creation
    (``tournaments.services.sanctions.bar_lift``, audited). A player has at most one bar in force; a lifted bar
    stays as history and a new bar is a new row."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_bars")
    reason = models.CharField(_("reason"), max_length=300)
    barred_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    barred_at = models.DateTimeField(_("barred at"), default=timezone.now)
    entry = models.ForeignKey(
        TournamentEntry, null=True, blank=True, on_delete=models.PROTECT, related_name="+", verbose_name=_("entry")
    )
    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    lift_reason = models.CharField(_("reason for lifting"), max_length=300, blank=True)

    class Meta:
        ordering = ("-barred_at", "-pk")
        verbose_name = _("tournament bar")
        constraints = [
            models.UniqueConstraint(
                fields=("user",), condition=models.Q(lifted_at__isnull=True), name="tournaments_one_bar_in_force"
            ),
            models.CheckConstraint(
                condition=models.Q(lifted_at__isnull=True, lifted_by__isnull=True, lift_reason="")
                | models.Q(lifted_at__isnull=False, lifted_by__isnull=False) & ~models.Q(lift_reason=""),
                name="tournaments_bar_lifted_with_who_and_why",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} barred from tournaments"

    @property
    def in_force(self) -> bool:
        return self.lifted_at is None
