"""A deposit a payment provider error left pending (no retry with the same key finished it) is settled by staff, after
checking with the provider, only when two people agree (issue 30, four eyes on money): one proposes "the provider
charged it" (with the charge's reference) or "the provider did not charge it", with a reason; nothing moves until
another approves. "Charged" credits it through the ledger under the deposit's own idempotency key, so the player's
late retry cannot credit it again; "not charged" releases the reservation, giving its share of the limits back. Both
are audited with both staff members; a deposit younger than 15 minutes (its request may still be running), a
completed one or a withdrawal cannot be settled; compliance reviewers and the proposer never approve.

Requirement IDs: none in the catalog for the cashier's provider errors; the four-eyes rule is issue 30's (see
``test_an_adjustment_is_booked_only_when_a_second_staff_member_approves_it.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta

import pytest
from django.utils import timezone

from poker_site.accounts.models import User
from poker_site.core.models import RuleChangeProposal, RuleChangeStatus
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve, rule_change_propose
from tests.tables.back_office import logged_in
from wallet.deposit_changes import PENDING_DEPOSIT_SETTLEMENT, deposit_target
from wallet.models import AuditEntry, CashierLimits, CashierStatus, CashierTransaction, Transfer
from wallet.services import balance_of, deposit_through_provider, ledger_reconcile, player_cash_account
from wallet.services.providers import DepositSession, ProviderResult

KIND = PENDING_DEPOSIT_SETTLEMENT.name
pytestmark = pytest.mark.django_db


@dataclass
class LostReplyProvider:
    """Charges each key once (unless in ``never_charged``); the first confirmation of a key in ``lost_keys`` raises
    (after charging, as a lost reply would)."""

    name: str = "lost-reply"
    lost_keys: set[str] = field(default_factory=set)
    never_charged: set[str] = field(default_factory=set)
    charged_keys: list[str] = field(default_factory=list)

    def start_deposit(self, *, player: User, amount: int, currency: str, idempotency_key: str) -> DepositSession:
        return DepositSession(provider_reference=f"ref-{idempotency_key}", amount=amount, currency=currency)

    def confirm_deposit(self, session: DepositSession) -> ProviderResult:
        key = session.provider_reference.removeprefix("ref-")
        if key not in self.never_charged and key not in self.charged_keys:
            self.charged_keys.append(key)
        if key in self.lost_keys:
            self.lost_keys.discard(key)
            raise ConnectionError("the provider's reply was lost")
        if key in self.never_charged:
            return ProviderResult(session.provider_reference, succeeded=False, failure_reason="not charged")
        return ProviderResult(session.provider_reference, succeeded=True)

    def payout(self, *, player: User, amount: int, currency: str, reference: str) -> ProviderResult:
        raise AssertionError("no payout is asked for in these tests")


@pytest.fixture
def provider() -> LostReplyProvider:
    return LostReplyProvider()


@pytest.fixture
def pending(make_player: Callable[..., User], provider: LostReplyProvider) -> CashierTransaction:
    """A €40.00 deposit of a player whose provider's reply was lost 20 minutes ago, still pending."""
    CashierLimits.objects.create(
        minimum_deposit=1_000,
        maximum_deposit=5_000,
        daily_deposit_limit=5_000,
        minimum_withdrawal=1_000,
        maximum_withdrawal=5_000,
    )
    player = make_player("unlucky")
    provider.lost_keys.add("lost")
    with pytest.raises(ConnectionError):
        deposit_through_provider(player, 4_000, "lost", provider=provider)
    deposit = CashierTransaction.objects.get(player=player, idempotency_key="lost")
    CashierTransaction.objects.filter(pk=deposit.pk).update(created_at=timezone.now() - timedelta(minutes=20))
    deposit.refresh_from_db()
    assert deposit.status == CashierStatus.PENDING
    return deposit


