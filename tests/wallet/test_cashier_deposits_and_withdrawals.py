"""The sandbox cashier: deposits and withdrawals within limits, idempotent, never paying out money at tables."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone

from poker_site.accounts.models import User
from tests.wallet.conftest import ledger_row_counts
from wallet.errors import CashierLimitExceeded, IdempotencyConflict, InsufficientFunds, PaymentProviderError
from wallet.models import AccountKind, AuditEntry, CashierLimits, CashierStatus, CashierTransaction
from wallet.services import (
    DEFAULT_LIMITS,
    SandboxPaymentProvider,
    TransferLeg,
    balance_of,
    cashier_limits,
    deposit_create,
    deposit_through_provider,
    ledger_reconcile,
    player_cash_account,
    reference_account,
    system_account,
    transfer_create,
    withdrawal_create,
    withdrawal_request,
)


@pytest.fixture
def carol(make_player: Callable[..., User]) -> User:
    return make_player("carol")


def test_a_sandbox_deposit_credits_the_cash_account_from_the_outside_world(carol: User) -> None:
    deposit = deposit_through_provider(carol, 2_500, "key-1")

    assert deposit.status == CashierStatus.COMPLETED
    assert deposit.provider == "sandbox"
    assert deposit.provider_reference.startswith("sandbox-deposit-")
    assert balance_of(player_cash_account(carol)) == 2_500
    assert balance_of(system_account(AccountKind.OUTSIDE_WORLD)) == -2_500
    assert AuditEntry.objects.filter(action="deposit", player=carol).count() == 1
    assert ledger_reconcile() == []


def test_a_repeated_deposit_key_credits_once_and_a_changed_amount_is_a_conflict(carol: User) -> None:
    first = deposit_through_provider(carol, 2_500, "key-1")
    assert deposit_through_provider(carol, 2_500, "key-1").pk == first.pk
    assert deposit_create(carol, 2_500, first.provider_reference, "key-1").pk == first.pk
    with pytest.raises(IdempotencyConflict):
        deposit_through_provider(carol, 3_000, "key-1")
    assert balance_of(player_cash_account(carol)) == 2_500


def test_deposits_outside_the_per_transaction_limits_are_refused(carol: User) -> None:
    before = ledger_row_counts()
    with pytest.raises(CashierLimitExceeded, match=r"minimum deposit is €10\.00"):
        deposit_through_provider(carol, DEFAULT_LIMITS.minimum_deposit - 1, "small")
    with pytest.raises(CashierLimitExceeded, match=r"maximum deposit is €5,000\.00"):
        deposit_through_provider(carol, DEFAULT_LIMITS.maximum_deposit + 1, "large")
    assert ledger_row_counts() == before


def test_the_daily_deposit_limit_counts_todays_deposits(carol: User) -> None:
    for number in range(2):
        deposit_through_provider(carol, DEFAULT_LIMITS.maximum_deposit, f"big-{number}")

    with pytest.raises(CashierLimitExceeded, match=r"daily deposit limit is €10,000\.00.*at most €0\.00 more"):
        deposit_through_provider(carol, 1_000, "one-more")

    assert balance_of(player_cash_account(carol)) == 2 * DEFAULT_LIMITS.maximum_deposit


def test_limits_are_back_office_data_with_an_effective_time(carol: User) -> None:
    CashierLimits.objects.create(
        effective_from=timezone.now() - timedelta(minutes=1),
        minimum_deposit=500,
        maximum_deposit=1_000,
        daily_deposit_limit=1_500,
        minimum_withdrawal=500,
        maximum_withdrawal=1_000,
    )
    CashierLimits.objects.create(
        effective_from=timezone.now() + timedelta(days=1),
        minimum_deposit=1,
        maximum_deposit=2,
        daily_deposit_limit=3,
        minimum_withdrawal=1,
        maximum_withdrawal=2,
    )
    assert cashier_limits().maximum_deposit == 1_000
    deposit_through_provider(carol, 600, "a")
    with pytest.raises(CashierLimitExceeded, match=r"maximum deposit is €10\.00"):
        deposit_through_provider(carol, 1_001, "b")


def test_a_declined_deposit_credits_nothing(carol: User) -> None:
    before = ledger_row_counts()
    with pytest.raises(PaymentProviderError, match="declined"):
        deposit_through_provider(
            carol, 6_666, "declined", provider=SandboxPaymentProvider(declined_amounts=frozenset({6_666}))
        )
    assert ledger_row_counts() == before
    assert not CashierTransaction.objects.exists()


def test_a_withdrawal_pays_out_through_pending_withdrawals(alice: User) -> None:
    withdrawal = withdrawal_create(alice, 4_000, "out-1")

    assert withdrawal.status == CashierStatus.COMPLETED
    assert withdrawal.settlement_transfer is not None
    assert balance_of(player_cash_account(alice)) == 6_000
    assert balance_of(system_account(AccountKind.PENDING_WITHDRAWALS)) == 0
    assert balance_of(system_account(AccountKind.OUTSIDE_WORLD)) == -10_000 + 4_000
    assert withdrawal_create(alice, 4_000, "out-1").pk == withdrawal.pk
    assert balance_of(player_cash_account(alice)) == 6_000
    assert ledger_reconcile() == []


def test_money_at_tables_cannot_be_withdrawn(alice: User) -> None:
    session = reference_account(AccountKind.TABLE_SESSION, "table-session:5", owner=alice)
    transfer_create(
        kind="cash_buy_in",
        legs=[TransferLeg(player_cash_account(alice), -7_000), TransferLeg(session, 7_000)],
        idempotency_key="buy-in",
        reference="table-session:5",
    )
    before = ledger_row_counts()

    with pytest.raises(InsufficientFunds) as refused:
        withdrawal_create(alice, 5_000, "out-2")

    message = str(refused.value)
    assert "at most your cash balance of €30.00" in message
    assert "€70.00 is at tables" in message
    assert ledger_row_counts() == before


def test_a_refused_payout_returns_the_money_to_the_player(alice: User) -> None:
    provider = SandboxPaymentProvider(declined_amounts=frozenset({1_234}))

    withdrawal = withdrawal_create(alice, 1_234, "out-3", provider=provider)

    assert withdrawal.status == CashierStatus.FAILED
    assert "refused" in withdrawal.failure_reason
    assert balance_of(player_cash_account(alice)) == 10_000
    assert balance_of(system_account(AccountKind.PENDING_WITHDRAWALS)) == 0
    assert AuditEntry.objects.filter(action="withdrawal_returned", player=alice).exists()
    assert ledger_reconcile() == []


def test_a_withdrawal_interrupted_before_payout_is_finished_by_the_retry(alice: User) -> None:
    pending = withdrawal_request(alice, 2_000, "out-4")
    assert pending.status == CashierStatus.PENDING
    assert balance_of(system_account(AccountKind.PENDING_WITHDRAWALS)) == 2_000

    finished = withdrawal_create(alice, 2_000, "out-4")

    assert finished.pk == pending.pk
    assert finished.status == CashierStatus.COMPLETED
    assert balance_of(player_cash_account(alice)) == 8_000


def test_withdrawal_limits_apply(alice: User) -> None:
    with pytest.raises(CashierLimitExceeded, match=r"minimum withdrawal is €10\.00"):
        withdrawal_create(alice, 999, "out-5")
