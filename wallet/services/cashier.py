"""The cashier: deposits and withdrawals through a payment provider, within limits, idempotent per player and key.

Deposits: ``deposit_through_provider`` reserves the deposit first: under the player's cashier lock it checks the
limits and records a pending deposit, which counts towards every deposit limit, and commits. Only then is the provider
asked to charge, with no transaction open. A charge is credited (outside world → the player's cash, ``deposit``
transfer) and the deposit completed; a decline deletes the reservation. So simultaneous deposits near a limit are
refused before any charge, and every charged deposit is credited. A provider that raises leaves the reservation
pending (the charge is unknown): the retry with the same key asks the provider again (idempotent per key) and finishes
it. ``deposit_create`` credits a deposit the provider has already confirmed, in one transaction. A pending deposit no
retry finishes is settled by staff after checking with the provider (``pending_deposit_settle``: credited under its
key, or released), proposed by one staff member and approved by another (:mod:`wallet.deposit_changes`).

Withdrawals: ``withdrawal_create`` reserves the money (cash → pending withdrawals) with ``withdrawal_request``, asks
the provider to pay, then books the payout (pending → outside world, ``withdrawal_complete``) or returns the money
(pending → cash, ``withdrawal_fail``). A crash between the steps leaves a pending withdrawal that staff finish.
Only the cash balance can be withdrawn: money at tables must be cashed out first, withheld money waits for review.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from django.db import connection, transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext

from poker_site.core.templatetags.money import format_money
from wallet.errors import (
    CashierLimitExceeded,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidTransfer,
    PaymentProviderError,
)
from wallet.models import (
    DEFAULT_CURRENCY,
    AccountKind,
    CashierDirection,
    CashierLimits,
    CashierStatus,
    CashierTransaction,
)
from wallet.services.accounts import check_currency, money_at_tables, player_cash_account, system_account
from wallet.services.audit import audit_record, audit_target
from wallet.services.deposit_checks import deposit_checks_pass
from wallet.services.ledger import TransferKind, TransferLeg, check_positive_amount, transfer_create
from wallet.services.permissions import require_reason
from wallet.services.providers import PaymentProvider, default_payment_provider
from wallet.services.withdrawal_checks import withdrawal_checks_pass

if TYPE_CHECKING:
    from poker_site.accounts.models import User

_KEY_PATTERN = re.compile(r"^[A-Za-z0-9._:-]{1,100}$")
_CASHIER_LOCK_CLASS = zlib.crc32(b"wallet-cashier") & 0x7FFFFFFF


@dataclass(frozen=True)
class Limits:
    """The cashier limits in force, in cents."""

    minimum_deposit: int
    maximum_deposit: int
    daily_deposit_limit: int
    minimum_withdrawal: int
    maximum_withdrawal: int


DEFAULT_LIMITS = Limits(
    minimum_deposit=1_000,
    maximum_deposit=500_000,
    daily_deposit_limit=1_000_000,
    minimum_withdrawal=1_000,
    maximum_withdrawal=1_000_000,
)


def cashier_limits(at: datetime | None = None) -> Limits:
    """The latest ``CashierLimits`` row effective at ``at`` (now by default); ``DEFAULT_LIMITS`` if there is none."""
    row = CashierLimits.objects.filter(effective_from__lte=at or timezone.now()).order_by("-effective_from").first()
    if row is None:
        return DEFAULT_LIMITS
    return Limits(
        minimum_deposit=row.minimum_deposit,
        maximum_deposit=row.maximum_deposit,
        daily_deposit_limit=row.daily_deposit_limit,
        minimum_withdrawal=row.minimum_withdrawal,
        maximum_withdrawal=row.maximum_withdrawal,
    )


def check_idempotency_key(key: object) -> str:
    """Keys from clients: 1–100 characters of letters, digits and ``. _ : -`` (a UUID fits)."""
    if not isinstance(key, str) or not _KEY_PATTERN.match(key):
        raise InvalidTransfer(
            "An idempotency key of 1 to 100 letters, digits, '.', '_', ':' or '-' is required (a UUID will do)."
        )
    return key


def _utc_day_start(moment: datetime) -> datetime:
    return datetime.combine(moment.astimezone(UTC).date(), time.min, tzinfo=UTC)


def _deposits_of(
    user: User, currency: str, status: str, since: datetime | None = None, until: datetime | None = None
) -> int:
    deposits = CashierTransaction.objects.filter(
        player=user, direction=CashierDirection.DEPOSIT, currency=currency, status=status
    )
    if since is not None:
        deposits = deposits.filter(created_at__gte=since)
    if until is not None:
        deposits = deposits.filter(created_at__lt=until)
    return int(deposits.aggregate(total=Sum("amount"))["total"] or 0)


def deposited_today(user: User, currency: str = DEFAULT_CURRENCY, now: datetime | None = None) -> int:
    """Cents the player deposited (completed deposits) since 00:00 UTC today."""
    start = _utc_day_start(now or timezone.now())
    return _deposits_of(user, currency, CashierStatus.COMPLETED, start, start + timedelta(days=1))


def deposits_awaiting_provider(
    user: User, currency: str = DEFAULT_CURRENCY, since: datetime | None = None, until: datetime | None = None
) -> int:
    """Cents of the player's pending deposits (reserved, the provider's answer not yet booked), made in
    [``since``, ``until``) when given. They count towards the deposit limits like completed ones."""
    return _deposits_of(user, currency, CashierStatus.PENDING, since, until)


def check_deposit_limits(user: User, amount: int, currency: str = DEFAULT_CURRENCY) -> None:
    """Raise ``CashierLimitExceeded`` if a deposit of ``amount`` cents is outside the limits now, or
    ``DepositRefused`` when a registered deposit check objects (:mod:`wallet.services.deposit_checks`).

    Pending deposits count as made: the daily limit adds today's, and every registered check counts those of its
    own window (see :mod:`wallet.services.deposit_checks`); each is asked about ``amount`` alone. Call it under the
    player's cashier lock (``_lock_cashier_of``), or two deposits can both pass a limit."""
    limits = cashier_limits()
    if amount < limits.minimum_deposit:
        raise CashierLimitExceeded(
            gettext("The minimum deposit is %(amount)s.") % {"amount": format_money(limits.minimum_deposit, currency)}
        )
    if amount > limits.maximum_deposit:
        raise CashierLimitExceeded(
            gettext("The maximum deposit is %(amount)s.") % {"amount": format_money(limits.maximum_deposit, currency)}
        )
    now = timezone.now()
    day_start = _utc_day_start(now)
    deposited = deposited_today(user, currency, now)
    awaiting_today = deposits_awaiting_provider(user, currency, day_start, day_start + timedelta(days=1))
    already = deposited + awaiting_today
    if already + amount > limits.daily_deposit_limit:
        room = max(0, limits.daily_deposit_limit - already)
        words = {
            "limit": format_money(limits.daily_deposit_limit, currency),
            "deposited": format_money(deposited, currency),
            "awaiting": format_money(awaiting_today, currency),
            "room": format_money(room, currency),
        }
        if awaiting_today:
            raise CashierLimitExceeded(
                gettext(
                    "The daily deposit limit is %(limit)s; you have deposited %(deposited)s today (UTC) and "
                    "%(awaiting)s awaits the payment provider, so at most %(room)s more."
                )
                % words
            )
        raise CashierLimitExceeded(
            gettext(
                "The daily deposit limit is %(limit)s; you have deposited %(deposited)s today (UTC), so at most "
                "%(room)s more."
            )
            % words
        )
    # The registered checks (e.g. the player's own daily, weekly and monthly limits: responsible gaming) are asked
    # about this deposit alone: each counts the deposits already made in its window itself, pending ones included.
    deposit_checks_pass(user, amount, currency, now)


