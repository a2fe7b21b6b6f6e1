"""FRD-04 withheld winnings and FRD-10 seizure: holds move real money and are decided once, with audit. A seizure
takes two holders of ``wallet.seize_hold`` (issue 30): the wallet refuses one who proposes and approves alone."""

from __future__ import annotations

import pytest

from poker_site.accounts.models import User
from tests.foundation.staff_roles import staff_member
from tests.wallet.conftest import ledger_row_counts
from wallet.errors import HoldAlreadyDecided, InsufficientFunds, NotPermitted, ReasonRequired
from wallet.models import AccountKind, AuditEntry, HoldStatus
from wallet.services import (
    balance_of,
    hold_create,
    hold_release,
    hold_seize,
    ledger_reconcile,
    player_cash_account,
    system_account,
    withheld_total,
)


@pytest.fixture
def second_reviewer(db: None) -> User:
    """Another compliance reviewer: the second pair of eyes on a seizure (issue 30)."""
    from poker_site.accounts.roles import COMPLIANCE_REVIEWERS

    return staff_member(COMPLIANCE_REVIEWERS, "compliance-colleague")


def test_frd04_a_hold_moves_the_funds_out_of_reach_until_the_review_decides(alice: User, reviewer: User) -> None:
    cash = player_cash_account(alice)

    hold = hold_create(cash, 4_000, "Large wins against one opponent", "review-case:12", created_by=reviewer)

    assert hold.status == HoldStatus.HELD
    assert balance_of(cash) == 6_000
    assert withheld_total(alice) == 4_000
    assert hold.player == alice
    assert AuditEntry.objects.filter(action="hold_created", player=alice, actor=reviewer).exists()
    assert ledger_reconcile() == []


def test_frd04_releasing_a_hold_pays_the_player_back(alice: User, reviewer: User) -> None:
    cash = player_cash_account(alice)
    hold = hold_create(cash, 4_000, "Routine review", "review-case:12", created_by=reviewer)

    released = hold_release(hold, reviewer, "Play reviewed, nothing found")

    assert released.status == HoldStatus.RELEASED
    assert released.decided_by == reviewer
    assert released.decision_reason == "Play reviewed, nothing found"
    assert balance_of(cash) == 10_000
    assert withheld_total(alice) == 0
    assert AuditEntry.objects.filter(action="hold_released", actor=reviewer, reason__contains="nothing").exists()
    assert ledger_reconcile() == []


def test_frd10_seizing_a_hold_moves_the_funds_to_the_house(alice: User, reviewer: User, second_reviewer: User) -> None:
    cash = player_cash_account(alice)
    hold = hold_create(cash, 4_000, "Chip dumping suspected", "review-case:13", created_by=reviewer)

    seized = hold_seize(hold, second_reviewer, "Chip dumping confirmed (FRD-14)", proposed_by=reviewer)

    assert seized.status == HoldStatus.SEIZED
    assert seized.decided_by == second_reviewer
    audit = AuditEntry.objects.get(action="hold_seized", player=alice)
    assert audit.actor == second_reviewer
    assert (audit.details["proposed_by"], audit.details["approved_by"]) == (
        reviewer.username,
        second_reviewer.username,
    )
    assert balance_of(cash) == 6_000
    assert balance_of(system_account(AccountKind.HOUSE_SEIZED)) == 4_000
    assert withheld_total(alice) == 0
    assert ledger_reconcile() == []


def test_issue_30_the_wallet_refuses_a_seizure_proposed_and_approved_by_one_reviewer(
    alice: User, reviewer: User
) -> None:
    cash = player_cash_account(alice)
    hold = hold_create(cash, 4_000, "Chip dumping suspected", "review-case:13", created_by=reviewer)
    before = ledger_row_counts()

    with pytest.raises(NotPermitted, match="second staff member"):
        hold_seize(hold, reviewer, "Chip dumping confirmed (FRD-14)", proposed_by=reviewer)

    hold.refresh_from_db()
    assert hold.status == HoldStatus.HELD
    assert ledger_row_counts() == before
    assert (balance_of(cash), withheld_total(alice)) == (6_000, 4_000)


def test_a_hold_is_decided_only_once(alice: User, reviewer: User, second_reviewer: User) -> None:
    hold = hold_create(player_cash_account(alice), 1_000, "Review", "review-case:1", created_by=reviewer)
    hold_release(hold, reviewer, "Cleared")
    before = ledger_row_counts()

    with pytest.raises(HoldAlreadyDecided, match="already released"):
        hold_seize(hold, second_reviewer, "Changed my mind", proposed_by=reviewer)

    assert ledger_row_counts() == before


def test_holds_need_the_permissions_and_a_reason(alice: User, bob: User, support: User, reviewer: User) -> None:
    cash = player_cash_account(alice)
    with pytest.raises(NotPermitted, match=r"wallet\.withhold_winnings"):
        hold_create(cash, 1_000, "Review", "review-case:1", created_by=bob)
    with pytest.raises(ReasonRequired):
        hold_create(cash, 1_000, "  ", "review-case:1", created_by=reviewer)
    hold = hold_create(cash, 1_000, "Review", "review-case:1", created_by=reviewer)
    with pytest.raises(NotPermitted, match=r"wallet\.release_hold"):
        hold_release(hold, support, "Support may not decide reviews")
    with pytest.raises(NotPermitted, match=r"wallet\.seize_hold"):
        hold_seize(hold, support, "Support may not decide reviews", proposed_by=reviewer)
    with pytest.raises(NotPermitted, match=r"wallet\.seize_hold"):
        hold_seize(hold, reviewer, "Support may not propose seizures", proposed_by=support)
    with pytest.raises(ReasonRequired):
        hold_release(hold, reviewer, "")
    assert balance_of(cash) == 9_000


def test_a_hold_cannot_take_more_than_the_account_holds(alice: User, reviewer: User) -> None:
    before = ledger_row_counts()
    with pytest.raises(InsufficientFunds):
        hold_create(player_cash_account(alice), 10_001, "Review", "review-case:1", created_by=reviewer)
    assert ledger_row_counts() == before


def test_a_retried_hold_with_the_same_key_is_the_same_hold(alice: User, reviewer: User) -> None:
    cash = player_cash_account(alice)
    first = hold_create(cash, 1_000, "Review", "review-case:1", created_by=reviewer, idempotency_key="case-1-hold")
    again = hold_create(cash, 1_000, "Review", "review-case:1", created_by=reviewer, idempotency_key="case-1-hold")
    assert again.pk == first.pk
    assert balance_of(cash) == 9_000
