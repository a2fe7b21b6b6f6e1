"""A deposit whose payment provider raised instead of answering may have been charged: its reservation stays pending,
counts towards the deposit limits, and the retry with the same key asks the provider again (which must not charge
twice) and credits it once. A declined deposit gives its share of the limit back.

Requirement IDs: none (the requirements catalog has no requirement on deposit limits; see
``test_concurrent_deposits_near_the_limit_are_refused_before_the_provider_charges.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from poker_site.accounts.models import User
from wallet.errors import CashierLimitExceeded, PaymentProviderError
from wallet.models import CashierLimits, CashierStatus, CashierTransaction
from wallet.services import balance_of, deposit_through_provider, ledger_reconcile, player_cash_account
from wallet.services.providers import DepositSession, ProviderResult

pytestmark = pytest.mark.django_db


@dataclass
class UnreliableProvider:
    """Charges each key once; raises on the first confirmation of each key in ``unanswered_keys`` (after charging,
    as a lost reply would) and declines the keys in ``declined_keys``."""

    name: str = "unreliable"
    unanswered_keys: set[str] = field(default_factory=set)
    declined_keys: set[str] = field(default_factory=set)
    charged_keys: list[str] = field(default_factory=list)

    def start_deposit(self, *, player: User, amount: int, currency: str, idempotency_key: str) -> DepositSession:
        return DepositSession(provider_reference=idempotency_key, amount=amount, currency=currency)

    def confirm_deposit(self, session: DepositSession) -> ProviderResult:
        key = session.provider_reference
        if key in self.declined_keys:
            return ProviderResult(key, succeeded=False, failure_reason="The test bank declined this deposit.")
        if key not in self.charged_keys:
            self.charged_keys.append(key)
        if key in self.unanswered_keys:
            self.unanswered_keys.discard(key)
            raise ConnectionError("the provider's reply was lost")
        return ProviderResult(key, succeeded=True)

    def payout(self, *, player: User, amount: int, currency: str, reference: str) -> ProviderResult:
        raise AssertionError("no payout is asked for in these tests")


@pytest.fixture
def player(make_player: Callable[..., User]) -> User:
    CashierLimits.objects.create(
        minimum_deposit=1_000,
        maximum_deposit=5_000,
        daily_deposit_limit=5_000,
        minimum_withdrawal=1_000,
        maximum_withdrawal=5_000,
    )
    return make_player("unlucky")


def test_an_unanswered_deposit_counts_towards_the_limit_and_its_retry_credits_it_once(player: User) -> None:
    provider = UnreliableProvider(unanswered_keys={"lost-reply"})
    with pytest.raises(ConnectionError):
        deposit_through_provider(player, 4_000, "lost-reply", provider=provider)
    pending = CashierTransaction.objects.get(player=player)
    assert (pending.status, pending.transfer) == (CashierStatus.PENDING, None)

    with pytest.raises(CashierLimitExceeded, match=r"€40\.00 awaits the payment provider, so at most €10\.00 more"):
        deposit_through_provider(player, 2_000, "next", provider=provider)

    deposit = deposit_through_provider(player, 4_000, "lost-reply", provider=provider)
    assert deposit.status == CashierStatus.COMPLETED
    assert deposit_through_provider(player, 4_000, "lost-reply", provider=provider) == deposit
    assert provider.charged_keys == ["lost-reply"]
    assert balance_of(player_cash_account(player)) == 4_000
    assert ledger_reconcile() == []


def test_a_declined_deposit_gives_its_share_of_the_limit_back(player: User) -> None:
    provider = UnreliableProvider(declined_keys={"declined"})
    with pytest.raises(PaymentProviderError, match="declined"):
        deposit_through_provider(player, 5_000, "declined", provider=provider)
    assert not CashierTransaction.objects.filter(player=player).exists()

    deposit = deposit_through_provider(player, 5_000, "accepted", provider=provider)

    assert deposit.status == CashierStatus.COMPLETED
    assert provider.charged_keys == ["accepted"]
    assert balance_of(player_cash_account(player)) == 5_000