def test_charged_credits_it_once_under_its_key_when_a_second_staff_member_approves(
    pending: CashierTransaction, provider: LostReplyProvider, support: User, second_support: User
) -> None:
    player = pending.player
    changes = {"charged": True, "provider_reference": "ref-lost"}
    proposal = rule_change_propose(support, KIND, deposit_target(pending), changes, "Provider dashboard: captured")
    assert balance_of(player_cash_account(player)) == 0  # nothing moves on a proposal

    with pytest.raises(RuleChangeRefused, match="second staff member"):
        rule_change_approve(proposal, support)
    rule_change_approve(proposal, second_support, "checked the dashboard too")

    pending.refresh_from_db()
    assert (pending.status, pending.provider_reference) == (CashierStatus.COMPLETED, "ref-lost")
    assert pending.transfer is not None
    assert pending.transfer.idempotency_key == f"deposit:{player.pk}:lost"
    assert balance_of(player_cash_account(player)) == 4_000
    credited = AuditEntry.objects.get(action="pending_deposit_credited")
    assert (credited.actor, credited.player, credited.transfer_id) == (second_support, player, pending.transfer_id)
    assert "proposed by support-agent, approved by support-colleague" in credited.reason
    assert credited.details["proposed_by"] == "support-agent"

    # The player's late retry with the same key finds the deposit completed: no second charge, no second credit.
    assert deposit_through_provider(player, 4_000, "lost", provider=provider) == pending
    assert provider.charged_keys == ["lost"]
    assert balance_of(player_cash_account(player)) == 4_000
    assert Transfer.objects.filter(kind="deposit", legs__account=player_cash_account(player)).count() == 1
    assert ledger_reconcile() == []


def test_not_charged_releases_the_reservation_and_its_share_of_the_limit(
    pending: CashierTransaction, provider: LostReplyProvider, support: User, second_support: User
) -> None:
    player = pending.player
    proposal = rule_change_propose(
        support, KIND, deposit_target(pending), {"charged": False}, "Provider: no such payment"
    )
    assert CashierTransaction.objects.filter(pk=pending.pk).exists()
    rule_change_approve(proposal, second_support)

    assert not CashierTransaction.objects.filter(pk=pending.pk).exists()
    assert balance_of(player_cash_account(player)) == 0
    released = AuditEntry.objects.get(action="pending_deposit_released")
    assert (released.actor, released.player, released.target) == (second_support, player, deposit_target(pending))
    assert released.details["amount"] == 4_000
    # The €40.00 no longer holds the daily limit of €50.00: a new €50.00 deposit passes.
    deposit_through_provider(player, 5_000, "next", provider=provider)
    assert balance_of(player_cash_account(player)) == 5_000
    assert ledger_reconcile() == []


def test_a_charge_the_provider_confirms_after_the_release_is_still_credited_once(
    pending: CashierTransaction, provider: LostReplyProvider, support: User, second_support: User
) -> None:
    """Staff released it wrongly: the player's retry with the same key asks the provider again, which confirms the
    charge, and the deposit is credited (the money was taken); never twice."""
    player = pending.player
    proposal = rule_change_propose(support, KIND, deposit_target(pending), {"charged": False}, "Looked like no")
    rule_change_approve(proposal, second_support)

    deposit = deposit_through_provider(player, 4_000, "lost", provider=provider)

    assert deposit.status == CashierStatus.COMPLETED
    assert provider.charged_keys == ["lost"]
    assert balance_of(player_cash_account(player)) == 4_000
    assert ledger_reconcile() == []


def test_a_deposit_a_retry_finished_before_the_approval_is_refused_and_nothing_moves(
    pending: CashierTransaction, provider: LostReplyProvider, support: User, second_support: User
) -> None:
    player = pending.player
    proposal = rule_change_propose(
        support, KIND, deposit_target(pending), {"charged": True, "provider_reference": "ref-lost"}, "Captured"
    )
    deposit_through_provider(player, 4_000, "lost", provider=provider)  # the player's retry finishes it first

    with pytest.raises(RuleChangeRefused, match="already completed"):
        rule_change_approve(proposal, second_support)
    assert RuleChangeProposal.objects.get(pk=proposal.pk).status == RuleChangeStatus.PENDING
    assert balance_of(player_cash_account(player)) == 4_000
    assert not AuditEntry.objects.filter(action__startswith="pending_deposit_").exists()


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"charged": True}, "provider's reference"),
        ({"charged": True, "provider_reference": "  "}, "provider's reference"),
        ({"charged": False, "provider_reference": "ref-lost"}, "give no provider reference"),
        ({"charged": "yes"}, "true or false"),
        ({}, "true or false"),
    ],
)
def test_a_settlement_must_say_charged_with_its_reference_or_not_charged(
    pending: CashierTransaction, support: User, changes: dict[str, object], says: str
) -> None:
    with pytest.raises(RuleChangeRefused, match=says):
        rule_change_propose(support, KIND, deposit_target(pending), changes, "x")
    assert not RuleChangeProposal.objects.exists()


