"""HexaPro rows: products (HEX-02, HEX-06..HEX-13, HEX-20..HEX-28, FEE-06 as data, catalog §0.3), games and
registrations (HEX-03..HEX-05, HEX-10, HEX-17, HEX-31).

A product is stored as a :class:`HexaProProductVersion` with an effective-from time and its rows (buy-ins with their
fee components, multipliers, blind levels). The version in force for a code is the one with the latest
``effective_from`` not after now; staff change a product by adding a version, so every game keeps the tables it was
played with (the audit of HEX-31 reads them). The data migration seeds both products from the catalog's defaults.

A game is a :class:`~tournaments.models.Tournament` of kind ``hexapro`` (3 seats, its levels, stack and timebank
those of the drawn multiplier) with a :class:`HexaProGame` row: product version, buy-in, the draw (multiplier, the
ticket drawn and the total weight: the log of every draw, GEN-07/GEN-08), the prize pool and the transfer that funded
it. A :class:`HexaProRegistration` is one registered game (one seat): waiting, then seated in a game, or withdrawn
and refunded.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class HexaProProductVersion(models.Model):
    """One version of a HexaPro product's tables, in force from ``effective_from`` until a later version."""

    code = models.SlugField(_("product code"), max_length=40, help_text=_("hexapro, hexapro_extreme, …"))
    name = models.CharField(_("name"), max_length=80)
    effective_from = models.DateTimeField(_("in force from"), default=timezone.now)
    seats = models.PositiveSmallIntegerField(_("seats"), default=3)
    maximum_games_per_registration = models.PositiveSmallIntegerField(_("games per registration (maximum)"), default=20)
    decision_seconds = models.PositiveSmallIntegerField(_("normal decision time (s)"), default=10)
    reconnect_grace_seconds = models.PositiveSmallIntegerField(_("reconnection grace (s)"), default=20)
    stated_rake_equivalent_percent = models.DecimalField(
        _("stated rake equivalent (%)"), max_digits=6, decimal_places=3, default="6.853"
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        ordering = ("code", "-effective_from")
        verbose_name = _("HexaPro product version")
        constraints = [
            models.UniqueConstraint(fields=("code", "effective_from"), name="hexapro_version_unique_start"),
            models.CheckConstraint(condition=models.Q(seats__gte=2, seats__lte=10), name="hexapro_version_seats"),
        ]

    def __str__(self) -> str:
        return f"{self.name} from {self.effective_from:%Y-%m-%d %H:%M}"


class HexaProBuyIn(models.Model):
    """A buy-in offered (HEX-02, HEX-20) and its fee component (FEE-06, AMB-16), in cents."""

    version = models.ForeignKey(HexaProProductVersion, on_delete=models.CASCADE, related_name="buy_ins")
    buy_in_cents = models.PositiveBigIntegerField(_("buy-in (cents)"))
    fee_component_cents = models.PositiveBigIntegerField(_("fee component (cents)"))

    class Meta:
        ordering = ("version", "buy_in_cents")
        verbose_name = _("HexaPro buy-in")
        constraints = [
            models.UniqueConstraint(fields=("version", "buy_in_cents"), name="hexapro_buy_in_unique"),
            models.CheckConstraint(
                condition=models.Q(buy_in_cents__gte=1, fee_component_cents__lte=models.F("buy_in_cents")),
                name="hexapro_fee_within_buy_in",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.version.code} {self.buy_in_cents / 100:.2f}"


class HexaProMultiplier(models.Model):
    """One multiplier (in tenths: 15 = 1.5x) with its probability weight (HEX-06, HEX-22), payout percentages place 1
    first (HEX-09, HEX-25), starting stack (HEX-11, HEX-26), level duration (HEX-13, HEX-28) and timebank row
    (HEX-15, HEX-29, TB-02, TB-06)."""

    version = models.ForeignKey(HexaProProductVersion, on_delete=models.CASCADE, related_name="multipliers")
    multiplier_tenths = models.PositiveIntegerField(_("multiplier (tenths)"))
    weight = models.PositiveIntegerField(_("probability weight"))
    payout_percentages = models.JSONField(_("payout % per place"))
    starting_stack = models.PositiveIntegerField(_("starting stack"))
    level_seconds = models.PositiveIntegerField(_("level length (s)"))
    timebank_first_hand_seconds = models.PositiveSmallIntegerField(_("timebank at first hand (s)"))
    timebank_replenish_seconds = models.PositiveSmallIntegerField(_("timebank replenishment (s)"))
    timebank_replenish_every_hands = models.PositiveSmallIntegerField(_("replenish every N hands"))
    timebank_cap_seconds = models.PositiveSmallIntegerField(_("timebank cap (s)"))

    class Meta:
        ordering = ("version", "-multiplier_tenths")
        verbose_name = _("HexaPro multiplier")
        constraints = [
            models.UniqueConstraint(fields=("version", "multiplier_tenths"), name="hexapro_multiplier_unique"),
            models.CheckConstraint(
                condition=models.Q(multiplier_tenths__gte=1, weight__gte=1), name="hexapro_multiplier_positive"
            ),
        ]

    def __str__(self) -> str:
        whole, tenth = divmod(self.multiplier_tenths, 10)
        return f"{whole}.{tenth}x" if tenth else f"{whole}x"


class HexaProBlindLevel(models.Model):
    """A level of the blind structure (HEX-12, HEX-27); its length is the drawn multiplier's."""

    version = models.ForeignKey(HexaProProductVersion, on_delete=models.CASCADE, related_name="blind_levels")
    number = models.PositiveSmallIntegerField(_("level"))
    small_blind = models.PositiveIntegerField(_("small blind"))
    big_blind = models.PositiveIntegerField(_("big blind"))
    ante = models.PositiveIntegerField(_("ante"), default=0)

    class Meta:
        ordering = ("version", "number")
        verbose_name = _("HexaPro blind level")
        constraints = [models.UniqueConstraint(fields=("version", "number"), name="hexapro_level_unique")]

    def __str__(self) -> str:
        return f"{self.number}: {self.small_blind}/{self.big_blind}" + (f" ante {self.ante}" if self.ante else "")


class HexaProGame(models.Model):
    """A formed HexaPro game: the tournament it is played as, the product tables and buy-in, the draw (HEX-05, the
    log of GEN-07/GEN-08) and its money (FEE-06, HEX-07/HEX-21)."""

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.PROTECT, primary_key=True, related_name="hexapro"
    )
    version = models.ForeignKey(HexaProProductVersion, on_delete=models.PROTECT, related_name="games")
    product_code = models.SlugField(_("product code"), max_length=40)
    buy_in_cents = models.PositiveBigIntegerField(_("buy-in (cents)"))
    fee_component_cents = models.PositiveBigIntegerField(_("fee component (cents)"))
    multiplier_tenths = models.PositiveIntegerField(_("multiplier (tenths)"))
    draw_ticket = models.PositiveIntegerField(_("ticket drawn"))
    draw_total_weight = models.PositiveIntegerField(_("tickets in the draw"))
    drawn_at = models.DateTimeField(_("drawn at"))
    prize_pool_cents = models.PositiveBigIntegerField(_("prize pool (cents)"))
    payout_percentages = models.JSONField(_("payout % per place"))
    formation_transfer = models.ForeignKey(
        "wallet.Transfer", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    unresolved_case = models.OneToOneField(
        "wallet.UnresolvedGameFunds", null=True, blank=True, on_delete=models.PROTECT, related_name="hexapro_game"
    )

    class Meta:
        ordering = ("-drawn_at",)
        verbose_name = _("HexaPro game")
        indexes = [
            models.Index(fields=("product_code", "buy_in_cents", "multiplier_tenths"), name="hexapro_game_audit"),
        ]

    def __str__(self) -> str:
        return f"HexaPro game {self.pk}"

    @property
    def multiplier_label(self) -> str:
        whole, tenth = divmod(self.multiplier_tenths, 10)
        return f"{whole}.{tenth}x" if tenth else f"{whole}x"


class RegistrationStatus(models.TextChoices):
    WAITING = "waiting", _("waiting for opponents")
    SEATED = "seated", _("in a game")
    WITHDRAWN = "withdrawn", _("withdrawn (refunded)")


class HexaProRegistration(models.Model):
    """One registered game (one seat, HEX-04). The registrations of one PLAY share its ``request`` and the one
    transfer that debited the total (HEX-03)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hexapro_registrations")
    product_code = models.SlugField(_("product code"), max_length=40)
    buy_in_cents = models.PositiveBigIntegerField(_("buy-in (cents)"))
    request = models.UUIDField(_("registration request"))
    registered_at = models.DateTimeField(_("registered at"), default=timezone.now)
    status = models.CharField(
        _("status"), max_length=10, choices=RegistrationStatus.choices, default=RegistrationStatus.WAITING
    )
    registration_transfer = models.ForeignKey("wallet.Transfer", on_delete=models.PROTECT, related_name="+")
    refund_transfer = models.ForeignKey(
        "wallet.Transfer", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    game = models.ForeignKey(HexaProGame, null=True, blank=True, on_delete=models.PROTECT, related_name="registrations")

    class Meta:
        ordering = ("registered_at", "pk")
        verbose_name = _("HexaPro registration")
        constraints = [
            models.UniqueConstraint(
                fields=("game", "user"), condition=models.Q(game__isnull=False), name="hexapro_one_seat_per_game"
            ),
            models.CheckConstraint(
                condition=~models.Q(status="seated") | models.Q(game__isnull=False), name="hexapro_seated_has_game"
            ),
        ]
        indexes = [
            models.Index(
                fields=("product_code", "buy_in_cents", "registered_at"),
                condition=models.Q(status="waiting"),
                name="hexapro_waiting_queue",
            ),
            models.Index(fields=("user", "status"), name="hexapro_registration_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.product_code} {self.buy_in_cents / 100:.2f} ({self.status})"


class HexaProDrawCommitment(models.Model):
    """A provably fair multiplier draw (issue 29, docs/fairness.md): committed before the game it draws for forms.

    Each product and buy-in queue always holds one unused commitment, shown to the players waiting in that queue; the
    next game formed there draws its ticket from it (``games.engine.fairness.derived_integer`` over the product's
    total weight, domain :attr:`domain`), links it as ``game`` and reveals ``server_seed``; a fresh commitment takes
    its place. The seed is shown to nobody while ``game`` is empty."""

    product_code = models.SlugField(_("product code"), max_length=40)
    buy_in_cents = models.PositiveBigIntegerField(_("buy-in (cents)"))
    server_seed = models.CharField(_("server seed (hex, secret until the draw)"), max_length=64)
    commitment = models.CharField(_("commitment (SHA-256, hex)"), max_length=64, blank=True)
    committed_at = models.DateTimeField(_("committed at"), default=timezone.now)
    game = models.OneToOneField(
        HexaProGame, null=True, blank=True, on_delete=models.PROTECT, related_name="draw_commitment"
    )

    class Meta:
        verbose_name = _("HexaPro draw commitment")
        constraints = [
            models.UniqueConstraint(
                fields=("product_code", "buy_in_cents"),
                condition=models.Q(game__isnull=True),
                name="hexapro_one_open_draw_commitment_per_queue",
            )
        ]

    def __str__(self) -> str:
        return f"HexaPro draw commitment {self.pk} ({self.product_code} {self.buy_in_cents})"

    @property
    def domain(self) -> str:
        return f"hexapro-draw/v1/{self.product_code}/{self.buy_in_cents}/{self.pk}"
