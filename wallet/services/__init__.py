"""The wallet's public services. Import from here: ``from wallet.services import transfer_create, TransferLeg``.

Sign convention for every leg: positive amount credits the account (balance up), negative debits it (balance down).
"""

from wallet.services.accounts import (
    balance_of,
    check_currency,
    money_at_tables,
    player_cash_account,
    reference_account,
    system_account,
    withheld_account,
    withheld_total,
)
from wallet.services.ledger import (
    MAX_AMOUNT_CENTS,
    TransferKind,
    TransferLeg,
    check_amount,
    check_positive_amount,
    transfer_create,
    transfer_reverse,
)

# ``Leg`` is the input type's short name for callers who prefer it; the model of the same name is wallet.models.Leg.
Leg = TransferLeg
LegSpec = TransferLeg

__all__ = [
    "MAX_AMOUNT_CENTS",
    "Leg",
    "LegSpec",
    "TransferKind",
    "TransferLeg",
    "balance_of",
    "check_amount",
    "check_currency",
    "check_positive_amount",
    "money_at_tables",
    "player_cash_account",
    "reference_account",
    "system_account",
    "transfer_create",
    "transfer_reverse",
    "withheld_account",
    "withheld_total",
]
