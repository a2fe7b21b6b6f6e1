"""Issue 30 (GEN-01 fairness override, LOB-10): a manual adjustment is a proposal; nothing moves until a second
staff member approves it, and then exactly one transfer is booked against the house adjustments account, audited."""

from __future__ import annotations

from poker_site.accounts.models import User
from tests.wallet.conftest import ledger_row_counts
from wallet.models import AccountKind, AdjustmentCategory, AuditEntry, ProposalStatus, Transfer
from wallet.services import (
    adjustment_approve,
    adjustment_propose,
    balance_of,
    ledger_reconcile,
    player_cash_account,
    system_account,
)


def test_a_proposal_moves_no_money_and_is_audited(alice: User, support: User) -> None:
    before = ledger_row_counts()

    proposal = adjustment_propose(
        support, player_cash_account(alice), 20_00, AdjustmentCategory.GOODWILL, "Disconnected in hand 991", "p-1"
    )

    assert ledger_row_counts() == before
    assert balance_of(player_cash_account(alice)) == 100_00
    assert (proposal.status, proposal.proposed_by, proposal.transfer) == (ProposalStatus.PENDING, support, None)
    entry = AuditEntry.objects.get(action="adjustment_proposed")
    assert (entry.actor, entry.player, entry.target) == (support, alice, f"wallet.adjustmentproposal:{proposal.pk}")
    assert entry.details["amount"] == 20_00
    assert entry.details["amount_in_euros"] == "€20.00"


def test_another_support_agent_approves_a_small_goodwill_credit_and_it_is_booked_once(
    alice: User, support: User, second_support: User
) -> None:
    cash = player_cash_account(alice)
    proposal = adjustment_propose(support, cash, 20_00, AdjustmentCategory.GOODWILL, "Disconnected in hand 991", "p-2")

    approved = adjustment_approve(proposal, second_support, "Checked the hand's log")

    assert approved.status == ProposalStatus.APPROVED
    assert (approved.decided_by, approved.decision_note) == (second_support, "Checked the hand's log")
    assert balance_of(cash) == 120_00
    assert balance_of(system_account(AccountKind.HOUSE_ADJUSTMENTS)) == -20_00
    transfer = Transfer.objects.get(kind="staff_adjustment")
    assert transfer == approved.transfer
    assert transfer.idempotency_key == f"adjustment-proposal:{proposal.pk}"
    assert transfer.created_by == second_support
    entry = AuditEntry.objects.get(action="adjustment_approved")
    assert (entry.actor, entry.player, entry.transfer) == (second_support, alice, transfer)
    assert (entry.before, entry.after) == ({"status": "pending"}, {"status": "approved"})
    assert ledger_reconcile() == []
