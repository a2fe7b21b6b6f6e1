"""Errors the wallet raises. Every one is a ``WalletError`` whose message says what was refused and why.

Callers (views, APIs, table and UTH services) catch ``WalletError`` and show ``str(error)`` to the person who asked;
``code`` is a stable machine-readable name for JSON answers. Nothing is written when one of these is raised.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wallet.models import Account


def format_cents(cents: int, currency: str = "EUR") -> str:
    """``1234`` → ``"€12.34"``; ``-5`` → ``"-€0.05"``. Exact (integer arithmetic), for messages and pages: the
    back office's one display helper, :func:`poker_site.core.money.euros`."""
    from poker_site.core.money import euros

    return euros(cents, currency)


class WalletError(Exception):
    """Base class: a money movement was refused and nothing was written."""

    code = "wallet_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidAmount(WalletError):
    """An amount is not a usable number of cents (zero, wrong sign, not an int, fractional, too large, malformed)."""

    code = "invalid_amount"


class InsufficientFunds(WalletError):
    """An account that may not go negative would drop below zero. Names the account (never its internal number: the
    message may reach the player) and the shortfall."""

    code = "insufficient_funds"

    def __init__(self, account: Account, shortfall_cents: int, message: str | None = None) -> None:
        self.account_id = account.pk
        self.shortfall_cents = shortfall_cents
        super().__init__(
            message
            or f"Insufficient funds in {account.description}: {format_cents(shortfall_cents, account.currency)} short "
            f"(balance {format_cents(account.balance, account.currency)})."
        )


class UnbalancedTransfer(WalletError):
    """The legs of a transfer do not sum to zero, there are fewer than two, or an account appears twice."""

    code = "unbalanced_transfer"


class IdempotencyConflict(WalletError):
    """The idempotency key was already used for a transfer with different content."""

    code = "idempotency_conflict"


class UnknownAccount(WalletError):
    """An account is unsaved, does not exist, or is not the kind of account the operation needs."""

    code = "unknown_account"


class CurrencyMismatch(WalletError):
    """The legs of a transfer (or an amount and an account) are in different currencies."""

    code = "currency_mismatch"


class InvalidTransfer(WalletError):
    """A transfer's kind, idempotency key or reference is missing or malformed."""

    code = "invalid_transfer"


class CashierLimitExceeded(WalletError):
    """A deposit or withdrawal is outside the cashier's per-transaction or daily limits."""

    code = "cashier_limit_exceeded"


class HoldAlreadyDecided(WalletError):
    """A hold was already released or seized; a hold is decided exactly once."""

    code = "hold_already_decided"


class ProposalAlreadyDecided(WalletError):
    """An adjustment proposal was already approved or rejected: nothing more is booked."""

    code = "proposal_already_decided"


class ReasonRequired(WalletError):
    """A staff action (adjustment, hold decision) needs a written reason for the audit trail."""

    code = "reason_required"


class PaymentProviderError(WalletError):
    """The payment provider refused or failed a deposit or payout."""

    code = "payment_provider_error"


class NotPermitted(WalletError):
    """The staff member lacks the permission the action needs."""

    code = "not_permitted"


class WithdrawalRefused(WalletError):
    """The player may not withdraw now (an account under review, FRD-04); the message says why."""

    code = "withdrawal_refused"


class CaseAlreadyClosed(WalletError):
    """An unresolved-game case was already resolved or voided to charity."""

    code = "case_already_closed"


# --- responsible gaming


class DepositRefused(WalletError):
    """A registered deposit check refused the deposit (the player's own deposit limit, a self-exclusion)."""

    code = "deposit_refused"
