"""The cash-game catalogue: game types, stakes and the rules data in force for them (CASH-01..03, TB-02, RAKE-02).

Every numeric parameter is data editable in the back-office with an effective-from time (catalog section 0.3): a
:class:`GameRules` or :class:`StakeTerms` row is never edited to change a rule that was already in force; staff add a
new row with a later ``effective_from``. The row in force at a moment is the one with the latest ``effective_from``
not after it (:meth:`GameType.rules_at`, :meth:`Stake.terms_at`). A hand records the rows it was dealt under.
"""

from __future__ import annotations

import copy
from datetime import datetime
from typing import TypeVar

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Variant(models.TextChoices):
    """The engine variant (``games.engine.config.Variant`` values)."""

    NO_LIMIT_HOLDEM = "NT", _("No-Limit Hold'em")
    POT_LIMIT_OMAHA = "PO", _("Pot-Limit Omaha")


class RakeTableType(models.TextChoices):
    """Which rake table a game type's stakes come from (``games.engine.rake.TableType`` values)."""

    REGULAR = "regular", _("Regular")
    DEEPSTACK = "deepstack", _("Texas Deepstack")
    SHORTSTACK = "shortstack", _("Omaha Shortstack")
    BANZAI = "banzai", _("Banzai")


class BuyInRule(models.TextChoices):
    """How buy-in limits are worked out when a player sits down (CASH-10..14, CASH-26..31)."""

    RATHOLING = "ratholing", _("50–100 BB with the ratholing table (CASH-11..13)")
    NO_RATHOLING = "no_ratholing", _("No ratholing: return with at least the stack left with (CASH-14)")
    BANZAI = "banzai", _("Banzai: exactly 10 BB, Resume/Reset carry-over (CASH-26..31)")


class GameType(models.Model):
    """One of the cash table types of CASH-01: Texas Hold'em, Omaha, Banzai, Texas Deepstack, Omaha Shortstack."""

    code = models.SlugField(_("code"), max_length=30, unique=True)
    name = models.CharField(_("name"), max_length=60)
    variant = models.CharField(_("variant"), max_length=2, choices=Variant.choices)
    rake_table_type = models.CharField(_("rake table"), max_length=12, choices=RakeTableType.choices)
    buy_in_rule = models.CharField(_("buy-in rule"), max_length=14, choices=BuyInRule.choices)
    display_order = models.PositiveSmallIntegerField(_("display order"), default=0)
    enabled = models.BooleanField(_("offered in the lobby"), default=True)
    rules_version = models.BigIntegerField(_("rules version"), default=0, editable=False)
    """Moved on by the database itself (a trigger, migration 0016) whenever one of the game type's :class:`GameRules`
    rows is added, changed or deleted, and never moved back: a process may keep the rows as long as the version it
    read with the game type is this one (:func:`rules_in_force`)."""

    class Meta:
        ordering = ("display_order", "code")
        verbose_name = _("game type")

    def __str__(self) -> str:
        return self.name

    def rules_at(self, moment: datetime | None = None) -> GameRules:
        """The :class:`GameRules` row in force at ``moment`` (default now); raises ``GameRules.DoesNotExist``."""
        moment = moment or timezone.now()
        return self.rules.filter(effective_from__lte=moment).latest("effective_from", "pk")


