"""Ultimate Texas Hold'em tables, rounds, seats, hands, the bet record and the public event log (UTH-01..UTH-39).

Money: every stake a player places moves at once from their cash account to the round's UTH_BETS_IN_PLAY wallet
account (``uth-round:<id>``); settlement empties that account into the player (returns) and the house (HOUSE_UTH_RESULT,
what the house keeps or pays); a cancellation refunds it. No row here stores a balance.

Timers are deadlines on the rows, advanced by the ``uth`` ticker handler (games/uth/ticks.py): the table's
``next_round_at`` (a new betting window opens) and the round's ``phase_deadline`` (betting closes, a decision phase
ends). Rows are claimed with compare-and-swap updates on ``version``, so the ticker is idempotent.

Game recall (GEN-07, UTH-34): a round keeps its game number, the limits and rules version in force, the shuffled deck,
each hand's bets, decisions and settlement, the append-only :class:`UthBetRecord` of every bet, undo, decision,
payout and refund with its wallet transfer, and the append-only public :class:`UthEvent` log.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine.cards import Card, parse_cards
from games.engine.uth.betting import ANTE_STEP_CENTS, MAXIMUM_BET_CENTS, BetLimits
from games.engine.uth.round import Phase

UTH_RULES_VERSION = "UTH rules 003"
"""The rules document the tables play by (seed 003); recorded on every round (GEN-02)."""

DEFAULT_CHIP_VALUES = [100, 500, 1000, 2500, 10000]


def _default_chip_values() -> list[int]:
    return list(DEFAULT_CHIP_VALUES)


class PhaseChoices(models.TextChoices):
    BETTING = Phase.BETTING.value, _("betting")
    PREFLOP = Phase.PREFLOP.value, _("decision before the flop")
    FLOP = Phase.FLOP.value, _("decision after the flop")
    RIVER = Phase.RIVER.value, _("decision after the river")
    SETTLED = Phase.SETTLED.value, _("settled")
    CANCELLED = Phase.CANCELLED.value, _("cancelled")


FINISHED_PHASES = (Phase.SETTLED.value, Phase.CANCELLED.value)


class UthTable(models.Model):
    """A UTH table: any number of players (UTH-02), rounds one after another, limits per bet (UTH-22, AMB-55).

    Limits and timings are edited in the back office; a round copies the limits when its betting opens, so a change
    takes effect from the next round (LOB-07) and every :class:`UthLimitChange` is recorded.
    """

    name = models.CharField(_("name"), max_length=60, unique=True)
    is_open = models.BooleanField(_("open"), default=True, help_text=_("Closed tables start no new rounds."))
    ante_minimum = models.PositiveBigIntegerField(_("minimum Ante (cents)"), default=100)
    ante_maximum = models.PositiveBigIntegerField(_("maximum Ante (cents)"), default=50_000)
    trips_minimum = models.PositiveBigIntegerField(_("minimum Trips (cents)"), default=100)
    trips_maximum = models.PositiveBigIntegerField(_("maximum Trips (cents)"), default=10_000)
    chip_values = models.JSONField(
        _("chip values (cents)"),
        default=_default_chip_values,
        help_text=_("Denominations offered in the chip display, lowest first, e.g. [100, 500, 2500]."),
    )
    betting_seconds = models.PositiveSmallIntegerField(_("betting time (s)"), default=15)
    decision_seconds = models.PositiveSmallIntegerField(_("decision time (s)"), default=10)
    result_seconds = models.PositiveSmallIntegerField(
        _("result display (s)"), default=6, help_text=_("Pause between a round's result and the next betting time.")
    )
    rules_version = models.CharField(_("rules version"), max_length=40, default=UTH_RULES_VERSION)
    next_round_at = models.DateTimeField(
        _("next round opens at"), null=True, blank=True, db_index=True, help_text=_("Deadline for the ticker.")
    )
    last_sequence = models.BigIntegerField(_("last event sequence"), default=0, editable=False)
    rounds_started = models.PositiveIntegerField(_("rounds started"), default=0, editable=False)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)

    class Meta:
        ordering = ("name",)
        verbose_name = _("UTH table")
        verbose_name_plural = _("UTH tables")
        constraints = [
            models.CheckConstraint(
                condition=Q(ante_minimum__gt=0, ante_minimum__lte=models.F("ante_maximum")), name="uth_table_ante"
            ),
            models.CheckConstraint(
                condition=Q(trips_minimum__gt=0, trips_minimum__lte=models.F("trips_maximum")), name="uth_table_trips"
            ),
            models.CheckConstraint(
                condition=Q(betting_seconds__gte=3, decision_seconds__gte=3), name="uth_table_timings"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def limits(self) -> BetLimits:
        return BetLimits(
            ante_minimum=int(self.ante_minimum),
            ante_maximum=int(self.ante_maximum),
            trips_minimum=int(self.trips_minimum),
            trips_maximum=int(self.trips_maximum),
        )

    def clean(self) -> None:
        try:
            self.limits  # noqa: B018 - constructing the limits validates them
        except ValueError as error:
            raise ValidationError(str(error)) from error
        for name in ("ante_minimum", "ante_maximum"):
            if int(getattr(self, name)) % ANTE_STEP_CENTS:
                raise ValidationError({name: _("Ante limits must be whole 2-cent steps (the Blind pays 1.5:1).")})
        chips = self.chip_values
        if (
            not isinstance(chips, list)
            or not 1 <= len(chips) <= 8
            or any(type(chip) is not int or not 0 < chip <= MAXIMUM_BET_CENTS for chip in chips)
            or chips != sorted(set(chips))
        ):
            raise ValidationError({"chip_values": _("Give 1 to 8 different positive whole cent values, lowest first.")})
        if any(chip % ANTE_STEP_CENTS for chip in chips):
            raise ValidationError({"chip_values": _("Chip values must be whole 2-cent steps, e.g. 100 or 250.")})


class UthLimitChange(models.Model):
    """A change of a table's limits or timings in the back office: who, when, before and after (LOB-07, LOB-10)."""

    table = models.ForeignKey(UthTable, on_delete=models.PROTECT, related_name="limit_changes")
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    changed_at = models.DateTimeField(_("changed at"), default=timezone.now)
    before = models.JSONField(_("before"))
    after = models.JSONField(_("after"))

    class Meta:
        ordering = ("-changed_at",)
        verbose_name = _("UTH limit change")

    def __str__(self) -> str:
        return f"{self.table} limits changed {self.changed_at:%Y-%m-%d %H:%M:%S}"


