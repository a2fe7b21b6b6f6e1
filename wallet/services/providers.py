"""Payment providers: the interface a real payment service implements, and the sandbox used in this product.

A deposit is reserved first (``deposit_reserve``: under the player's cashier lock the limits are checked and a pending
deposit recorded and committed, counting towards every deposit limit), then started with the provider (a real one
would redirect the player to pay) and confirmed when the provider says the money arrived, with no database
transaction open; only then is it credited (``deposit_complete``: outside world → the player's cash), or, declined,
its reservation deleted (``deposit_release``). ``deposit_through_provider`` does the three steps. A provider that
raises instead of answering leaves the deposit pending (it may have charged): the retry with the same idempotency key
asks it again, so a provider must answer the same key with the same session and never charge it twice; a pending
deposit no retry finishes is settled by staff (:mod:`wallet.deposit_changes`). ``deposit_create`` credits a deposit
a provider confirmed elsewhere, in one transaction.

A withdrawal is reserved in the ledger first (``withdrawal_request``) and paid out by the provider afterwards,
outside any database transaction.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from poker_site.accounts.models import User


@dataclass(frozen=True)
class DepositSession:
    """A deposit the provider has started: its reference, amount and currency."""

    provider_reference: str
    amount: int
    currency: str


@dataclass(frozen=True)
class ProviderResult:
    """What the provider answered for a deposit confirmation or a payout."""

    provider_reference: str
    succeeded: bool
    failure_reason: str = ""


class PaymentProvider(Protocol):
    """What the cashier needs from a payment service. Implementations must be idempotent per reference/key: a
    deposit's key may be asked again after an error (the deposit stays reserved until it is answered)."""

    name: str

    def start_deposit(self, *, player: User, amount: int, currency: str, idempotency_key: str) -> DepositSession:
        """Open a deposit of ``amount`` cents, already reserved within the player's limits; the same key must give
        the same session."""
        ...

    def confirm_deposit(self, session: DepositSession) -> ProviderResult:
        """Whether the money of ``session`` has arrived (charged: credited; declined: the reservation released). Asked
        again for the same session after an exception, it must not charge twice."""
        ...

    def payout(self, *, player: User, amount: int, currency: str, reference: str) -> ProviderResult:
        """Send ``amount`` cents to the player; the same ``reference`` must never pay twice."""
        ...


@dataclass
class SandboxPaymentProvider:
    """A pretend payment service: no real money moves. Every deposit and payout succeeds at once, except amounts
    listed in ``declined_amounts`` (cents), which are declined, so the failure paths can be tried."""

    name: str = "sandbox"
    declined_amounts: frozenset[int] = field(default_factory=frozenset)

    @staticmethod
    def _reference(prefix: str, *parts: object) -> str:
        digest = hashlib.sha256(":".join(str(part) for part in parts).encode()).hexdigest()[:24]
        return f"sandbox-{prefix}-{digest}"

    def start_deposit(self, *, player: User, amount: int, currency: str, idempotency_key: str) -> DepositSession:
        reference = self._reference("deposit", player.pk, idempotency_key, amount, currency)
        return DepositSession(provider_reference=reference, amount=amount, currency=currency)

    def confirm_deposit(self, session: DepositSession) -> ProviderResult:
        if session.amount in self.declined_amounts:
            return ProviderResult(
                session.provider_reference, succeeded=False, failure_reason="The sandbox bank declined this deposit."
            )
        return ProviderResult(session.provider_reference, succeeded=True)

    def payout(self, *, player: User, amount: int, currency: str, reference: str) -> ProviderResult:
        provider_reference = self._reference("payout", player.pk, reference)
        if amount in self.declined_amounts:
            return ProviderResult(
                provider_reference, succeeded=False, failure_reason="The sandbox bank refused the payout."
            )
        return ProviderResult(provider_reference, succeeded=True)


def default_payment_provider() -> PaymentProvider:
    """The provider the cashier pages and API use. This product ships only the sandbox."""
    return SandboxPaymentProvider()
