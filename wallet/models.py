"""The double-entry ledger: accounts, transfers and their legs, plus the records that explain them.

Money is integer cents. An ``Account`` holds a balance that only ``wallet.services.transfer_create`` changes; a
``Transfer`` is one balanced movement (its ``Leg`` amounts sum to zero) and is never updated or deleted (PostgreSQL
triggers refuse it, see migration 0002). Player-owned and pool accounts can never go below zero: a CHECK constraint
refuses it whatever code runs. The other models (holds, staff adjustments, cashier transactions, unresolved-game
funds, audit entries) record why money moved and who decided it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from poker_site.core.money import euros
from wallet.errors import format_cents

DEFAULT_CURRENCY = "EUR"


class AccountKind(models.TextChoices):
    """What an account is for. Fixed at creation."""

    PLAYER_CASH = "player_cash", _("player cash")
    TABLE_SESSION = "table_session", _("table session")
    TOURNAMENT_PRIZE_POOL = "tournament_prize_pool", _("tournament prize pool")
    BOUNTY_POOL = "bounty_pool", _("bounty pool")
    UTH_BETS_IN_PLAY = "uth_bets_in_play", _("UTH bets in play")
    HOUSE_RAKE = "house_rake", _("house rake")
    HOUSE_FEES = "house_fees", _("house fees")
    HOUSE_UTH_RESULT = "house_uth_result", _("house UTH result")
    HOUSE_GUARANTEE = "house_guarantee", _("house guarantees and overlay")
    HOUSE_SEIZED = "house_seized", _("house seized funds")
    HOUSE_ADJUSTMENTS = "house_adjustments", _("house staff adjustments")
    CHARITY = "charity", _("charity")
    WITHHELD = "withheld", _("withheld for review")
    UNRESOLVED_GAME = "unresolved_game", _("unresolved game funds")
    PENDING_WITHDRAWALS = "pending_withdrawals", _("withdrawals awaiting payout")
    OUTSIDE_WORLD = "outside_world", _("outside world")
    TOURNAMENT_TICKET = "tournament_ticket", _("tournament ticket")  # tournaments.TournamentTicket (TRN-37)
    DEMO_BANKROLL = "demo_bankroll", _("demo bankroll (the demo bots' money)")


# Accounts whose nature is to go negative: the outside world (money that came in is a debit there), the house's UTH
# result (the house can lose a round) and guarantees (an overlay is paid before it is earned back), adjustments
# (a goodwill credit is a house loss), the demo bankroll (play money the demo bots are funded from: it gives without
# limit). Every other account is a player's or a pool's money and never below zero.
NEGATIVE_BALANCE_KINDS: frozenset[str] = frozenset(
    {
        AccountKind.OUTSIDE_WORLD,
        AccountKind.HOUSE_UTH_RESULT,
        AccountKind.HOUSE_GUARANTEE,
        AccountKind.HOUSE_ADJUSTMENTS,
        AccountKind.DEMO_BANKROLL,
    }
)

# One account per kind and currency (``system_account``).
SYSTEM_KINDS: frozenset[str] = frozenset(
    {
        AccountKind.HOUSE_RAKE,
        AccountKind.HOUSE_FEES,
        AccountKind.HOUSE_UTH_RESULT,
        AccountKind.HOUSE_GUARANTEE,
        AccountKind.HOUSE_SEIZED,
        AccountKind.HOUSE_ADJUSTMENTS,
        AccountKind.CHARITY,
        AccountKind.PENDING_WITHDRAWALS,
        AccountKind.OUTSIDE_WORLD,
        AccountKind.DEMO_BANKROLL,
    }
)

SYSTEM_REFERENCE = "system"


class Account(models.Model):
    """A balance in one currency. ``balance`` is written only by the ledger (``transfer_create``)."""

    kind = models.CharField(_("kind"), max_length=32, choices=AccountKind.choices)
    currency = models.CharField(_("currency"), max_length=3, default=DEFAULT_CURRENCY)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="wallet_accounts",
    )
    reference = models.CharField(
        _("reference"),
        max_length=200,
        help_text=_('What the account belongs to, e.g. "player:12", "table-session:123", "tournament:7".'),
    )
    balance = models.BigIntegerField(_("balance (cents)"), default=0, editable=False)
    may_go_negative = models.BooleanField(_("may go negative"), default=False, editable=False)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("account")
        verbose_name_plural = _("accounts")
        constraints = [
            models.UniqueConstraint(fields=["kind", "currency", "reference"], name="wallet_account_unique_reference"),
            models.CheckConstraint(
                condition=Q(may_go_negative=True) | Q(balance__gte=0), name="wallet_account_balance_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(may_go_negative=False) | Q(kind__in=sorted(NEGATIVE_BALANCE_KINDS)),
                name="wallet_account_negative_only_for_house_kinds",
            ),
            models.CheckConstraint(condition=Q(currency__regex=r"^[A-Z]{3}$"), name="wallet_account_currency_code"),
            models.CheckConstraint(
                condition=~Q(kind=AccountKind.PLAYER_CASH) | Q(owner__isnull=False),
                name="wallet_account_player_cash_has_owner",
            ),
        ]
        indexes = [models.Index(fields=["owner", "kind"], name="wallet_acct_owner_kind")]
        permissions = [("adjust_balance", "Can adjust a balance with a reasoned staff adjustment")]

    def __str__(self) -> str:
        return f"{self.label} ({format_cents(self.balance, self.currency)})"

    @property
    def description(self) -> str:
        """A human name without the internal number, for messages anyone may read: "alice's player cash account",
        "tournament prize pool tournament:7 account"."""
        kind = AccountKind(self.kind).label if self.kind in AccountKind.values else self.kind
        if self.reference and self.reference != SYSTEM_REFERENCE and not self.reference.startswith("player:"):
            kind = f"{kind} {self.reference}"
        owner = f"{self.owner}'s " if self.owner_id is not None else ""
        return f"{owner}{kind} account"

    @property
    def label(self) -> str:
        """The description with the internal number, for staff (admin, reconciliation): "house rake account #1"."""
        return f"{self.description} #{self.pk}"


class Transfer(models.Model):
    """One balanced money movement. Append-only: the database refuses UPDATE and DELETE."""

    kind = models.CharField(_("kind"), max_length=40, help_text=_("See wallet.services.TransferKind."))
    idempotency_key = models.CharField(_("idempotency key"), max_length=200, unique=True)
    reference = models.CharField(
        _("reference"),
        max_length=200,
        help_text=_('The cause: "hand:991", "tournament-entry:5", "uth-round:55", "hold:3", "adjustment:8".'),
    )
    description = models.TextField(_("description"), blank=True)
    currency = models.CharField(_("currency"), max_length=3)
    fingerprint = models.CharField(
        _("content fingerprint"),
        max_length=64,
        help_text=_("SHA-256 of kind, reference, currency and legs; a repeated idempotency key must match it."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("transfer")
        verbose_name_plural = _("transfers")
        indexes = [
            models.Index(fields=["reference"], name="wallet_transfer_reference"),
            models.Index(fields=["kind", "-id"], name="wallet_transfer_kind_id"),
            models.Index(fields=["created_at"], name="wallet_transfer_created_at"),
        ]

    def __str__(self) -> str:
        return f"transfer #{self.pk} {self.kind} {self.reference}"


class Leg(models.Model):
    """One account's side of a transfer: positive amount = credit (balance goes up), negative = debit."""

    # Both foreign keys are served by the composite indexes below (unique (transfer, account) and (account, -id)).
    transfer = models.ForeignKey(
        Transfer, verbose_name=_("transfer"), on_delete=models.PROTECT, related_name="legs", db_index=False
    )
    account = models.ForeignKey(
        Account, verbose_name=_("account"), on_delete=models.PROTECT, related_name="legs", db_index=False
    )
    amount = models.BigIntegerField(_("amount (cents)"))
    balance_after = models.BigIntegerField(_("balance after (cents)"))

    class Meta:
        verbose_name = _("leg")
        verbose_name_plural = _("legs")
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="wallet_leg_amount_not_zero"),
            models.UniqueConstraint(fields=["transfer", "account"], name="wallet_leg_one_per_account"),
        ]
        indexes = [models.Index(fields=["account", "-id"], name="wallet_leg_account_id")]

    def __str__(self) -> str:
        return (
            f"{euros(self.amount, self.account.currency, signed=True)} on account #{self.account_id} "
            f"(transfer #{self.transfer_id})"
        )


