"""Issue 30: ``wallet_reconcile`` checks the withdrawals-awaiting-payout account against the pending withdrawals. It
passed while that account held €2.00 with no withdrawal pending (a booking by hand keeps the ledger balanced, so only
this check sees it); now it fails, naming the account and the difference."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from poker_site.accounts.models import User
from tests.wallet.conftest import new_key
from wallet.models import AccountKind
from wallet.services import (
    TransferLeg,
    ledger_reconcile,
    system_account,
    transfer_create,
    withdrawal_complete,
    withdrawal_request,
)


def _book_by_hand(cents: int) -> None:
    """What a one-person adjustment could do before issue 30: money from the outside world onto the account."""
    transfer_create(
        kind="staff_adjustment",
        legs=[
            TransferLeg(system_account(AccountKind.OUTSIDE_WORLD), -cents),
            TransferLeg(system_account(AccountKind.PENDING_WITHDRAWALS), cents),
        ],
        idempotency_key=new_key("by-hand"),
        reference="test-tampering",
    )


def test_the_account_holding_exactly_the_pending_withdrawals_reconciles(alice: User) -> None:
    withdrawal = withdrawal_request(alice, 30_00, "w-1")
    assert ledger_reconcile() == []
    withdrawal_complete(withdrawal, provider_reference="payout-1")
    assert ledger_reconcile() == []


def test_two_euros_with_no_withdrawal_pending_fail_the_command_naming_the_account(alice: User) -> None:
    _book_by_hand(2_00)
    pending = system_account(AccountKind.PENDING_WITHDRAWALS)
    errors = StringIO()

    with pytest.raises(CommandError, match="does not reconcile") as failed:
        call_command("wallet_reconcile", stderr=errors)

    assert failed.value.returncode == 1
    assert (
        f"withdrawals awaiting payout account #{pending.pk} holds €2.00 but the pending withdrawals total €0.00: "
        "€2.00 more than it must." in errors.getvalue()
    )


def test_a_pending_withdrawal_plus_money_booked_by_hand_fails(alice: User) -> None:
    withdrawal_request(alice, 30_00, "w-2")
    _book_by_hand(1)
    (problem,) = ledger_reconcile()
    assert "holds €30.01 but the pending withdrawals total €30.00: €0.01 more than it must." in problem