class UthRound(models.Model):
    """One game round at a table (UTH-08). Phases: betting → preflop → flop → river → settled (or cancelled).

    ``game_number`` is unique: table, UTC date and time the betting opened, and the table's round number (AMB-36);
    players see its ``hh:mm:ss`` part (UTH-34). ``deck`` is the 52 shuffled cards in dealing order, recorded when
    betting closes (see games.engine.uth.round for the order). ``paused_at`` is set while staff investigate an error
    (UTH-36): the ticker leaves a paused round alone and resuming moves its deadline on by the pause.
    """

    table = models.ForeignKey(UthTable, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveIntegerField(_("round number at the table"))
    game_number = models.CharField(_("game number"), max_length=40, unique=True)
    phase = models.CharField(_("phase"), max_length=10, choices=PhaseChoices.choices, default=PhaseChoices.BETTING)
    started_at = models.DateTimeField(_("betting opened at"))
    phase_started_at = models.DateTimeField(_("phase started at"))
    phase_deadline = models.DateTimeField(_("phase ends at"), null=True, blank=True)
    dealt_at = models.DateTimeField(_("dealt at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    deck = models.CharField(_("deck (dealing order)"), max_length=104, blank=True)
    # Provably fair deck (issue 29, docs/fairness.md): committed when the round opens, before betting closes;
    # the server seed stays secret until the round is settled or cancelled, then revealed in the event log.
    deck_commitment = models.CharField(_("deck commitment (SHA-256, hex)"), max_length=64, blank=True)
    server_seed = models.CharField(_("server seed (hex, secret until the round ends)"), max_length=64, blank=True)
    ante_minimum = models.PositiveBigIntegerField(_("minimum Ante"))
    ante_maximum = models.PositiveBigIntegerField(_("maximum Ante"))
    trips_minimum = models.PositiveBigIntegerField(_("minimum Trips"))
    trips_maximum = models.PositiveBigIntegerField(_("maximum Trips"))
    rules_version = models.CharField(_("rules version"), max_length=40)
    result = models.JSONField(_("result"), default=dict, blank=True)
    paused_at = models.DateTimeField(_("paused at"), null=True, blank=True)
    pause_reason = models.CharField(_("pause reason"), max_length=200, blank=True)
    cancel_reason = models.CharField(_("cancellation reason"), max_length=200, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    version = models.PositiveBigIntegerField(_("version"), default=0)

    class Meta:
        ordering = ("-pk",)
        verbose_name = _("UTH round")
        constraints = [
            models.UniqueConstraint(fields=("table", "number"), name="uth_round_number_per_table"),
            models.UniqueConstraint(
                fields=("table",), condition=~Q(phase__in=FINISHED_PHASES), name="uth_round_one_active_per_table"
            ),
        ]
        indexes = [
            models.Index(fields=("phase", "phase_deadline"), name="uth_round_phase_deadline"),
            models.Index(fields=("table", "-number"), name="uth_round_table_number"),
        ]

    def __str__(self) -> str:
        return f"UTH game {self.game_number}"

    @property
    def display_number(self) -> str:
        """The hh:mm:ss (GMT) form shown to players (UTH-34)."""
        return f"{self.started_at:%H:%M:%S}"

    @property
    def limits(self) -> BetLimits:
        return BetLimits(
            ante_minimum=int(self.ante_minimum),
            ante_maximum=int(self.ante_maximum),
            trips_minimum=int(self.trips_minimum),
            trips_maximum=int(self.trips_maximum),
        )

    @property
    def engine_phase(self) -> Phase:
        return Phase(self.phase)

    @property
    def deck_cards(self) -> tuple[Card, ...]:
        return parse_cards(self.deck) if self.deck else ()

    @property
    def wallet_reference(self) -> str:
        return f"uth-round:{self.pk}"


class UthSeat(models.Model):
    """A player's one seat at a table (UTH-02: unlimited seats, one per player). ``left_at`` is set while away.

    ``previous_ante`` / ``previous_trips`` are the bets of the player's last dealt round, for REPEAT (UTH-28).
    """

    table = models.ForeignKey(UthTable, on_delete=models.PROTECT, related_name="seats")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="uth_seats")
    seated_at = models.DateTimeField(_("seated at"), default=timezone.now)
    left_at = models.DateTimeField(_("left at"), null=True, blank=True)
    previous_ante = models.PositiveBigIntegerField(_("previous Ante"), default=0)
    previous_trips = models.PositiveBigIntegerField(_("previous Trips"), default=0)

    class Meta:
        verbose_name = _("UTH seat")
        constraints = [models.UniqueConstraint(fields=("table", "player"), name="uth_seat_one_per_player")]

    def __str__(self) -> str:
        return f"{self.player} at {self.table}"

    @property
    def is_seated(self) -> bool:
        return self.left_at is None


class HandStatus(models.TextChoices):
    BETTING = "betting", _("betting")
    EMPTY = "empty", _("no bets when betting closed")
    IN_PLAY = "in_play", _("in play")
    VOIDED = "voided", _("bets declined (left during betting)")
    SETTLED = "settled", _("settled")
    REFUNDED = "refunded", _("refunded (round cancelled)")


class UthHand(models.Model):
    """One player's bets, decisions and result in one round. The BLIND always equals the ANTE (UTH-05).

    ``steps`` is the bet slip during betting (``[kind, ante, trips]`` per undoable step, oldest first);
    ``decisions`` lists ``{"phase", "decision", "automatic", "at"}``. ``awaiting_decision`` marks a player the current
    decision phase still waits for. The ``*_return`` fields are what settlement paid back per bet (stake + winnings,
    the stake on a push, 0 on a loss).
    """

    round = models.ForeignKey(UthRound, on_delete=models.PROTECT, related_name="hands")
    seat = models.ForeignKey(UthSeat, on_delete=models.PROTECT, related_name="hands")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="uth_hands")
    status = models.CharField(_("status"), max_length=10, choices=HandStatus.choices, default=HandStatus.BETTING)
    ante = models.PositiveBigIntegerField(_("Ante"), default=0)
    trips = models.PositiveBigIntegerField(_("Trips"), default=0)
    play = models.PositiveBigIntegerField(_("Play"), default=0)
    folded = models.BooleanField(_("folded"), default=False)
    steps = models.JSONField(_("bet steps"), default=list, blank=True)
    decisions = models.JSONField(_("decisions"), default=list, blank=True)
    awaiting_decision = models.BooleanField(_("awaiting a decision"), default=False)
    result_row = models.CharField(_("outcome"), max_length=40, blank=True)
    ante_return = models.BigIntegerField(_("Ante returned"), null=True, blank=True)
    blind_return = models.BigIntegerField(_("Blind returned"), null=True, blank=True)
    play_return = models.BigIntegerField(_("Play returned"), null=True, blank=True)
    trips_return = models.BigIntegerField(_("Trips returned"), null=True, blank=True)
    refunded = models.BigIntegerField(_("refunded"), default=0)
    last_record_number = models.PositiveIntegerField(_("last bet record number"), default=0, editable=False)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    version = models.PositiveBigIntegerField(_("version"), default=0)

    class Meta:
        ordering = ("round", "pk")
        verbose_name = _("UTH hand")
        constraints = [
            models.UniqueConstraint(fields=("round", "seat"), name="uth_hand_one_per_seat_and_round"),
            models.CheckConstraint(condition=Q(folded=False) | Q(play=0), name="uth_hand_folded_without_play"),
        ]
        indexes = [
            models.Index(fields=("player", "-round"), name="uth_hand_player_round"),
            models.Index(fields=("round", "awaiting_decision"), name="uth_hand_round_awaiting"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.round}"

    @property
    def stake(self) -> int:
        """Everything staked: ANTE + BLIND + TRIPS + PLAY."""
        return 2 * int(self.ante) + int(self.trips) + int(self.play)

    @property
    def total_returned(self) -> int | None:
        parts = (self.ante_return, self.blind_return, self.play_return, self.trips_return)
        if self.ante_return is None:
            return None
        return sum(int(part or 0) for part in parts)


class RecordKind(models.TextChoices):
    CHIP = "chip", _("chip placed")
    DOUBLE = "double", _("double")
    REPEAT = "repeat", _("repeat")
    UNDO = "undo", _("undo")
    CLEAR = "clear", _("clear all bets")
    VOID = "void", _("bets declined (left during betting)")
    DECISION = "decision", _("decision")
    AUTOMATIC_DECISION = "auto_decision", _("automatic decision")
    SETTLEMENT = "settlement", _("settlement")
    REFUND = "refund", _("refund (round cancelled)")


class UthBetRecord(models.Model):
    """Append-only record of everything a hand did: each bet step, undo, decision, payout and refund (GEN-07).

    Deltas are the change of each spot; ``amount`` is the money moved, seen from the player (negative = staked,
    positive = returned), with the wallet ``transfer`` that moved it.
    """

    hand = models.ForeignKey(UthHand, on_delete=models.PROTECT, related_name="records")
    number = models.PositiveIntegerField(_("number within the hand"))
    kind = models.CharField(_("kind"), max_length=16, choices=RecordKind.choices)
    ante_delta = models.BigIntegerField(_("Ante change"), default=0)
    trips_delta = models.BigIntegerField(_("Trips change"), default=0)
    play_delta = models.BigIntegerField(_("Play change"), default=0)
    amount = models.BigIntegerField(_("money moved (player's view)"), default=0)
    decision = models.CharField(_("decision"), max_length=10, blank=True)
    phase = models.CharField(_("phase"), max_length=10, blank=True)
    transfer = models.ForeignKey("wallet.Transfer", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        ordering = ("hand", "number")
        verbose_name = _("UTH bet record")
        constraints = [models.UniqueConstraint(fields=("hand", "number"), name="uth_record_number_per_hand")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.number} of {self.hand}"


class UthEvent(models.Model):
    """The public, append-only event log of a table, numbered 1, 2, 3, ... without gaps (sockets resync by it)."""

    table = models.ForeignKey(UthTable, on_delete=models.PROTECT, related_name="events")
    sequence = models.BigIntegerField(_("sequence"))
    round = models.ForeignKey(UthRound, null=True, blank=True, on_delete=models.PROTECT, related_name="events")
    kind = models.CharField(_("kind"), max_length=32)
    payload = models.JSONField(_("payload"), default=dict)
    created_at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        ordering = ("table", "sequence")
        verbose_name = _("UTH event")
        constraints = [models.UniqueConstraint(fields=("table", "sequence"), name="uth_event_sequence_per_table")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.sequence} at {self.table}"
