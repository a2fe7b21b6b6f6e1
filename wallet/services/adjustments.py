"""Staff adjustments: a reasoned manual correction of one account against the house (GEN-01 fairness override)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from wallet.errors import InvalidTransfer, UnknownAccount
from wallet.models import Account, AccountKind, StaffAdjustment
from wallet.services.accounts import system_account
from wallet.services.audit import audit_record
from wallet.services.cashier import check_idempotency_key
from wallet.services.ledger import TransferKind, TransferLeg, check_amount, transfer_create
from wallet.services.permissions import ADJUST_BALANCE, require_permission, require_reason

if TYPE_CHECKING:
    from poker_site.accounts.models import User

GAME_KEPT_ACCOUNTS = frozenset(
    {
        AccountKind.TABLE_SESSION,
        AccountKind.UTH_BETS_IN_PLAY,
        AccountKind.TOURNAMENT_PRIZE_POOL,
        AccountKind.BOUNTY_POOL,
        AccountKind.UNRESOLVED_GAME,
        AccountKind.WITHHELD,
    }
)
"""Accounts whose balance a game or review service keeps under its own locks (a player's chips at a table, bets in
play, prize pools, parked or withheld funds). An adjustment there would change a stack behind the table's back (a
hand's settlement could then no longer be booked); staff adjust the player's cash account, or use the service's own
flow (cancel the hand, resolve the case, decide the hold)."""


@transaction.atomic(durable=True)
def staff_adjustment_create(
    staff_user: User, account: Account, amount: int, reason: str, idempotency_key: str
) -> StaffAdjustment:
    """Credit (positive ``amount``) or debit (negative) ``account`` against the house adjustments account.

    Needs ``wallet.adjust_balance`` and a written reason; records who, when and why (``StaffAdjustment`` and an
    audit entry). A debit cannot take a player below zero (``InsufficientFunds``). The same key returns the same
    adjustment.
    """
    require_permission(staff_user, ADJUST_BALANCE, "adjust balances")
    reason = require_reason(reason, "adjust a balance")
    amount = check_amount(amount, what="adjustment")
    key = check_idempotency_key(idempotency_key)
    if account.pk is None:
        raise UnknownAccount("The account to adjust is not saved.")
    if account.kind == AccountKind.HOUSE_ADJUSTMENTS:
        raise UnknownAccount("The house adjustments account is the other side of every adjustment.")
    if account.kind in GAME_KEPT_ACCOUNTS:
        raise InvalidTransfer(
            f"A {account.get_kind_display()} account is kept by its game: adjust the player's cash account instead "
            "(or cancel the hand, resolve the case or decide the hold)."
        )
    house = system_account(AccountKind.HOUSE_ADJUSTMENTS, account.currency)
    transfer = transfer_create(
        kind=TransferKind.STAFF_ADJUSTMENT,
        legs=[TransferLeg(account, amount), TransferLeg(house, -amount)],
        idempotency_key=f"adjustment:{key}",
        reference=f"account:{account.pk}",
        description=reason,
        created_by=staff_user,
    )
    existing = StaffAdjustment.objects.filter(transfer=transfer).first()
    if existing is not None:
        return existing
    adjustment = StaffAdjustment.objects.create(
        account=account, amount=amount, reason=reason, staff=staff_user, transfer=transfer
    )
    audit_record(
        action="staff_adjustment",
        actor=staff_user,
        player=account.owner,
        transfer=transfer,
        reason=reason,
        details={"adjustment": adjustment.pk, "account": account.pk, "amount": amount},
    )
    return adjustment
