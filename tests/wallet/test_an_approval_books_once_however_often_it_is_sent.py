"""Issue 30: an approval sent twice, or by two staff members at once, books one transfer (the compare-and-swap claim
of the proposal, and the ledger's idempotency key made from its id); the ledger balances after."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from poker_site.accounts.models import User
from tests.wallet.concurrency import run_simultaneously
from wallet.errors import ProposalAlreadyDecided
from wallet.models import AdjustmentProposal, AuditEntry, ProposalStatus, Transfer
from wallet.services import adjustment_approve, adjustment_propose, balance_of, ledger_reconcile, player_cash_account


def test_a_second_approval_is_refused_and_books_nothing(alice: User, support: User, second_support: User) -> None:
    proposal = adjustment_propose(support, player_cash_account(alice), 10_00, "goodwill", "Outage", "twice-1")
    adjustment_approve(proposal, second_support)

    with pytest.raises(ProposalAlreadyDecided, match="already approved"):
        adjustment_approve(proposal, second_support)

    assert Transfer.objects.filter(kind="staff_adjustment").count() == 1
    assert balance_of(player_cash_account(alice)) == 110_00
    assert AuditEntry.objects.filter(action="adjustment_approved").count() == 1
    assert ledger_reconcile() == []


@pytest.mark.django_db(transaction=True)
def test_two_approvers_at_once_book_one_transfer(
    make_player: Callable[..., User], support: User, second_support: User, administrator: User
) -> None:
    player = make_player("racer", 10_000)
    proposal = adjustment_propose(support, player_cash_account(player), 10_00, "goodwill", "Outage", "twice-2")

    results = run_simultaneously(
        [
            lambda: adjustment_approve(proposal.pk, second_support),
            lambda: adjustment_approve(proposal.pk, administrator),
        ]
    )

    assert sum(isinstance(result, AdjustmentProposal) for result in results) == 1
    assert sum(isinstance(result, ProposalAlreadyDecided) for result in results) == 1, results
    assert Transfer.objects.filter(kind="staff_adjustment").count() == 1
    assert AdjustmentProposal.objects.get().status == ProposalStatus.APPROVED
    assert balance_of(player_cash_account(player)) == 110_00
    assert ledger_reconcile() == []
