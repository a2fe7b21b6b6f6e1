"""Issue 30, per-role limits: support staff approve a colleague's goodwill credit up to
``WALLET_ADJUSTMENT_SUPPORT_LIMITS["goodwill"]`` (€50.00 by default); a larger one, or a credit of a category support
has no limit for, needs an administrator. Compliance reviewers approve nothing."""

from __future__ import annotations

import pytest
from django.test import override_settings

from poker_site.accounts.models import User
from wallet.errors import NotPermitted
from wallet.models import AdjustmentCategory, ProposalStatus
from wallet.services import adjustment_approve, adjustment_propose, balance_of, ledger_reconcile, player_cash_account


def test_support_approves_a_goodwill_credit_of_exactly_the_limit(
    alice: User, support: User, second_support: User
) -> None:
    proposal = adjustment_propose(support, player_cash_account(alice), 50_00, "goodwill", "Long outage", "lim-1")
    assert not proposal.needs_administrator
    assert adjustment_approve(proposal, second_support).status == ProposalStatus.APPROVED
    assert balance_of(player_cash_account(alice)) == 150_00


def test_one_cent_over_the_limit_needs_an_administrator(
    alice: User, support: User, second_support: User, administrator: User
) -> None:
    proposal = adjustment_propose(support, player_cash_account(alice), 50_01, "goodwill", "Long outage", "lim-2")
    assert proposal.needs_administrator

    with pytest.raises(NotPermitted, match="needs an administrator"):
        adjustment_approve(proposal, second_support)
    assert balance_of(player_cash_account(alice)) == 100_00

    assert adjustment_approve(proposal, administrator).status == ProposalStatus.APPROVED
    assert balance_of(player_cash_account(alice)) == 150_01
    assert ledger_reconcile() == []


@pytest.mark.parametrize("category", [AdjustmentCategory.CORRECTION, AdjustmentCategory.MALFUNCTION])
def test_a_small_credit_of_a_category_without_a_support_limit_needs_an_administrator(
    alice: User, support: User, second_support: User, category: str
) -> None:
    proposal = adjustment_propose(support, player_cash_account(alice), 1_00, category, "Re-settled", f"lim-{category}")
    with pytest.raises(NotPermitted, match="needs an administrator"):
        adjustment_approve(proposal, second_support)


@override_settings(WALLET_ADJUSTMENT_SUPPORT_LIMITS={"goodwill": 10_00})
def test_the_limit_comes_from_the_settings(alice: User, support: User, second_support: User) -> None:
    proposal = adjustment_propose(support, player_cash_account(alice), 20_00, "goodwill", "Outage", "lim-3")
    with pytest.raises(NotPermitted, match="needs an administrator"):
        adjustment_approve(proposal, second_support)


def test_a_limit_lowered_after_the_proposal_applies_to_the_approval(
    alice: User, support: User, second_support: User
) -> None:
    proposal = adjustment_propose(support, player_cash_account(alice), 20_00, "goodwill", "Outage", "lim-4")
    with (
        override_settings(WALLET_ADJUSTMENT_SUPPORT_LIMITS={"goodwill": 10_00}),
        pytest.raises(NotPermitted, match="needs an administrator"),
    ):
        adjustment_approve(proposal, second_support)


def test_a_compliance_reviewer_approves_no_adjustment(alice: User, support: User, reviewer: User) -> None:
    proposal = adjustment_propose(support, player_cash_account(alice), 5_00, "goodwill", "Outage", "lim-5")
    with pytest.raises(NotPermitted, match=r"wallet\.approve_adjustment"):
        adjustment_approve(proposal, reviewer)
    assert balance_of(player_cash_account(alice)) == 100_00
