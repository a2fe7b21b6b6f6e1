"""FRD-04, FRD-10, FRD-18: a reviewer withholds a subject's winnings for a case with a reason: the money moves to the
player's withheld account through the ledger, the player is under review — they can play but a withdrawal is refused
with that reason — and the hold is then released or seized, in whole or in part, once. A seizure is proposed by one
reviewer and applied when a second one approves it (issue 30). A seizure larger than the hold or a second decision on
the same hold is refused with a clear error and changes nothing; the ledger stays balanced."""

from __future__ import annotations

from typing import Any

import pytest

from compliance.models import AccountStanding, CaseActionKind, CaseOutcome, Standing
from compliance.services import case_close, case_hold_create, case_hold_release, case_hold_seizure_propose
from games.services import seat_take
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS
from poker_site.core.models import RuleChangeProposal, RuleChangeStatus
from tests.compliance.desk.support import case_about, everything_that_records, player
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in
from tests.tables.support import cash, open_table
from wallet.errors import HoldAlreadyDecided, InsufficientFunds, InvalidAmount, WithdrawalRefused
from wallet.models import AccountKind, HoldStatus
from wallet.services import balance_of, ledger_reconcile, system_account, withdrawal_create, withheld_total

pytestmark = pytest.mark.django_db

REASON = "Winnings from hands against one opponent are under review."


def test_a_hold_moves_the_winnings_out_of_reach_and_puts_the_player_under_review(reviewer: Any) -> None:
    alice = player("alice", cash=50_000)
    case = case_about(reviewer, alice)
    client = logged_in(reviewer)

    response = client.post(
        f"/compliance/cases/{case.pk}/hold/",
        {"hold-player": alice.pk, "hold-amount": "200.00", "hold-reason": REASON, "hold-idempotency_key": "k-1"},
    )

    assert response.status_code == 302
    assert cash(alice) == 30_000
    assert withheld_total(alice) == 20_000
    standing = AccountStanding.objects.get(user=alice)
    assert (standing.state, standing.reason, standing.case) == (Standing.UNDER_REVIEW, REASON, case)
    assert case.actions.filter(kind=CaseActionKind.HOLD, subject=alice).exists()
    assert ledger_reconcile() == []
    again = client.post(
        f"/compliance/cases/{case.pk}/hold/",
        {"hold-player": alice.pk, "hold-amount": "200.00", "hold-reason": REASON, "hold-idempotency_key": "k-1"},
    )
    assert again.status_code == 302
    assert withheld_total(alice) == 20_000  # the same form sent twice withholds once


def test_a_player_under_review_can_play_but_cannot_withdraw_and_is_told_why(reviewer: Any) -> None:
    alice = player("alice", cash=50_000)
    case = case_about(reviewer, alice)
    case_hold_create(case, reviewer, alice, 20_000, REASON)
    before = cash(alice)

    with pytest.raises(WithdrawalRefused, match=REASON):
        withdrawal_create(alice, 5_000, "withdraw-1")
    page = logged_in(alice).post(
        "/wallet/withdraw/", {"withdraw-amount": "50", "withdraw-idempotency_key": "withdraw-2"}
    )
    assert page.status_code == 400
    assert REASON in page.content.decode()
    assert cash(alice) == before

    seat_take(alice, open_table(), 1_000)  # playing goes on
    assert cash(alice) == before - 1_000


def test_closing_the_case_ends_the_review_and_withdrawals_work_again(reviewer: Any) -> None:
    alice = player("alice", cash=50_000)
    case = case_about(reviewer, alice)
    hold = case_hold_create(case, reviewer, alice, 20_000, REASON)
    case_hold_release(case, reviewer, hold, "Nothing wrong found")
    case_close(case, reviewer, outcome=CaseOutcome.NO_VIOLATION, decision="Nothing wrong found.")
    assert AccountStanding.objects.get(user=alice).state == Standing.ACTIVE
    assert withdrawal_create(alice, 5_000, "withdraw-3").status == "completed"


