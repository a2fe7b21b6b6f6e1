"""The wallet's public services. Import from here: ``from wallet.services import transfer_create, TransferLeg``.

Sign convention for every leg: a positive amount credits the account (its balance goes up), a negative amount
debits it (its balance goes down); the legs of a transfer sum to zero. Amounts are plain ``int`` cents.

``TransferLeg`` is the input type (also exported as ``Leg`` and ``LegSpec``; the model ``wallet.models.Leg`` is
the stored row). Errors are ``wallet.errors.WalletError`` subclasses.
"""

from wallet.services.accounts import (
    balance_of,
    check_currency,
    money_at_tables,
    player_cash_account,
    player_cash_accounts_lock,
    player_cash_balance,
    reference_account,
    system_account,
    withheld_account,
    withheld_total,
)
from wallet.services.adjustments import adjustment_approve, adjustment_propose, adjustment_reject
from wallet.services.audit import audit_record
from wallet.services.cashier import (
    DEFAULT_LIMITS,
    Limits,
    cashier_limits,
    cashier_status_label,
    check_deposit_limits,
    check_idempotency_key,
    check_withdrawal_limits,
    deposit_complete,
    deposit_create,
    deposit_release,
    deposit_reserve,
    deposit_through_provider,
    deposited_today,
    deposits_awaiting_provider,
    pending_deposit_settle,
    withdrawal_complete,
    withdrawal_create,
    withdrawal_fail,
    withdrawal_request,
)
from wallet.services.holds import hold_create, hold_release, hold_seize, hold_table_money
from wallet.services.ledger import (
    MAX_AMOUNT_CENTS,
    TransferKind,
    TransferLeg,
    check_amount,
    check_positive_amount,
    transfer_create,
    transfer_reverse,
)
from wallet.services.money_input import parse_euros_to_cents
from wallet.services.providers import (
    DepositSession,
    PaymentProvider,
    ProviderResult,
    SandboxPaymentProvider,
    default_payment_provider,
)
from wallet.services.reconcile import ledger_reconcile, ledger_summary
from wallet.services.unresolved import (
    VOID_AFTER,
    unresolved_game_open,
    unresolved_game_settle,
    unresolved_game_void,
    unresolved_games_void_expired,
)

Leg = TransferLeg
LegSpec = TransferLeg

__all__ = [
    "DEFAULT_LIMITS",
    "MAX_AMOUNT_CENTS",
    "VOID_AFTER",
    "DepositSession",
    "Leg",
    "LegSpec",
    "Limits",
    "PaymentProvider",
    "ProviderResult",
    "SandboxPaymentProvider",
    "TransferKind",
    "TransferLeg",
    "adjustment_approve",
    "adjustment_propose",
    "adjustment_reject",
    "audit_record",
    "balance_of",
    "cashier_limits",
    "cashier_status_label",
    "check_amount",
    "check_currency",
    "check_deposit_limits",
    "check_idempotency_key",
    "check_positive_amount",
    "check_withdrawal_limits",
    "default_payment_provider",
    "deposit_complete",
    "deposit_create",
    "deposit_release",
    "deposit_reserve",
    "deposit_through_provider",
    "deposited_today",
    "deposits_awaiting_provider",
    "hold_create",
    "hold_release",
    "hold_seize",
    "hold_table_money",
    "ledger_reconcile",
    "ledger_summary",
    "money_at_tables",
    "parse_euros_to_cents",
    "pending_deposit_settle",
    "player_cash_account",
    "player_cash_accounts_lock",
    "player_cash_balance",
    "reference_account",
    "system_account",
    "transfer_create",
    "transfer_reverse",
    "unresolved_game_open",
    "unresolved_game_settle",
    "unresolved_game_void",
    "unresolved_games_void_expired",
    "withdrawal_complete",
    "withdrawal_create",
    "withdrawal_fail",
    "withdrawal_request",
    "withheld_account",
    "withheld_total",
]
