"""Issue 30: a second staff member rejects a proposal with a written reason; nothing moves, it is audited, and a
rejected proposal can no longer be approved."""

from __future__ import annotations

import pytest

from poker_site.accounts.models import User
from tests.wallet.conftest import ledger_row_counts
from wallet.errors import NotPermitted, ProposalAlreadyDecided, ReasonRequired
from wallet.models import AdjustmentProposal, AuditEntry, ProposalStatus
from wallet.services import adjustment_approve, adjustment_propose, adjustment_reject, player_cash_account


@pytest.mark.parametrize("reason", ["", "   ", None])
def test_a_rejection_without_a_reason_is_refused(
    alice: User, support: User, second_support: User, reason: object
) -> None:
    proposal = adjustment_propose(support, player_cash_account(alice), -5_00, "correction", "Clawback", "rej-1")
    with pytest.raises(ReasonRequired):
        adjustment_reject(proposal, second_support, reason)  # type: ignore[arg-type]
    assert AdjustmentProposal.objects.get().status == ProposalStatus.PENDING


def test_a_rejection_moves_nothing_is_audited_and_is_final(
    alice: User, support: User, second_support: User, administrator: User
) -> None:
    proposal = adjustment_propose(support, player_cash_account(alice), -5_00, "correction", "Clawback", "rej-2")
    before = ledger_row_counts()

    rejected = adjustment_reject(proposal, second_support, "The bonus was legitimate")

    assert ledger_row_counts() == before
    assert (rejected.status, rejected.decided_by, rejected.decision_note) == (
        ProposalStatus.REJECTED,
        second_support,
        "The bonus was legitimate",
    )
    entry = AuditEntry.objects.get(action="adjustment_rejected")
    assert (entry.actor, entry.player, entry.reason) == (second_support, alice, "The bonus was legitimate")
    with pytest.raises(ProposalAlreadyDecided, match="already rejected"):
        adjustment_approve(proposal, administrator)
    assert ledger_row_counts() == before


def test_a_compliance_reviewer_cannot_reject(alice: User, support: User, reviewer: User) -> None:
    proposal = adjustment_propose(support, player_cash_account(alice), 5_00, "goodwill", "Outage", "rej-3")
    with pytest.raises(NotPermitted):
        adjustment_reject(proposal, reviewer, "No")