def cashier_status_label(cashier_transaction: CashierTransaction) -> str:
    """The status of a deposit or withdrawal in words, by its kind: a pending deposit is "waiting for the payment
    provider" (reserved, the provider's charge not yet confirmed and credited), a pending withdrawal "pending payout"
    (the money reserved, the provider's payout not yet booked); otherwise the status's own label. Translated into
    the active language. The one source of the words: the player's cashier page, the cashier API's ``status_label``
    and the back office all show this."""
    if (
        cashier_transaction.direction == CashierDirection.DEPOSIT
        and cashier_transaction.status == CashierStatus.PENDING
    ):
        return gettext("waiting for the payment provider")
    return str(CashierStatus(cashier_transaction.status).label)


def check_withdrawal_limits(amount: int, currency: str = DEFAULT_CURRENCY) -> None:
    limits = cashier_limits()
    if amount < limits.minimum_withdrawal:
        raise CashierLimitExceeded(
            gettext("The minimum withdrawal is %(amount)s.")
            % {"amount": format_money(limits.minimum_withdrawal, currency)}
        )
    if amount > limits.maximum_withdrawal:
        raise CashierLimitExceeded(
            gettext("The maximum withdrawal is %(amount)s.")
            % {"amount": format_money(limits.maximum_withdrawal, currency)}
        )