class HoldStatus(models.TextChoices):
    HELD = "held", _("held")
    RELEASED = "released", _("released")
    SEIZED = "seized", _("seized")


class Hold(models.Model):
    """Player funds withheld pending a game-play review (FRD-04), then released to the player or seized (FRD-10)."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("player"), on_delete=models.PROTECT, related_name="wallet_holds"
    )
    amount = models.BigIntegerField(_("amount (cents)"))
    currency = models.CharField(_("currency"), max_length=3, default=DEFAULT_CURRENCY)
    source_account = models.ForeignKey(
        Account, verbose_name=_("taken from"), on_delete=models.PROTECT, related_name="holds_taken"
    )
    withheld_account = models.ForeignKey(
        Account, verbose_name=_("withheld in"), on_delete=models.PROTECT, related_name="holds_withheld"
    )
    reason = models.TextField(_("reason"))
    review_reference = models.CharField(
        _("review reference"), max_length=200, help_text=_('The compliance case, e.g. "review-case:12".')
    )
    status = models.CharField(_("status"), max_length=10, choices=HoldStatus.choices, default=HoldStatus.HELD)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("withheld by"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(_("withheld at"), default=timezone.now)
    hold_transfer = models.OneToOneField(
        Transfer, verbose_name=_("hold transfer"), on_delete=models.PROTECT, related_name="+"
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("decided by"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decision_reason = models.TextField(_("decision reason"), blank=True)
    decision_transfer = models.OneToOneField(
        Transfer,
        verbose_name=_("decision transfer"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    seized_amount = models.BigIntegerField(
        _("seized (cents)"),
        null=True,
        blank=True,
        help_text=_(
            "For a seized hold: the part seized; the rest went back to the player's cash in the same transfer."
        ),
    )

    class Meta:
        verbose_name = _("hold")
        verbose_name_plural = _("holds")
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="wallet_hold_amount_positive"),
            models.CheckConstraint(
                condition=(Q(status=HoldStatus.HELD) & Q(decided_at__isnull=True))
                | (~Q(status=HoldStatus.HELD) & Q(decided_at__isnull=False)),
                name="wallet_hold_decided_when_not_held",
            ),
            models.CheckConstraint(
                condition=Q(seized_amount__isnull=True)
                | (Q(status=HoldStatus.SEIZED) & Q(seized_amount__gt=0) & Q(seized_amount__lte=models.F("amount"))),
                name="wallet_hold_seized_part_of_the_hold",
            ),
        ]
        indexes = [
            models.Index(fields=["player", "status"], name="wallet_hold_player_status"),
            models.Index(fields=["review_reference"], name="wallet_hold_review"),
        ]
        permissions = [
            ("withhold_winnings", "Can withhold a player's funds pending review"),
            ("release_hold", "Can release withheld funds to the player"),
            ("seize_hold", "Can seize withheld funds"),
        ]

    def __str__(self) -> str:
        return f"hold #{self.pk} {format_cents(self.amount, self.currency)} ({self.status})"


class StaffAdjustment(models.Model):
    """A reasoned manual correction of a balance booked by one staff member alone, as done before issue 30. Kept as
    history, read only: an adjustment is now an :class:`AdjustmentProposal` that a second staff member approves."""

    account = models.ForeignKey(
        Account, verbose_name=_("account"), on_delete=models.PROTECT, related_name="staff_adjustments"
    )
    amount = models.BigIntegerField(_("amount (cents)"), help_text=_("Positive credits the account, negative debits."))
    reason = models.TextField(_("reason"))
    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("staff member"), on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    transfer = models.OneToOneField(Transfer, verbose_name=_("transfer"), on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("staff adjustment")
        verbose_name_plural = _("staff adjustments")
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="wallet_adjustment_amount_not_zero"),
            models.CheckConstraint(condition=~Q(reason=""), name="wallet_adjustment_reason_given"),
        ]

    def __str__(self) -> str:
        amount = euros(self.amount, self.account.currency, signed=True)
        return f"adjustment #{self.pk} {amount} on account #{self.account_id}"


class AdjustmentCategory(models.TextChoices):
    """Why a balance is adjusted by hand (issue 30): the approval rules and the reports group by it."""

    GOODWILL = "goodwill", _("goodwill")
    CORRECTION = "correction", _("correction of an error")
    CHARGEBACK = "chargeback", _("chargeback")
    MALFUNCTION = "malfunction", _("refund after a game malfunction")


class ProposalStatus(models.TextChoices):
    PENDING = "pending", _("awaiting approval")
    APPROVED = "approved", _("approved and booked")
    REJECTED = "rejected", _("rejected")


class AdjustmentProposal(models.Model):
    """A manual adjustment of a player's cash account proposed by one staff member and booked only when a second one
    approves it (issue 30: money changes by staff need two people). Until then nothing moved.

    ``needs_administrator`` is decided when proposed (``wallet.services.adjustments``): any debit, any credit above the
    support staff's limit for its category (``WALLET_ADJUSTMENT_SUPPORT_LIMITS``) needs an administrator's approval.
    The database refuses an approver who is the proposer, an approved proposal without its transfer and a rejection
    without a reason."""

    account = models.ForeignKey(
        Account, verbose_name=_("account"), on_delete=models.PROTECT, related_name="adjustment_proposals"
    )
    amount = models.BigIntegerField(_("amount (cents)"), help_text=_("Positive credits the account, negative debits."))
    category = models.CharField(_("category"), max_length=20, choices=AdjustmentCategory.choices)
    reason = models.TextField(_("reason"))
    needs_administrator = models.BooleanField(_("needs an administrator's approval"), default=True, editable=False)
    status = models.CharField(
        _("status"), max_length=10, choices=ProposalStatus.choices, default=ProposalStatus.PENDING, editable=False
    )
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("proposed by"), on_delete=models.PROTECT, related_name="+"
    )
    proposed_at = models.DateTimeField(_("proposed at"), default=timezone.now)
    idempotency_key = models.CharField(_("idempotency key"), max_length=100, unique=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("decided by"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decision_note = models.TextField(
        _("decision note"), blank=True, help_text=_("The rejection's reason, or the approver's comment.")
    )
    transfer = models.OneToOneField(
        Transfer, verbose_name=_("transfer"), null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name = _("adjustment proposal")
        verbose_name_plural = _("adjustment proposals")
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="wallet_proposal_amount_not_zero"),
            models.CheckConstraint(condition=~Q(reason=""), name="wallet_proposal_reason_given"),
            models.CheckConstraint(
                condition=Q(decided_by__isnull=True) | ~Q(decided_by=models.F("proposed_by")),
                name="wallet_proposal_decided_by_another",
            ),
            models.CheckConstraint(
                condition=(
                    Q(status=ProposalStatus.PENDING, decided_by__isnull=True, transfer__isnull=True)
                    | Q(status=ProposalStatus.APPROVED, decided_by__isnull=False, transfer__isnull=False)
                    | (
                        Q(status=ProposalStatus.REJECTED, decided_by__isnull=False, transfer__isnull=True)
                        & ~Q(decision_note="")
                    )
                ),
                name="wallet_proposal_status_consistent",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "proposed_at"], name="wallet_proposal_status"),
            models.Index(fields=["account", "status"], name="wallet_proposal_account"),
        ]
        permissions = [
            ("propose_adjustment", "Can propose a manual adjustment of a player's balance"),
            ("approve_adjustment", "Can approve another staff member's small goodwill credit"),
            ("approve_any_adjustment", "Can approve any manual adjustment proposed by another staff member"),
        ]

    def __str__(self) -> str:
        return f"adjustment proposal #{self.pk} {format_cents(self.amount)} on account #{self.account_id}"


class CashierDirection(models.TextChoices):
    DEPOSIT = "deposit", _("deposit")
    WITHDRAWAL = "withdrawal", _("withdrawal")


class CashierStatus(models.TextChoices):
    PENDING = "pending", _("pending payout")
    COMPLETED = "completed", _("completed")
    FAILED = "failed", _("failed and returned")


class CashierTransaction(models.Model):
    """A deposit or withdrawal through a payment provider, and the transfers that booked it.

    A pending deposit is a reservation: its amount counts towards the player's deposit limits while the payment
    provider is asked to charge, and it has no transfer until the charge is confirmed and credited (completed). A
    declined deposit's reservation is deleted. A pending withdrawal has its transfer (cash → pending withdrawals).
    """

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="cashier_transactions",
    )
    direction = models.CharField(_("direction"), max_length=10, choices=CashierDirection.choices)
    amount = models.BigIntegerField(_("amount (cents)"))
    currency = models.CharField(_("currency"), max_length=3, default=DEFAULT_CURRENCY)
    status = models.CharField(_("status"), max_length=10, choices=CashierStatus.choices)
    provider = models.CharField(_("payment provider"), max_length=40)
    provider_reference = models.CharField(_("provider reference"), max_length=200, blank=True)
    idempotency_key = models.CharField(_("idempotency key"), max_length=200)
    failure_reason = models.TextField(_("failure reason"), blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    completed_at = models.DateTimeField(_("completed at"), null=True, blank=True)
    transfer = models.OneToOneField(
        Transfer,
        verbose_name=_("transfer"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,  # only while a deposit awaits the payment provider (the constraint below)
        blank=True,
    )
    settlement_transfer = models.OneToOneField(
        Transfer,
        verbose_name=_("settlement transfer"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        help_text=_("For withdrawals: the payout (to the outside world) or the return (to the player)."),
    )

    class Meta:
        verbose_name = _("cashier transaction")
        verbose_name_plural = _("cashier transactions")
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="wallet_cashier_amount_positive"),
            models.UniqueConstraint(
                fields=["player", "direction", "idempotency_key"], name="wallet_cashier_unique_key"
            ),
            models.CheckConstraint(
                condition=Q(transfer__isnull=False)
                | Q(direction=CashierDirection.DEPOSIT, status=CashierStatus.PENDING),
                name="wallet_cashier_transfer_unless_pending_deposit",
            ),
        ]
        indexes = [models.Index(fields=["player", "direction", "created_at"], name="wallet_cashier_player_day")]

    def __str__(self) -> str:
        return f"{self.direction} #{self.pk} {format_cents(self.amount, self.currency)} ({self.status})"


class CashierLimits(models.Model):
    """Cashier limits as back-office data with an effective-from time; the latest effective row applies."""

    effective_from = models.DateTimeField(_("effective from"), default=timezone.now, unique=True)
    minimum_deposit = models.BigIntegerField(_("minimum deposit (cents)"))
    maximum_deposit = models.BigIntegerField(_("maximum deposit (cents)"))
    daily_deposit_limit = models.BigIntegerField(_("daily deposit limit (cents, UTC day)"))
    minimum_withdrawal = models.BigIntegerField(_("minimum withdrawal (cents)"))
    maximum_withdrawal = models.BigIntegerField(_("maximum withdrawal (cents)"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name = _("cashier limits")
        verbose_name_plural = _("cashier limits")
        constraints = [
            models.CheckConstraint(
                condition=Q(minimum_deposit__gt=0)
                & Q(maximum_deposit__gte=models.F("minimum_deposit"))
                & Q(daily_deposit_limit__gte=models.F("maximum_deposit"))
                & Q(minimum_withdrawal__gt=0)
                & Q(maximum_withdrawal__gte=models.F("minimum_withdrawal")),
                name="wallet_cashier_limits_consistent",
            ),
        ]

    def __str__(self) -> str:
        return f"cashier limits from {self.effective_from:%Y-%m-%d %H:%M} UTC"


class UnresolvedGameStatus(models.TextChoices):
    OPEN = "open", _("awaiting a decision")
    RESOLVED = "resolved", _("resolved by staff")
    VOIDED = "voided", _("void, forfeited to charity")


class UnresolvedGameFunds(models.Model):
    """Bets of an incomplete game that could not be settled automatically (CASH-25, HEX-17, AMB-45).

    The money waits in its own account until staff resolve the case; 90 days after it was opened the ticker voids it
    and moves the funds to the charity account.
    """

    game_reference = models.CharField(_("game"), max_length=200, help_text=_('e.g. "hand:991" or "hexapro:14".'))
    account = models.OneToOneField(
        Account, verbose_name=_("funds account"), on_delete=models.PROTECT, related_name="unresolved_game"
    )
    amount = models.BigIntegerField(_("amount (cents)"))
    currency = models.CharField(_("currency"), max_length=3, default=DEFAULT_CURRENCY)
    description = models.TextField(_("description"), blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=UnresolvedGameStatus.choices, default=UnresolvedGameStatus.OPEN
    )
    opened_at = models.DateTimeField(_("opened at"), default=timezone.now)
    deadline = models.DateTimeField(_("void deadline"))
    opening_transfer = models.OneToOneField(
        Transfer, verbose_name=_("opening transfer"), on_delete=models.PROTECT, related_name="+"
    )
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    closing_reason = models.TextField(_("closing reason"), blank=True)
    closing_transfer = models.OneToOneField(
        Transfer, verbose_name=_("closing transfer"), null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name = _("unresolved game funds")
        verbose_name_plural = _("unresolved game funds")
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="wallet_unresolved_amount_positive")]
        indexes = [models.Index(fields=["status", "deadline"], name="wallet_unresolved_due")]

    def __str__(self) -> str:
        return f"unresolved {self.game_reference} {format_cents(self.amount, self.currency)} ({self.status})"


class AuditEntry(models.Model):
    """The back office's one audit log (LOB-10): who did what, to what, when and why, with the state before and after.

    Every staff action writes one: the wallet's and the other apps' services in the transaction that does the thing
    (``wallet.services.audit_record``), and every change made through a Django admin page (add, change, delete,
    ``poker_site.core.admin_audit``). Players' own money movements (deposits, withdrawals) are here too. Append-only:
    database triggers refuse UPDATE and DELETE (migration 0002).

    ``target`` names the object acted on (``"compliance.case:12"``, ``"games.cashtable:3"``); ``before`` and ``after``
    hold the fields that changed (the whole object when it was added or deleted), ``null`` when not applicable.
    """

    created_at = models.DateTimeField(_("at"), default=timezone.now)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("actor"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    action = models.CharField(_("action"), max_length=60)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    transfer = models.ForeignKey(
        Transfer, verbose_name=_("transfer"), null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.TextField(_("reason"), blank=True)
    details = models.JSONField(_("details"), default=dict, blank=True)
    target = models.CharField(
        _("target"), max_length=200, blank=True, help_text=_('What was acted on, e.g. "compliance.case:12".')
    )
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        indexes = [
            models.Index(fields=["player", "-id"], name="wallet_audit_player"),
            models.Index(fields=["action", "-id"], name="wallet_audit_action"),
            models.Index(fields=["target", "-id"], name="wallet_audit_target"),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M:%S} {self.action}"
