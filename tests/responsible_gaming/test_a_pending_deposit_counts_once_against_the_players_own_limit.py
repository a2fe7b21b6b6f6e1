"""A deposit still awaiting the payment provider (a pending reservation, e.g. after the provider's reply was lost)
counts against the player's own deposit limits exactly once: the limit's own sum counts it (with the completed
deposits of its window), and the cashier asks the check about the new deposit alone. Before, the cashier added every
pending deposit to the amount it asked about because the limit counted completed deposits only; counting pending ones
in the limit as well would have counted them twice. The refusal says how much still awaits the provider.

Requirement IDs: none (the requirements catalog has no requirement on deposit limits; see
``tests/wallet/test_concurrent_deposits_near_the_limit_are_refused_before_the_provider_charges.py``). The limits are
the product's own responsible-gaming limits (README, "Responsible gaming": rolling windows).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

import pytest
from django.utils import timezone

from poker_site.accounts.models import User
from poker_site.responsible_gaming.services import deposit_limit_set, deposit_refusal, deposits_since
from wallet.errors import DepositRefused
from wallet.models import CashierStatus, CashierTransaction
from wallet.services import balance_of, deposit_create, deposit_through_provider, ledger_reconcile, player_cash_account
from wallet.services.providers import DepositSession, ProviderResult

pytestmark = pytest.mark.django_db


@dataclass
class LostReplyProvider:
    """Charges each key once; the first confirmation of a key in ``lost_keys`` raises after charging (a lost reply)."""

    name: str = "lost-reply"
    lost_keys: set[str] = field(default_factory=set)
    charged_keys: list[str] = field(default_factory=list)

    def start_deposit(self, *, player: User, amount: int, currency: str, idempotency_key: str) -> DepositSession:
        return DepositSession(provider_reference=idempotency_key, amount=amount, currency=currency)

    def confirm_deposit(self, session: DepositSession) -> ProviderResult:
        key = session.provider_reference
        if key not in self.charged_keys:
            self.charged_keys.append(key)
        if key in self.lost_keys:
            self.lost_keys.discard(key)
            raise ConnectionError("the provider's reply was lost")
        return ProviderResult(key, succeeded=True)

    def payout(self, *, player: User, amount: int, currency: str, reference: str) -> ProviderResult:
        raise AssertionError("no payout is asked for in these tests")


@pytest.fixture
def player() -> User:
    user = User.objects.create_user("pending-once", "pending-once@example.com", "x-unused-password")
    deposit_limit_set(user, "day", 10_000)  # €100.00 in any 24 hours
    return user


def _leave_pending(player: User, provider: LostReplyProvider, amount: int, key: str) -> CashierTransaction:
    provider.lost_keys.add(key)
    with pytest.raises(ConnectionError):
        deposit_through_provider(player, amount, key, provider=provider)
    pending = CashierTransaction.objects.get(player=player, idempotency_key=key)
    assert pending.status == CashierStatus.PENDING
    return pending


def test_a_pending_deposit_counts_once_against_the_players_own_limit(player: User) -> None:
    provider = LostReplyProvider()
    deposit_create(player, 3_000, "bank-1", "earlier")
    _leave_pending(player, provider, 4_000, "lost")
    window = deposits_since(player.pk, "EUR", timezone.now() - timedelta(hours=24))
    assert (window.completed, window.awaiting, window.counted) == (3_000, 4_000, 7_000)

    # €30.00 completed + €40.00 pending leave €30.00: €30.01 is refused, in words naming the pending part.
    with pytest.raises(DepositRefused) as refused:
        deposit_through_provider(player, 3_001, "one-cent-too-many", provider=provider)
    assert str(refused.value) == (
        "Your daily deposit limit is €100.00; you have deposited €30.00 in the last 24 hours and €40.00 still awaits "
        "the payment provider, so you can deposit at most €30.00 more now."
    )
    assert deposit_refusal(player, 3_000, "EUR", timezone.now()) is None

    # Exactly the room left is accepted: the pending €40.00 is counted once (twice would leave nothing).
    deposit_through_provider(player, 3_000, "exactly-the-rest", provider=provider)
    assert deposit_refusal(player, 1, "EUR", timezone.now()) is not None

    # The retry completes the pending deposit: still counted once, now as deposited.
    deposit = deposit_through_provider(player, 4_000, "lost", provider=provider)
    assert deposit.status == CashierStatus.COMPLETED
    window = deposits_since(player.pk, "EUR", timezone.now() - timedelta(hours=24))
    assert (window.completed, window.awaiting) == (10_000, 0)
    assert provider.charged_keys == ["lost", "exactly-the-rest"]
    assert balance_of(player_cash_account(player)) == 10_000
    assert ledger_reconcile() == []


def test_a_pending_deposit_counts_in_its_window_like_a_completed_one(player: User) -> None:
    """A pending deposit is counted by its reservation time, which stays its time once completed: one reserved more
    than 24 hours ago no longer counts against the daily limit, as it would not once completed."""
    provider = LostReplyProvider()
    pending = _leave_pending(player, provider, 6_000, "yesterday")
    with pytest.raises(DepositRefused, match=r"€60\.00 still awaits the payment provider, so .* €40\.00 more"):
        deposit_through_provider(player, 5_000, "too-much-today", provider=provider)

    CashierTransaction.objects.filter(pk=pending.pk).update(created_at=timezone.now() - timedelta(hours=25))

    deposit_through_provider(player, 10_000, "a-new-day", provider=provider)
    assert balance_of(player_cash_account(player)) == 10_000