def _lock_cashier_of(user: User) -> None:
    """Serialise one player's cashier operations (limits, same-key retries) until the transaction ends.

    Every change of a player's deposits takes it (reserve, complete, release, ``deposit_create``): the limit checks
    sum completed and pending deposits in separate statements, so a deposit completed or released between them would
    be missed or counted twice.

    An advisory lock rather than a row lock: the ledger locks accounts in primary-key order, and holding the cash
    account while it takes the outside-world account could deadlock against that order.
    """
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_CASHIER_LOCK_CLASS, user.pk])


def _existing(user: User, direction: str, key: str) -> CashierTransaction | None:
    return CashierTransaction.objects.filter(player=user, direction=direction, idempotency_key=key).first()


def _same_request_or_conflict(existing: CashierTransaction, amount: int, currency: str, key: str) -> None:
    if existing.amount != amount or existing.currency != currency:
        words = {"key": repr(key), "pk": existing.pk, "amount": format_money(existing.amount, existing.currency)}
        if existing.direction == CashierDirection.DEPOSIT:
            message = gettext(
                "The idempotency key %(key)s was already used for deposit #%(pk)s of %(amount)s; use a new key for a "
                "new deposit."
            )
        else:
            message = gettext(
                "The idempotency key %(key)s was already used for withdrawal #%(pk)s of %(amount)s; use a new key "
                "for a new withdrawal."
            )
        raise IdempotencyConflict(message % words)


def _credit_reserved_deposit(
    user: User, reservation: CashierTransaction, provider_reference: str
) -> CashierTransaction:
    """Book a pending deposit the provider confirmed: outside world → the player's cash, and complete it. The limits
    are not checked again: the reservation already holds its share of them, and the money has been taken. Call it in
    a transaction holding the reservation's row lock."""
    if not isinstance(provider_reference, str) or not provider_reference.strip():
        raise PaymentProviderError("A deposit needs the payment provider's reference.")
    amount, currency, provider_name = reservation.amount, reservation.currency, reservation.provider
    transfer = transfer_create(
        kind=TransferKind.DEPOSIT,
        legs=[
            TransferLeg(system_account(AccountKind.OUTSIDE_WORLD, currency), -amount),
            TransferLeg(player_cash_account(user, currency), amount),
        ],
        idempotency_key=f"deposit:{user.pk}:{reservation.idempotency_key}",
        reference=f"deposit:{provider_name}:{provider_reference}",
        description=f"Deposit via {provider_name}",
        created_by=user,
    )
    reservation.status = CashierStatus.COMPLETED
    reservation.provider_reference = provider_reference
    reservation.completed_at = timezone.now()
    reservation.transfer = transfer
    reservation.save(update_fields=["status", "provider_reference", "completed_at", "transfer"])
    audit_record(
        action="deposit",
        actor=user,
        player=user,
        transfer=transfer,
        details={
            "amount": amount,
            "currency": currency,
            "provider": provider_name,
            "provider_reference": provider_reference,
            "cashier_transaction": reservation.pk,
        },
    )
    return reservation


@transaction.atomic(durable=True)
def deposit_create(
    user: User,
    amount: int,
    provider_reference: str,
    idempotency_key: str,
    *,
    provider_name: str = "sandbox",
    currency: str = DEFAULT_CURRENCY,
) -> CashierTransaction:
    """Credit a deposit the provider has confirmed: outside world → the player's cash account.

    Idempotent per (player, key): a repeat with the same amount returns the first deposit; a different amount raises
    ``IdempotencyConflict``. Enforces the per-transaction and daily limits (``CashierLimitExceeded``), counting
    pending deposits. A pending deposit of the same key (reserved by ``deposit_through_provider``) is credited without
    checking the limits again: it holds its share of them already.
    """
    amount = check_positive_amount(amount, what="deposit amount")
    key = check_idempotency_key(idempotency_key)
    currency = check_currency(currency)
    if not isinstance(provider_reference, str) or not provider_reference.strip():
        raise PaymentProviderError("A deposit needs the payment provider's reference.")
    _lock_cashier_of(user)
    existing = _existing(user, CashierDirection.DEPOSIT, key)
    if existing is not None:
        _same_request_or_conflict(existing, amount, currency, key)
        if existing.status == CashierStatus.PENDING:
            locked = CashierTransaction.objects.select_for_update().get(pk=existing.pk)
            if locked.status == CashierStatus.PENDING:
                return _credit_reserved_deposit(user, locked, provider_reference)
            existing = locked
        if existing.provider_reference != provider_reference:
            raise IdempotencyConflict(f"The idempotency key {key!r} was already used for another payment.")
        return existing
    check_deposit_limits(user, amount, currency)
    reservation = CashierTransaction.objects.create(
        player=user,
        direction=CashierDirection.DEPOSIT,
        amount=amount,
        currency=currency,
        status=CashierStatus.PENDING,
        provider=provider_name,
        idempotency_key=key,
    )
    return _credit_reserved_deposit(user, reservation, provider_reference)


