"""Issue 30, four eyes: whoever proposed an adjustment can neither approve nor reject it, whatever their role (an
administrator's own proposal needs another administrator); the database refuses it too."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from poker_site.accounts.models import User
from tests.wallet.conftest import ledger_row_counts
from wallet.errors import NotPermitted
from wallet.models import AdjustmentCategory, AdjustmentProposal, ProposalStatus
from wallet.services import adjustment_approve, adjustment_propose, adjustment_reject, player_cash_account


@pytest.mark.parametrize("role", ["support", "administrator"])
def test_the_proposer_cannot_approve_their_own_proposal(alice: User, request: pytest.FixtureRequest, role: str) -> None:
    proposer = request.getfixturevalue(role)
    proposal = adjustment_propose(
        proposer, player_cash_account(alice), 10_00, AdjustmentCategory.GOODWILL, "Goodwill", f"own-{role}"
    )
    before = ledger_row_counts()

    with pytest.raises(NotPermitted, match="second staff member"):
        adjustment_approve(proposal, proposer)
    with pytest.raises(NotPermitted, match="second staff member"):
        adjustment_reject(proposal, proposer, "Changed my mind")

    assert ledger_row_counts() == before
    assert AdjustmentProposal.objects.get().status == ProposalStatus.PENDING


def test_an_administrators_own_proposal_is_approved_by_another_administrator(
    alice: User, administrator: User, second_administrator: User
) -> None:
    proposal = adjustment_propose(
        administrator, player_cash_account(alice), -30_00, AdjustmentCategory.CHARGEBACK, "Card chargeback", "own-a"
    )
    assert adjustment_approve(proposal, second_administrator).status == ProposalStatus.APPROVED


def test_the_database_refuses_a_decision_by_the_proposer(alice: User, support: User) -> None:
    proposal = adjustment_propose(
        support, player_cash_account(alice), 10_00, AdjustmentCategory.GOODWILL, "Goodwill", "own-db"
    )
    with pytest.raises(IntegrityError, match="wallet_proposal_decided_by_another"), transaction.atomic():
        AdjustmentProposal.objects.filter(pk=proposal.pk).update(
            status=ProposalStatus.REJECTED, decided_by=support, decided_at=timezone.now(), decision_note="No"
        )
