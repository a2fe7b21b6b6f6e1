"""Issue 30 (four eyes): the second pair of eyes is never the player whose money it is. A QA tester had a colleague
propose settling his own stuck deposit as charged and approved it himself (the checks compared the approver with the
proposer only), and a reviewer released a hold on her own winnings alone. Staff may hold a player's cash account; no
staff member proposes, approves or rejects a decision about their own account's money (FRD-04, FRD-10)."""

from __future__ import annotations

import pytest

from poker_site.accounts.models import User
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve, rule_change_propose
from tests.foundation.staff_roles import staff_member
from tests.wallet.conftest import fund
from wallet.errors import NotPermitted
from wallet.models import AdjustmentCategory, HoldStatus
from wallet.services import adjustment_approve, adjustment_propose, hold_create, hold_release, player_cash_account

pytestmark = pytest.mark.django_db

SEIZURE = "hold_seizure"


def test_support_never_proposes_an_adjustment_of_their_own_account(support: User) -> None:
    with pytest.raises(NotPermitted, match="own account"):
        adjustment_propose(
            support, player_cash_account(support), 500, AdjustmentCategory.GOODWILL, "Coffee money", "own-1"
        )


def test_support_never_approves_an_adjustment_of_their_own_account(support: User, second_support: User) -> None:
    proposal = adjustment_propose(
        support, player_cash_account(second_support), 500, AdjustmentCategory.GOODWILL, "For a friend", "own-2"
    )

    with pytest.raises(NotPermitted, match="own account"):
        adjustment_approve(proposal, second_support)


def test_a_reviewer_never_releases_a_hold_on_their_own_account(reviewer: User) -> None:
    cash = player_cash_account(reviewer)
    fund(cash, 5_000)
    hold = hold_create(
        cash, 4_000, "Wins reviewed", "review-case:1", created_by=staff_member(COMPLIANCE_REVIEWERS, "r2")
    )

    with pytest.raises(NotPermitted, match="own account"):
        hold_release(hold, reviewer, "Nothing found")
    hold.refresh_from_db()
    assert hold.status == HoldStatus.HELD


def test_a_reviewer_neither_proposes_nor_approves_nor_rejects_a_seizure_of_their_own_winnings(
    reviewer: User,
) -> None:
    colleague = staff_member(COMPLIANCE_REVIEWERS, "colleague")
    cash = player_cash_account(reviewer)
    fund(cash, 5_000)
    hold = hold_create(cash, 4_000, "Chip dumping", "review-case:2", created_by=colleague)
    target = f"wallet.hold:{hold.pk}"

    with pytest.raises(RuleChangeRefused, match="their own account's money"):
        rule_change_propose(reviewer, SEIZURE, target, {}, "Seize it")
    proposal = rule_change_propose(colleague, SEIZURE, target, {}, "Seize it")
    with pytest.raises(RuleChangeRefused, match="their own account's money"):
        rule_change_approve(proposal, reviewer)


def test_a_second_seizure_of_one_hold_waits_for_the_first_to_be_decided(reviewer: User, alice: User) -> None:
    """At most one pending seizure per hold, whatever the path (QA: 25 of 25 simultaneous proposals made two)."""
    cash = player_cash_account(alice)
    hold = hold_create(cash, 4_000, "Collusion", "review-case:3", created_by=reviewer)
    target = f"wallet.hold:{hold.pk}"
    first = rule_change_propose(reviewer, SEIZURE, target, {"amount": 1_000}, "Part of it")

    with pytest.raises(RuleChangeRefused, match=f"already awaits approval \\(rule change #{first.pk}"):
        rule_change_propose(staff_member(COMPLIANCE_REVIEWERS, "colleague"), SEIZURE, target, {}, "All of it")