@transaction.atomic(durable=True)
def deposit_reserve(
    user: User,
    amount: int,
    idempotency_key: str,
    *,
    provider_name: str = "sandbox",
    currency: str = DEFAULT_CURRENCY,
) -> CashierTransaction:
    """Reserve a deposit before the provider is asked to charge: under the player's cashier lock, check the limits
    (``CashierLimitExceeded``, ``DepositRefused``) and record a pending deposit, which counts towards every limit from
    the commit on. Committed on return (durable), so no other deposit of the player can pass a limit it fills.

    Idempotent per (player, key): the deposit of an existing key is returned as it is (pending or completed) if the
    amount and currency are the same, else ``IdempotencyConflict``; the limits are not checked again for it.
    """
    amount = check_positive_amount(amount, what="deposit amount")
    key = check_idempotency_key(idempotency_key)
    currency = check_currency(currency)
    _lock_cashier_of(user)
    existing = _existing(user, CashierDirection.DEPOSIT, key)
    if existing is not None:
        _same_request_or_conflict(existing, amount, currency, key)
        return existing
    check_deposit_limits(user, amount, currency)
    return CashierTransaction.objects.create(
        player=user,
        direction=CashierDirection.DEPOSIT,
        amount=amount,
        currency=currency,
        status=CashierStatus.PENDING,
        provider=provider_name,
        idempotency_key=key,
    )


@transaction.atomic(durable=True)
def deposit_complete(user: User, reservation: CashierTransaction, provider_reference: str) -> CashierTransaction:
    """The provider charged a reserved deposit: credit it (outside world → the player's cash) and complete it.
    A deposit already completed (e.g. by a simultaneous retry with the same key) is returned unchanged."""
    _lock_cashier_of(user)
    locked = CashierTransaction.objects.select_for_update().filter(pk=reservation.pk, player=user).first()
    if locked is None:
        # Released meanwhile (staff settled it as not charged: ``pending_deposit_settle``), yet the provider charged
        # it: the money was taken, so it is credited all the same, under its key (the ledger's idempotency key keeps
        # it to one credit), without checking the limits again.
        locked = _existing(user, CashierDirection.DEPOSIT, reservation.idempotency_key)
        if locked is None:
            locked = CashierTransaction.objects.create(
                player=user,
                direction=CashierDirection.DEPOSIT,
                amount=reservation.amount,
                currency=reservation.currency,
                status=CashierStatus.PENDING,
                provider=reservation.provider,
                idempotency_key=reservation.idempotency_key,
                created_at=reservation.created_at,
            )
        locked = CashierTransaction.objects.select_for_update().get(pk=locked.pk)
    if locked.status != CashierStatus.PENDING:
        return locked
    return _credit_reserved_deposit(user, locked, provider_reference)


@transaction.atomic(durable=True)
def deposit_release(user: User, reservation: CashierTransaction) -> CashierTransaction | None:
    """The provider declined a reserved deposit: delete the reservation, giving its share of the limits back (a
    declined deposit leaves no cashier transaction, so a retry with the same key asks the provider again). Returns
    ``None``, or the deposit if a simultaneous retry with the same key has completed it meanwhile."""
    _lock_cashier_of(user)
    locked = CashierTransaction.objects.select_for_update().filter(pk=reservation.pk, player=user).first()
    if locked is None:
        return None  # released already, by a simultaneous retry with the same key
    if locked.status != CashierStatus.PENDING:
        return locked
    locked.delete()
    return None


