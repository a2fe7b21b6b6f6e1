"""Hands, who played them, and the table's append-only event log (GEN-07, ENG-28, CASH-23/24, RAKE-08).

A :class:`Hand` keeps the engine configuration and deck it was dealt with, the clock of the player to act, and once it
ends the rake facts and the settlement transfer. The engine's events (games.engine.events) are stored as
:class:`HandEvent` rows together with the table's own events (seats taken, players leaving or sitting out, a hand
cancelled); replaying a hand's engine events on its configuration rebuilds the engine state.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models.cash import TableSession
from games.models.catalog import GameRules, StakeTerms
from games.models.tables import Table


class HandStatus(models.TextChoices):
    RUNNING = "running", _("in play")
    FINISHED = "finished", _("finished")
    CANCELLED = "cancelled", _("cancelled (stacks restored)")


class ClockPhase(models.TextChoices):
    """Which allowance the player to act is using (TB-04, TB-05, TB-07, CASH-22)."""

    NONE = "", _("—")
    DECISION = "decision", _("normal decision time")
    TIMEBANK = "timebank", _("timebank")
    RECONNECT = "reconnect", _("reconnection grace")


class Hand(models.Model):
    """One hand at a table. A cash hand records the stake terms and game rules it was dealt under; a tournament hand
    the level its blinds and antes came from (the tournament's own rules apply to its clocks).

    ``config`` is the engine's ``HandConfig.to_dict()``; ``deck`` the 52 cards in dealing order (audit only: never sent
    to players). ``participants`` maps each seat dealt in to ``{"user", "session", "stack"}`` (start-of-hand stack in
    cents). The clock fields describe the player to act: ``action_deadline`` is when the current allowance runs out.
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField(_("hand number at the table"))
    status = models.CharField(_("status"), max_length=10, choices=HandStatus.choices, default=HandStatus.RUNNING)
    stake_terms = models.ForeignKey(
        StakeTerms, null=True, blank=True, on_delete=models.PROTECT, related_name="hands", help_text=_("Cash tables.")
    )
    game_rules = models.ForeignKey(
        GameRules, null=True, blank=True, on_delete=models.PROTECT, related_name="hands", help_text=_("Cash tables.")
    )
    level_number = models.PositiveSmallIntegerField(
        _("tournament level"), null=True, blank=True, help_text=_("Tournament tables: the level the blinds came from.")
    )
    started_at = models.DateTimeField(_("started at"), default=timezone.now, db_index=True)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    config = models.JSONField(_("engine configuration"))
    deck = models.JSONField(_("deck order"))
    participants = models.JSONField(_("participants"), default=dict)
    acting_seat = models.PositiveSmallIntegerField(_("seat to act"), null=True, blank=True)
    clock_phase = models.CharField(
        _("clock"), max_length=10, choices=ClockPhase.choices, default=ClockPhase.NONE, blank=True
    )
    clock_started_at = models.DateTimeField(_("clock started at"), null=True, blank=True)
    action_deadline = models.DateTimeField(_("action deadline"), null=True, blank=True, db_index=True)
    street_reached = models.CharField(_("street reached"), max_length=8, blank=True)
    pot_total = models.BigIntegerField(_("pot total (cents)"), null=True, blank=True)
    rake = models.BigIntegerField(_("rake (cents)"), null=True, blank=True)
    rake_rate_basis_points = models.PositiveIntegerField(_("rake rate (basis points)"), null=True, blank=True)
    rake_cap_applied = models.BigIntegerField(_("rake cap applied (cents)"), null=True, blank=True)
    players_dealt_in = models.PositiveSmallIntegerField(_("players dealt in"))
    rules_version = models.CharField(
        _("rules version"), max_length=20, blank=True, help_text=_("GEN-02: the published rules in force.")
    )
    settlement = models.OneToOneField(
        "wallet.Transfer",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("settlement transfer"),
    )
    cancellation_reason = models.CharField(_("cancellation reason"), max_length=300, blank=True)
    # Provably fair deck (issue 29, games.engine.fairness, docs/fairness.md): the commitment is published before the
    # first card; the server seed is secret until the hand ends (never sent to a client, hidden in the back office
    # while the hand runs) and then revealed in the event log. Blank for hands dealt by an injected test shuffler.
    deck_commitment = models.CharField(_("deck commitment (SHA-256, hex)"), max_length=64, blank=True)
    server_seed = models.CharField(_("server seed (hex, secret until the hand ends)"), max_length=64, blank=True)
    client_seeds = models.JSONField(_("client seeds (hex by seat)"), default=dict, blank=True)
    version = models.PositiveBigIntegerField(_("version"), default=0)

    class Meta:
        ordering = ("-started_at", "-pk")
        permissions = [("cancel_hand", "Can cancel a running hand (every stack restored, CASH-23)")]
        constraints = [
            models.UniqueConstraint(fields=("table", "number"), name="games_hand_number_per_table"),
            models.CheckConstraint(
                condition=~models.Q(status="finished") | models.Q(ended_at__isnull=False),
                name="games_hand_finished_has_end",
            ),
        ]
        indexes = [models.Index(fields=("status", "action_deadline"), name="games_hand_clock")]

    def __str__(self) -> str:
        return f"Hand #{self.pk} ({self.table.name} no. {self.number})"