def test_a_reason_is_required(pending: CashierTransaction, support: User) -> None:
    with pytest.raises(RuleChangeRefused, match="reason"):
        rule_change_propose(support, KIND, deposit_target(pending), {"charged": False}, "  ")


def test_a_recent_a_completed_or_a_withdrawal_is_not_settled(
    pending: CashierTransaction, provider: LostReplyProvider, support: User
) -> None:
    CashierTransaction.objects.filter(pk=pending.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    with pytest.raises(RuleChangeRefused, match="less than 15 minutes ago"):
        rule_change_propose(support, KIND, deposit_target(pending), {"charged": False}, "x")

    completed = deposit_through_provider(pending.player, 4_000, "lost", provider=provider)
    CashierTransaction.objects.filter(pk=pending.pk).update(created_at=timezone.now() - timedelta(minutes=20))
    with pytest.raises(RuleChangeRefused, match="already completed"):
        rule_change_propose(support, KIND, deposit_target(completed), {"charged": False}, "x")
    with pytest.raises(RuleChangeRefused, match="no pending deposit"):
        rule_change_propose(support, KIND, "wallet.cashiertransaction:abc", {"charged": False}, "x")


def test_a_reference_of_another_deposit_is_refused(
    pending: CashierTransaction, provider: LostReplyProvider, make_player: Callable[..., User], support: User
) -> None:
    other = deposit_through_provider(make_player("other"), 1_000, "elsewhere", provider=provider)
    with pytest.raises(RuleChangeRefused, match=f"already that of deposit #{other.pk}"):
        rule_change_propose(
            support, KIND, deposit_target(pending), {"charged": True, "provider_reference": "ref-elsewhere"}, "x"
        )


def test_compliance_reviewers_neither_propose_nor_approve(
    pending: CashierTransaction, support: User, reviewer: User
) -> None:
    with pytest.raises(RuleChangeRefused, match=r"wallet\.adjust_balance"):
        rule_change_propose(reviewer, KIND, deposit_target(pending), {"charged": False}, "x")
    proposal = rule_change_propose(support, KIND, deposit_target(pending), {"charged": False}, "x")
    with pytest.raises(RuleChangeRefused, match=r"wallet\.adjust_balance"):
        rule_change_approve(proposal, reviewer)
    assert CashierTransaction.objects.filter(pk=pending.pk, status=CashierStatus.PENDING).exists()


def test_the_settle_page_proposes_and_the_rule_change_page_approves(
    pending: CashierTransaction, support: User, second_support: User, reviewer: User
) -> None:
    page = f"/admin/wallet/cashiertransaction/{pending.pk}/settle/"
    assert logged_in(reviewer).get(page).status_code == 403
    change_page = logged_in(support).get(f"/admin/wallet/cashiertransaction/{pending.pk}/change/")
    assert page in change_page.content.decode()

    client = logged_in(support)
    assert client.get(page).status_code == 200
    refused = client.post(page, {"decision": "charged", "provider_reference": "", "reason": "captured"})
    assert refused.status_code == 200
    assert "Give the provider&#x27;s reference of the charge." in refused.content.decode()
    answer = client.post(page, {"decision": "charged", "provider_reference": "ref-lost", "reason": "captured"})
    proposal = RuleChangeProposal.objects.get(kind=KIND)
    assert answer.status_code == 302
    assert answer["Location"] == f"/admin/core/rulechangeproposal/{proposal.pk}/change/"
    assert proposal.changes == {"charged": True, "provider_reference": "ref-lost"}

    approved = logged_in(second_support).post(
        f"/admin/core/rulechangeproposal/{proposal.pk}/approve/", {"note": "agreed"}
    )
    assert approved.status_code == 302
    pending.refresh_from_db()
    assert pending.status == CashierStatus.COMPLETED
    assert balance_of(player_cash_account(pending.player)) == 4_000