PENDING_DEPOSIT_SETTLE_AFTER = timedelta(minutes=15)
"""Staff settle a pending deposit only once it is this old: a younger one's request to the provider may still be
running, and it finishes the deposit itself."""


def pending_deposit_to_settle(pk: int, *, now: datetime | None = None) -> CashierTransaction:
    """The pending deposit ``pk`` staff may settle (``InvalidTransfer`` otherwise, saying why): a deposit, pending
    (reserved, the provider's answer never booked), reserved at least :data:`PENDING_DEPOSIT_SETTLE_AFTER` ago."""
    row = CashierTransaction.objects.select_related("player").filter(pk=pk).first()
    if row is None:
        raise InvalidTransfer(f"There is no cashier transaction #{pk} (a released deposit leaves none).")
    if row.direction != CashierDirection.DEPOSIT:
        raise InvalidTransfer(f"Cashier transaction #{pk} is a withdrawal, not a deposit.")
    if row.status != CashierStatus.PENDING:
        raise InvalidTransfer(f"Deposit #{pk} is already {row.get_status_display()}: there is nothing to settle.")
    moment = now or timezone.now()
    if row.created_at > moment - PENDING_DEPOSIT_SETTLE_AFTER:
        minutes = int(PENDING_DEPOSIT_SETTLE_AFTER.total_seconds() // 60)
        raise InvalidTransfer(
            f"Deposit #{pk} was reserved less than {minutes} minutes ago: its request to the payment provider may "
            "still be running and finish it. Settle it later if it is still pending."
        )
    return row


def check_settlement_reference(deposit: CashierTransaction, provider_reference: object) -> str:
    """The provider's reference of a charge staff found for ``deposit``: required, at most 200 characters, and not
    already the reference of another of the provider's deposits (``InvalidTransfer``)."""
    if not isinstance(provider_reference, str) or not provider_reference.strip():
        raise InvalidTransfer("Give the payment provider's reference of the charge.")
    reference = provider_reference.strip()
    if len(reference) > 200:
        raise InvalidTransfer("A provider reference is at most 200 characters.")
    other = (
        CashierTransaction.objects.filter(
            direction=CashierDirection.DEPOSIT, provider=deposit.provider, provider_reference=reference
        )
        .exclude(pk=deposit.pk)
        .first()
    )
    if other is not None:
        raise InvalidTransfer(f"The reference {reference!r} is already that of deposit #{other.pk}.")
    return reference


@transaction.atomic
def pending_deposit_settle(
    pk: int,
    *,
    charged: bool,
    provider_reference: str,
    actor: User | None,
    reason: str,
    details: dict[str, Any] | None = None,
) -> CashierTransaction | None:
    """Settle a pending deposit that no retry finished, once staff have checked with the payment provider:
    ``charged`` — the provider took the money (its ``provider_reference``): credit it as the player's own retry would,
    outside world → the player's cash under the same idempotency key ``deposit:<player>:<key>``, and complete it;
    else — the provider did not: delete the reservation, giving its share of the limits back (as a decline does; a
    later retry with the same key asks the provider again, and a charge it then confirms is credited).

    Under the player's cashier lock and the row's lock; refused (``InvalidTransfer``) as
    :func:`pending_deposit_to_settle` says, and without a reason (``ReasonRequired``). Audited
    (``pending_deposit_credited`` / ``pending_deposit_released``, ``details`` added to the entry). Returns the completed
    deposit, or ``None`` once released. Runs in the caller's transaction when there is one (a rule change approval:
    :mod:`wallet.deposit_changes`, which also checks the staff members' permissions)."""
    reason = require_reason(reason, "settle a pending deposit")
    row = pending_deposit_to_settle(pk)
    user = row.player
    _lock_cashier_of(user)
    locked = pending_deposit_to_settle(pk)  # again under the lock: a retry may have finished it meanwhile
    locked = CashierTransaction.objects.select_for_update().get(pk=locked.pk)
    if locked.status != CashierStatus.PENDING:
        raise InvalidTransfer(f"Deposit #{pk} is already {locked.get_status_display()}: there is nothing to settle.")
    facts = {
        "cashier_transaction": locked.pk,
        "amount": locked.amount,
        "currency": locked.currency,
        "provider": locked.provider,
        "idempotency_key": locked.idempotency_key,
        "reserved_at": locked.created_at.isoformat(),
        **(details or {}),
    }
    if charged:
        reference = check_settlement_reference(locked, provider_reference)
        completed = _credit_reserved_deposit(user, locked, reference)
        audit_record(
            action="pending_deposit_credited",
            actor=actor,
            player=user,
            transfer=completed.transfer,
            reason=reason,
            details={**facts, "provider_reference": reference},
            target=audit_target(completed),
            before={"status": CashierStatus.PENDING},
            after={"status": completed.status},
        )
        return completed
    target = audit_target(locked)
    locked.delete()
    audit_record(
        action="pending_deposit_released",
        actor=actor,
        player=user,
        reason=reason,
        details=facts,
        target=target,
        before={"status": CashierStatus.PENDING},
        after={"status": "released"},
    )
    return None


def deposit_through_provider(
    user: User,
    amount: int,
    idempotency_key: str,
    *,
    provider: PaymentProvider | None = None,
    currency: str = DEFAULT_CURRENCY,
) -> CashierTransaction:
    """The whole deposit: reserve it within the limits (committed), have the provider charge it (no transaction
    open), then credit it, or release the reservation if the provider declines (``PaymentProviderError``).

    Refusals by the limits (``CashierLimitExceeded``, ``DepositRefused``) come before the provider is asked, so
    every deposit the provider charges is credited. A retry with the same key returns a completed deposit without
    asking the provider again; a pending one (its request still running, or cut off by a provider error) is asked
    for again with the same key, which a provider must answer without charging twice, and then finished. An
    exception from the provider leaves the reservation pending, counting towards the limits, for that retry.
    """
    amount = check_positive_amount(amount, what="deposit amount")
    key = check_idempotency_key(idempotency_key)
    currency = check_currency(currency)
    provider = provider or default_payment_provider()
    reservation = deposit_reserve(user, amount, key, provider_name=provider.name, currency=currency)
    if reservation.status != CashierStatus.PENDING:
        return reservation
    session = provider.start_deposit(player=user, amount=amount, currency=currency, idempotency_key=key)
    result = provider.confirm_deposit(session)
    if not result.succeeded:
        completed = deposit_release(user, reservation)
        if completed is not None:
            return completed
        raise PaymentProviderError(result.failure_reason or "The payment provider declined the deposit.")
    return deposit_complete(user, reservation, result.provider_reference)


@transaction.atomic(durable=True)
def withdrawal_request(
    user: User,
    amount: int,
    idempotency_key: str,
    *,
    provider_name: str = "sandbox",
    currency: str = DEFAULT_CURRENCY,
) -> CashierTransaction:
    """Reserve a withdrawal: the player's cash → pending withdrawals, recorded as a pending cashier transaction.

    Only the cash balance can be withdrawn (``InsufficientFunds`` says how much is at tables); a registered withdrawal
    check may refuse it (``WithdrawalRefused``, :mod:`wallet.services.withdrawal_checks`). Idempotent per
    (player, key) like ``deposit_create``.
    """
    amount = check_positive_amount(amount, what="withdrawal amount")
    key = check_idempotency_key(idempotency_key)
    currency = check_currency(currency)
    _lock_cashier_of(user)
    existing = _existing(user, CashierDirection.WITHDRAWAL, key)
    if existing is not None:
        _same_request_or_conflict(existing, amount, currency, key)
        return existing
    withdrawal_checks_pass(user)  # e.g. an account under review may not withdraw (compliance)
    check_withdrawal_limits(amount, currency)
    cash = player_cash_account(user, currency)
    try:
        transfer = transfer_create(
            kind=TransferKind.WITHDRAWAL,
            legs=[
                TransferLeg(cash, -amount),
                TransferLeg(system_account(AccountKind.PENDING_WITHDRAWALS, currency), amount),
            ],
            idempotency_key=f"withdrawal:{user.pk}:{key}",
            reference=f"withdrawal:{user.pk}:{key}",
            description=f"Withdrawal via {provider_name}",
            created_by=user,
        )
    except InsufficientFunds as error:
        cash.refresh_from_db(fields=["balance"])
        at_tables = money_at_tables(user, currency)
        message = gettext("You can withdraw at most your cash balance of %(balance)s; this is %(shortfall)s more.") % {
            "balance": format_money(cash.balance, currency),
            "shortfall": format_money(error.shortfall_cents, currency),
        }
        if at_tables:
            message += " " + gettext("%(amount)s is at tables: leave the table to cash it out first.") % {
                "amount": format_money(at_tables, currency)
            }
        raise InsufficientFunds(cash, error.shortfall_cents, message) from None
    withdrawal = CashierTransaction.objects.create(
        player=user,
        direction=CashierDirection.WITHDRAWAL,
        amount=amount,
        currency=currency,
        status=CashierStatus.PENDING,
        provider=provider_name,
        idempotency_key=key,
        transfer=transfer,
    )
    audit_record(
        action="withdrawal_requested",
        actor=user,
        player=user,
        transfer=transfer,
        details={"amount": amount, "currency": currency, "cashier_transaction": withdrawal.pk},
    )
    return withdrawal


def _settle_withdrawal(
    withdrawal: CashierTransaction, *, paid: bool, provider_reference: str, reason: str, actor: User | None
) -> CashierTransaction:
    locked = CashierTransaction.objects.select_for_update().get(pk=withdrawal.pk)
    if locked.direction != CashierDirection.WITHDRAWAL:
        raise InvalidTransfer(f"Cashier transaction #{locked.pk} is not a withdrawal.")
    if locked.status != CashierStatus.PENDING:
        return locked
    pending = system_account(AccountKind.PENDING_WITHDRAWALS, locked.currency)
    if paid:
        destination = system_account(AccountKind.OUTSIDE_WORLD, locked.currency)
        kind, status, action = TransferKind.WITHDRAWAL_PAYOUT, CashierStatus.COMPLETED, "withdrawal_paid"
    else:
        destination = player_cash_account(locked.player, locked.currency)
        kind, status, action = TransferKind.WITHDRAWAL_RETURNED, CashierStatus.FAILED, "withdrawal_returned"
    transfer = transfer_create(
        kind=kind,
        legs=[TransferLeg(pending, -locked.amount), TransferLeg(destination, locked.amount)],
        idempotency_key=f"{kind}:{locked.pk}",
        reference=f"withdrawal:{locked.pk}",
        description=reason,
        created_by=actor,
    )
    locked.status = status
    locked.completed_at = timezone.now()
    locked.settlement_transfer = transfer
    locked.provider_reference = provider_reference or locked.provider_reference
    locked.failure_reason = "" if paid else reason
    locked.save(update_fields=["status", "completed_at", "settlement_transfer", "provider_reference", "failure_reason"])
    audit_record(
        action=action,
        actor=actor,
        player=locked.player,
        transfer=transfer,
        reason=reason,
        details={"cashier_transaction": locked.pk, "provider_reference": provider_reference},
    )
    return locked


@transaction.atomic(durable=True)
def withdrawal_complete(
    withdrawal: CashierTransaction, *, provider_reference: str, actor: User | None = None
) -> CashierTransaction:
    """The provider paid: pending withdrawals → outside world. A decided withdrawal is returned unchanged."""
    return _settle_withdrawal(
        withdrawal,
        paid=True,
        provider_reference=provider_reference,
        reason="Paid out by the payment provider",
        actor=actor,
    )


@transaction.atomic(durable=True)
def withdrawal_fail(withdrawal: CashierTransaction, *, reason: str, actor: User | None = None) -> CashierTransaction:
    """The payout failed: the money goes back to the player's cash. A decided withdrawal is returned unchanged."""
    return _settle_withdrawal(
        withdrawal, paid=False, provider_reference="", reason=reason or "The payout failed", actor=actor
    )


def withdrawal_create(
    user: User,
    amount: int,
    idempotency_key: str,
    *,
    provider: PaymentProvider | None = None,
    currency: str = DEFAULT_CURRENCY,
) -> CashierTransaction:
    """The whole withdrawal: reserve (durable), pay through the provider (no transaction open), then book the
    payout or return the money (durable). A retry with the same key finishes a pending one or returns it as is."""
    provider = provider or default_payment_provider()
    withdrawal = withdrawal_request(user, amount, idempotency_key, provider_name=provider.name, currency=currency)
    if withdrawal.status != CashierStatus.PENDING:
        return withdrawal
    result = provider.payout(
        player=user, amount=withdrawal.amount, currency=withdrawal.currency, reference=f"withdrawal:{withdrawal.pk}"
    )
    if result.succeeded:
        return withdrawal_complete(withdrawal, provider_reference=result.provider_reference)
    return withdrawal_fail(withdrawal, reason=result.failure_reason or "The payment provider refused the payout.")