class HandPlayer(models.Model):
    """A player dealt into a hand: seat, start and end stack (for players' own hand histories, ENG-28)."""

    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="cash_hands")
    session = models.ForeignKey(
        TableSession, null=True, blank=True, on_delete=models.PROTECT, related_name="hands", help_text=_("Cash tables.")
    )
    seat_number = models.PositiveSmallIntegerField(_("seat"))
    start_stack = models.BigIntegerField(_("stack at start (cents)"))
    end_stack = models.BigIntegerField(_("stack at end (cents)"), null=True, blank=True)
    rake_share = models.BigIntegerField(
        _("rake paid (cents)"),
        null=True,
        blank=True,
        help_text=_(
            "Cash hands: this player's part of the rake, each pot's rake shared by what each put into that pot "
            "(rakeback and VIP reports)."
        ),
    )

    class Meta:
        ordering = ("hand", "seat_number")
        constraints = [
            models.UniqueConstraint(fields=("hand", "seat_number"), name="games_hand_player_seat"),
            models.UniqueConstraint(fields=("hand", "user"), name="games_hand_player_user"),
        ]
        indexes = [models.Index(fields=("user", "hand"), name="games_hand_player_user_hand")]

    def __str__(self) -> str:
        return f"{self.user} in seat {self.seat_number} of {self.hand}"

    @property
    def net(self) -> int | None:
        return None if self.end_stack is None else self.end_stack - self.start_stack


class EventAudience(models.TextChoices):
    """Who may see an event in full (architecture rule 4); everyone else receives a redacted copy."""

    PUBLIC = "public", _("everyone at the table")
    SEAT = "seat", _("the player in one seat (hole cards)")
    AUDIT = "audit", _("nobody at the table (deck order)")


class AppendOnlyError(Exception):
    """Raised when code tries to change or delete a stored hand event."""


class HandEvent(models.Model):
    """One event of a table's log, numbered by ``sequence`` (per table, increasing, no gaps).

    Engine events of a hand carry the engine's dictionary form in ``payload`` (its per-hand number as
    ``hand_sequence``); table events (``seat_taken``, ``player_left``, ``sat_out``, ``hand_cancelled``, ...) may have no
    hand. Rows are append-only: the model refuses to save an existing row or delete one, and a database trigger
    (migration 0002) refuses UPDATE and DELETE whatever code runs.
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="events")
    hand = models.ForeignKey(Hand, null=True, blank=True, on_delete=models.PROTECT, related_name="events")
    sequence = models.BigIntegerField(_("sequence"))
    kind = models.CharField(_("kind"), max_length=40)
    payload = models.JSONField(_("payload"), default=dict)
    audience = models.CharField(
        _("audience"), max_length=8, choices=EventAudience.choices, default=EventAudience.PUBLIC
    )
    private_to_seat = models.PositiveSmallIntegerField(_("private to seat"), null=True, blank=True)
    private_to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(_("recorded at"), default=timezone.now)

    class Meta:
        ordering = ("table", "sequence")
        constraints = [
            models.UniqueConstraint(fields=("table", "sequence"), name="games_event_sequence_per_table"),
            models.CheckConstraint(
                condition=~models.Q(audience="seat") | models.Q(private_to_seat__isnull=False),
                name="games_event_private_has_seat",
            ),
        ]
        indexes = [models.Index(fields=("hand", "sequence"), name="games_event_hand_sequence")]

    def __str__(self) -> str:
        return f"{self.table_id}#{self.sequence} {self.kind}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not self._state.adding:
            raise AppendOnlyError("hand events are append-only and cannot be changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("hand events are append-only and cannot be deleted")