def test_a_release_pays_the_hold_back_to_the_player(reviewer: Any) -> None:
    alice = player("alice", cash=50_000)
    case = case_about(reviewer, alice)
    hold = case_hold_create(case, reviewer, alice, 20_000, REASON)
    response = logged_in(reviewer).post(
        f"/compliance/cases/{case.pk}/release/", {"release-hold": hold.pk, "release-reason": "Cleared"}
    )
    assert response.status_code == 302
    hold.refresh_from_db()
    assert hold.status == HoldStatus.RELEASED
    assert cash(alice) == 50_000
    assert ledger_reconcile() == []


def test_a_seizure_of_part_of_a_hold_pays_the_rest_back_in_the_same_transfer(reviewer: Any) -> None:
    alice = player("alice", cash=50_000)
    case = case_about(reviewer, alice)
    hold = case_hold_create(case, reviewer, alice, 20_000, REASON)
    seized_before = balance_of(system_account(AccountKind.HOUSE_SEIZED))

    response = logged_in(reviewer).post(
        f"/compliance/cases/{case.pk}/seize/",
        {"seize-hold": hold.pk, "seize-amount": "150.00", "seize-reason": "Chip dumping confirmed (FRD-14)"},
    )

    assert response.status_code == 302
    hold.refresh_from_db()
    assert hold.status == HoldStatus.HELD  # issue 30: proposed only; a second reviewer approves
    proposal = RuleChangeProposal.objects.get(kind="hold_seizure", target=f"wallet.hold:{hold.pk}")
    assert (proposal.status, proposal.changes) == (RuleChangeStatus.PENDING, {"amount": 15_000})
    approved = logged_in(staff_member(COMPLIANCE_REVIEWERS, "rory")).post(
        f"/admin/core/rulechangeproposal/{proposal.pk}/approve/", {"note": "Agreed"}
    )
    assert approved.status_code == 302
    hold.refresh_from_db()
    assert (hold.status, hold.seized_amount) == (HoldStatus.SEIZED, 15_000)
    assert balance_of(system_account(AccountKind.HOUSE_SEIZED)) - seized_before == 15_000
    assert cash(alice) == 35_000
    assert withheld_total(alice) == 0
    assert hold.decision_transfer is not None
    assert hold.decision_transfer.legs.count() == 3
    assert ledger_reconcile() == []


def test_a_seizure_larger_than_the_hold_is_refused_and_changes_nothing(reviewer: Any) -> None:
    alice = player("alice", cash=50_000)
    case = case_about(reviewer, alice)
    hold = case_hold_create(case, reviewer, alice, 20_000, REASON)
    before = everything_that_records()

    response = logged_in(reviewer).post(
        f"/compliance/cases/{case.pk}/seize/",
        {"seize-hold": hold.pk, "seize-amount": "200.01", "seize-reason": "Too much"},
    )

    assert response.status_code == 400
    assert "at most that much can be seized" in response.content.decode()
    with pytest.raises(InvalidAmount):
        case_hold_seizure_propose(case, reviewer, hold, "Too much", amount=20_001)
    assert everything_that_records() == before
    assert not RuleChangeProposal.objects.exists()


def test_a_second_decision_on_the_same_hold_is_refused_and_changes_nothing(reviewer: Any) -> None:
    alice = player("alice", cash=50_000)
    case = case_about(reviewer, alice)
    hold = case_hold_create(case, reviewer, alice, 20_000, REASON)
    case_hold_release(case, reviewer, hold, "Cleared")
    before = everything_that_records()

    response = logged_in(reviewer).post(
        f"/compliance/cases/{case.pk}/seize/", {"seize-hold": hold.pk, "seize-reason": "Second thoughts"}
    )

    assert response.status_code == 400
    assert "a hold is decided once" in response.content.decode()
    with pytest.raises(HoldAlreadyDecided):
        case_hold_release(case, reviewer, hold, "Again")
    with pytest.raises(HoldAlreadyDecided):
        case_hold_seizure_propose(case, reviewer, hold, "Second thoughts")
    assert everything_that_records() == before
    assert not RuleChangeProposal.objects.exists()


def test_withholding_more_than_the_cash_balance_is_refused_and_changes_nothing(reviewer: Any) -> None:
    alice = player("alice", cash=5_000)
    case = case_about(reviewer, alice)
    before = everything_that_records()
    with pytest.raises(InsufficientFunds):
        case_hold_create(case, reviewer, alice, 6_000, REASON)
    assert everything_that_records() == before
