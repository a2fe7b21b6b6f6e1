"""Simultaneous deposits near a deposit limit: the limit is reserved before the payment provider is asked to charge,
so the requests past the limit are refused before any charge, and every deposit the provider charged is credited.

Requirement IDs: none. The requirements catalog (``../shared/spec/REQUIREMENTS.md``, version 2.7) has no requirement
on deposit limits (``grep -i "deposit limit"`` finds nothing; FRD-03 only says deposit data is kept against fraud).
The limits checked here are the product's own: the cashier's daily deposit limit (``CashierLimits``, per UTC day) and
the player's responsible-gaming daily limit (README, "Responsible gaming": rolling 24 hours).

The bug this guards against (found by a QA attack): the limits were checked without the player's cashier lock, the
provider charged, then the credit re-checked the limits under the lock and refused; of 10 simultaneous deposits near
the limit 7 were charged and 1 credited, the player's money lost outside the ledger.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from poker_site.accounts.models import User
from poker_site.responsible_gaming.services import deposit_limit_set
from tests.wallet.concurrency import run_simultaneously
from wallet.errors import CashierLimitExceeded, DepositRefused
from wallet.models import CashierDirection, CashierLimits, CashierStatus, CashierTransaction
from wallet.services import balance_of, deposit_create, deposit_through_provider, ledger_reconcile, player_cash_account
from wallet.services.providers import DepositSession, ProviderResult

pytestmark = pytest.mark.django_db(transaction=True)

SIMULTANEOUS_DEPOSITS = 8
DEPOSIT_CENTS = 2_000
LIMIT_CENTS = 10_000
ALREADY_DEPOSITED_CENTS = 6_000  # room left for exactly two more deposits of €20.00


@dataclass
class CountingProvider:
    """A fake payment provider that counts the deposits it charged, once per idempotency key (as a real provider
    must), and takes a moment to confirm so that simultaneous requests overlap."""

    name: str = "counting"
    confirm_seconds: float = 0.05
    charged_keys: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start_deposit(self, *, player: User, amount: int, currency: str, idempotency_key: str) -> DepositSession:
        return DepositSession(provider_reference=f"counting-{idempotency_key}", amount=amount, currency=currency)

    def confirm_deposit(self, session: DepositSession) -> ProviderResult:
        time.sleep(self.confirm_seconds)
        with self._lock:
            if session.provider_reference not in self.charged_keys:
                self.charged_keys.append(session.provider_reference)
        return ProviderResult(session.provider_reference, succeeded=True)

    def payout(self, *, player: User, amount: int, currency: str, reference: str) -> ProviderResult:
        raise AssertionError("no payout is asked for in these tests")


def _deposit_simultaneously(player: User, provider: CountingProvider) -> list[CashierTransaction | BaseException]:
    def deposit(number: int) -> Callable[[], CashierTransaction]:
        return lambda: deposit_through_provider(player, DEPOSIT_CENTS, f"near-limit-{number}", provider=provider)

    return run_simultaneously([deposit(number) for number in range(SIMULTANEOUS_DEPOSITS)])


def _assert_charged_equals_credited(
    player: User, provider: CountingProvider, results: list[CashierTransaction | BaseException], refusal: type
) -> None:
    credited = [result for result in results if isinstance(result, CashierTransaction)]
    refused = [result for result in results if isinstance(result, refusal)]
    unexpected = [result for result in results if not isinstance(result, (CashierTransaction, refusal))]
    assert not unexpected, unexpected
    completed_references = set(
        CashierTransaction.objects.filter(
            player=player, direction=CashierDirection.DEPOSIT, status=CashierStatus.COMPLETED, provider=provider.name
        ).values_list("provider_reference", flat=True)
    )
    # Every deposit the provider charged reached the wallet, and nothing was credited without a charge.
    assert len(provider.charged_keys) == len(credited) == len(completed_references)
    assert set(provider.charged_keys) == completed_references
    # The limit held: exactly the room that was left was used, the rest refused before any charge.
    assert len(credited) == (LIMIT_CENTS - ALREADY_DEPOSITED_CENTS) // DEPOSIT_CENTS
    assert len(refused) == SIMULTANEOUS_DEPOSITS - len(credited)
    assert ALREADY_DEPOSITED_CENTS + DEPOSIT_CENTS * len(credited) <= LIMIT_CENTS
    assert balance_of(player_cash_account(player)) == ALREADY_DEPOSITED_CENTS + DEPOSIT_CENTS * len(credited)
    assert not CashierTransaction.objects.filter(player=player, status=CashierStatus.PENDING).exists()
    assert ledger_reconcile() == []


def test_simultaneous_deposits_near_the_cashier_daily_limit_are_refused_before_the_provider_charges(
    make_player: Callable[..., User],
) -> None:
    CashierLimits.objects.create(
        minimum_deposit=1_000,
        maximum_deposit=5_000,
        daily_deposit_limit=LIMIT_CENTS,
        minimum_withdrawal=1_000,
        maximum_withdrawal=5_000,
    )
    player = make_player("racer")
    deposit_create(player, 5_000, "earlier-1", "earlier-1")
    deposit_create(player, 1_000, "earlier-2", "earlier-2")
    provider = CountingProvider()

    results = _deposit_simultaneously(player, provider)

    _assert_charged_equals_credited(player, provider, results, CashierLimitExceeded)


def test_simultaneous_deposits_near_the_players_own_daily_limit_are_refused_before_the_provider_charges(
    make_player: Callable[..., User],
) -> None:
    player = make_player("careful-racer")
    deposit_limit_set(player, "day", LIMIT_CENTS)
    deposit_create(player, ALREADY_DEPOSITED_CENTS, "earlier", "earlier")
    provider = CountingProvider()

    results = _deposit_simultaneously(player, provider)

    _assert_charged_equals_credited(player, provider, results, DepositRefused)