class GameRules(models.Model):
    """Clocks and table limits of a game type from ``effective_from`` on (TB-02, TB-05, TB-07, CASH-06/17/20/28)."""

    game_type = models.ForeignKey(GameType, on_delete=models.PROTECT, related_name="rules")
    effective_from = models.DateTimeField(_("effective from"), default=timezone.now, db_index=True)
    decision_seconds = models.PositiveSmallIntegerField(
        _("normal decision time (s)"), default=10, help_text=_("TB-05 / AMB-32: default 10 s.")
    )
    timebank_first_hand_seconds = models.PositiveSmallIntegerField(_("timebank at first hand (s)"), default=15)
    timebank_replenish_seconds = models.PositiveSmallIntegerField(_("timebank replenishment (s)"), default=5)
    timebank_replenish_every_hands = models.PositiveSmallIntegerField(_("replenish every N hands dealt in"), default=10)
    timebank_cap_seconds = models.PositiveSmallIntegerField(_("timebank cap (s)"), default=30)
    reconnect_grace_seconds = models.PositiveSmallIntegerField(
        _("reconnection grace (s)"), default=20, help_text=_("CASH-22 / TB-07: after the normal decision time.")
    )
    sit_out_removal_seconds = models.PositiveIntegerField(
        _("single-table sit-out limit (s)"), default=600, help_text=_("CASH-17: 10 minutes.")
    )
    global_sit_out_seconds = models.PositiveIntegerField(
        _("global sit-out limit (s)"), default=500, help_text=_("CASH-20 / AMB-12: 500 seconds.")
    )
    rathole_window_minutes = models.PositiveSmallIntegerField(
        _("return window (minutes)"), default=30, help_text=_("CASH-11, CASH-14, CASH-30: 30 minutes.")
    )
    minimum_players_to_start = models.PositiveSmallIntegerField(_("players to start a hand"), default=3)
    continue_heads_up = models.BooleanField(
        _("continue heads-up while two remain"),
        default=False,
        help_text=_("AMB-11: off = only one heads-up hand may follow a hand of three or more."),
    )
    max_tables_per_stake = models.PositiveSmallIntegerField(
        _("tables per stake per player"), null=True, blank=True, help_text=_("CASH-28: 4 for Banzai; empty = no limit.")
    )
    max_tables_per_game = models.PositiveSmallIntegerField(
        _("tables of this game per player"), null=True, blank=True, help_text=_("CASH-09: optional; empty = no limit.")
    )
    banzai_resets_per_day = models.PositiveSmallIntegerField(
        _("Banzai resets per day"), default=5, help_text=_("CASH-31 / AMB-27: Reset choices per UTC day.")
    )
    pause_between_hands_milliseconds = models.PositiveIntegerField(_("pause between hands (ms)"), default=2500)

    class Meta:
        ordering = ("game_type", "-effective_from")
        verbose_name = _("game rules")
        verbose_name_plural = _("game rules")
        constraints = [
            models.UniqueConstraint(fields=("game_type", "effective_from"), name="games_rules_one_row_per_moment"),
            models.CheckConstraint(
                condition=models.Q(timebank_first_hand_seconds__lte=models.F("timebank_cap_seconds")),
                name="games_rules_first_hand_within_cap",
            ),
            models.CheckConstraint(
                condition=models.Q(timebank_replenish_every_hands__gt=0), name="games_rules_replenish_every_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(minimum_players_to_start__gte=2), name="games_rules_at_least_two_to_start"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_type} rules from {self.effective_from:%Y-%m-%d %H:%M}"


class Stake(models.Model):
    """A stake offered for a game type, e.g. Texas Hold'em NL10 (CASH-02: exactly the rake table rows)."""

    game_type = models.ForeignKey(GameType, on_delete=models.PROTECT, related_name="stakes")
    label = models.CharField(_("label"), max_length=12, help_text=_("NLx / PLx: maximum buy-in €x (AMB-64)."))
    display_order = models.PositiveSmallIntegerField(_("display order"), default=0)
    terms_version = models.BigIntegerField(_("terms version"), default=0, editable=False)
    """Moved on by the database itself (a trigger, migration 0016) whenever one of the stake's :class:`StakeTerms` rows
    is added, changed or deleted, and never moved back: a process may keep the rows as long as the version it read
    with the stake is this one (:func:`terms_in_force`)."""

    class Meta:
        ordering = ("game_type__display_order", "display_order", "label")
        constraints = [models.UniqueConstraint(fields=("game_type", "label"), name="games_stake_label_per_game")]

    def __str__(self) -> str:
        return f"{self.game_type} {self.label}"

    def terms_at(self, moment: datetime | None = None) -> StakeTerms:
        """The :class:`StakeTerms` row in force at ``moment`` (default now); raises ``StakeTerms.DoesNotExist``."""
        moment = moment or timezone.now()
        return self.terms.filter(effective_from__lte=moment).latest("effective_from", "pk")


class StakeTerms(models.Model):
    """Blinds, buy-in range, seats and rake row of a stake from ``effective_from`` on (CASH-01..03, RAKE-02, RAKE-06).

    Money in integer cents; buy-ins in big blinds; the rake rate in basis points (350 = 3.5 %). A disabled row takes the
    stake out of the lobby from its effective time (AMB-06: Banzai NL100 is stored disabled).
    """

    stake = models.ForeignKey(Stake, on_delete=models.PROTECT, related_name="terms")
    effective_from = models.DateTimeField(_("effective from"), default=timezone.now, db_index=True)
    small_blind = models.PositiveIntegerField(_("small blind (cents)"))
    big_blind = models.PositiveIntegerField(_("big blind (cents)"))
    min_buy_in_big_blinds = models.PositiveIntegerField(_("minimum buy-in (BB)"))
    max_buy_in_big_blinds = models.PositiveIntegerField(_("maximum buy-in (BB)"))
    seats = models.PositiveSmallIntegerField(_("seats"))
    rake_rate_basis_points = models.PositiveIntegerField(_("rake rate (basis points)"))
    rake_cap = models.PositiveIntegerField(_("rake cap (cents)"))
    rake_small_hand_cap = models.PositiveIntegerField(
        _("rake cap with 2–3 players dealt in (cents)"), help_text=_("RAKE-06 / AMB-07.")
    )
    enabled = models.BooleanField(_("offered"), default=True)
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        ordering = ("stake", "-effective_from")
        verbose_name = _("stake terms")
        verbose_name_plural = _("stake terms")
        constraints = [
            models.UniqueConstraint(fields=("stake", "effective_from"), name="games_terms_one_row_per_moment"),
            models.CheckConstraint(condition=models.Q(big_blind__gt=0), name="games_terms_big_blind_positive"),
            models.CheckConstraint(
                condition=models.Q(small_blind__lte=models.F("big_blind")), name="games_terms_small_within_big"
            ),
            models.CheckConstraint(
                condition=models.Q(min_buy_in_big_blinds__gt=0)
                & models.Q(min_buy_in_big_blinds__lte=models.F("max_buy_in_big_blinds")),
                name="games_terms_buy_in_range",
            ),
            models.CheckConstraint(condition=models.Q(seats__gte=2, seats__lte=10), name="games_terms_seat_count"),
            models.CheckConstraint(
                condition=models.Q(rake_rate_basis_points__lte=10_000), name="games_terms_rake_rate_at_most_all"
            ),
            models.CheckConstraint(
                condition=models.Q(rake_small_hand_cap__lte=models.F("rake_cap")),
                name="games_terms_small_hand_cap_within_cap",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.stake} {self.small_blind}/{self.big_blind} from {self.effective_from:%Y-%m-%d %H:%M}"

    @property
    def min_buy_in(self) -> int:
        """The minimum buy-in in cents."""
        return self.min_buy_in_big_blinds * self.big_blind

    @property
    def max_buy_in(self) -> int:
        """The maximum buy-in in cents."""
        return self.max_buy_in_big_blinds * self.big_blind


# ---------------------------------------------------------------------------------------------------------------------
# The rows in force, from a per-process cache (issue 27: the hand boundaries of the table runtime read them every hand)

_Row = TypeVar("_Row", StakeTerms, GameRules)
_terms_by_stake: dict[int, tuple[int, tuple[StakeTerms, ...]]] = {}


def row_in_force_or_none(rows: models.QuerySet[_Row], moment: datetime) -> _Row | None:
    """Of ``rows`` (a game type's rules or a stake's terms), the one in force at ``moment`` read from the database, as
    ``rules_at`` / ``terms_at`` give it; None when none is (the back office's starting point for new rows)."""
    return rows.filter(effective_from__lte=moment).order_by("-effective_from", "-pk").first()


_rules_by_game_type: dict[int, tuple[int, tuple[GameRules, ...]]] = {}


def terms_in_force(stake: Stake, moment: datetime) -> StakeTerms:
    """What ``stake.terms_at(moment)`` returns, without a query while the stake's rows are unchanged.

    The process keeps every :class:`StakeTerms` row of the stake (rows scheduled for later included) under the
    ``terms_version`` read with ``stake``; the database moves that version on with every change to the stake's rows
    (a trigger, so the admin, the approval of a proposal and any SQL are all seen), and a ``stake`` read after a
    change carries the new version, which reads the rows afresh. The row in force is then picked in memory for
    ``moment``, so a row scheduled for later takes effect at exactly its ``effective_from``. Pass a ``stake`` read in
    the caller's transaction (the table's lock loads it): one read earlier answers with the rows as they were then.
    Raises ``StakeTerms.DoesNotExist`` when no row is in force at ``moment``."""
    cached = _terms_by_stake.get(stake.pk)
    if cached is None or cached[0] != stake.terms_version:
        rows = tuple(StakeTerms.objects.filter(stake_id=stake.pk).order_by("effective_from", "pk"))
        cached = _terms_by_stake[stake.pk] = (stake.terms_version, rows)
    row = _latest_not_after(cached[1], moment)
    if row is None:
        raise StakeTerms.DoesNotExist(f"no terms of {stake} are in force at {moment}")
    return _with_parent(row, "stake", stake)


def rules_in_force(game_type: GameType, moment: datetime) -> GameRules:
    """What ``game_type.rules_at(moment)`` returns, without a query while the game type's rows are unchanged (kept
    under its ``rules_version`` as :func:`terms_in_force` keeps a stake's terms). Raises ``GameRules.DoesNotExist``
    when no row is in force at ``moment``."""
    cached = _rules_by_game_type.get(game_type.pk)
    if cached is None or cached[0] != game_type.rules_version:
        rows = tuple(GameRules.objects.filter(game_type_id=game_type.pk).order_by("effective_from", "pk"))
        cached = _rules_by_game_type[game_type.pk] = (game_type.rules_version, rows)
    row = _latest_not_after(cached[1], moment)
    if row is None:
        raise GameRules.DoesNotExist(f"no rules of {game_type} are in force at {moment}")
    return _with_parent(row, "game_type", game_type)


def _latest_not_after(rows: tuple[_Row, ...], moment: datetime) -> _Row | None:
    """The last of ``rows`` (ordered by effective time, then primary key) in force at ``moment``."""
    found = None
    for row in rows:
        if row.effective_from > moment:
            break
        found = row
    return found


def _with_parent(row: _Row, field_name: str, parent: models.Model) -> _Row:
    """A copy of the cached ``row`` (callers and threads never share one) with its parent the caller's instance, as
    the related manager's query gives it (``terms.stake`` is the stake it was asked of: no query, the fresh row)."""
    copied = copy.copy(row)
    copied._state.fields_cache[field_name] = parent
    return copied
