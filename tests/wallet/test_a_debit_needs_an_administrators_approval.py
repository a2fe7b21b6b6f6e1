"""Issue 30: every debit of a player's balance needs an administrator's approval; support staff never approve one,
whatever its size or category. A debit larger than the balance is refused at approval and stays pending."""

from __future__ import annotations

import pytest

from poker_site.accounts.models import User
from tests.wallet.conftest import ledger_row_counts
from wallet.errors import InsufficientFunds, NotPermitted
from wallet.models import AccountKind, AdjustmentCategory, AdjustmentProposal, ProposalStatus
from wallet.services import (
    adjustment_approve,
    adjustment_propose,
    balance_of,
    ledger_reconcile,
    player_cash_account,
    system_account,
)


@pytest.mark.parametrize("category", AdjustmentCategory.values)
def test_support_never_approves_a_debit(alice: User, support: User, second_support: User, category: str) -> None:
    proposal = adjustment_propose(support, player_cash_account(alice), -1, category, "Duplicate bonus", f"d-{category}")
    assert proposal.needs_administrator
    before = ledger_row_counts()

    with pytest.raises(NotPermitted, match="may not approve a debit"):
        adjustment_approve(proposal, second_support)

    assert ledger_row_counts() == before


def test_an_administrator_approves_a_supports_debit(alice: User, support: User, administrator: User) -> None:
    proposal = adjustment_propose(
        support, player_cash_account(alice), -40_00, AdjustmentCategory.CHARGEBACK, "Deposit charged back", "d-1"
    )

    adjustment_approve(proposal, administrator, "Bank notice 77 checked")

    assert balance_of(player_cash_account(alice)) == 60_00
    assert balance_of(system_account(AccountKind.HOUSE_ADJUSTMENTS)) == 40_00
    assert ledger_reconcile() == []


def test_a_debit_larger_than_the_balance_is_refused_and_stays_pending(
    alice: User, support: User, administrator: User
) -> None:
    proposal = adjustment_propose(
        support, player_cash_account(alice), -100_01, AdjustmentCategory.CORRECTION, "Clawback", "d-2"
    )
    before = ledger_row_counts()

    with pytest.raises(InsufficientFunds):
        adjustment_approve(proposal, administrator)

    assert ledger_row_counts() == before
    assert AdjustmentProposal.objects.get().status == ProposalStatus.PENDING
