"""Issue 30 (four eyes on money), FRD-04 (withheld winnings: "release or confiscate with audit"), FRD-10 (1) (seize the
funds in the account), FRD-18 (the case's decisions, all audited): one compliance reviewer can no longer confiscate a
player's withheld funds alone. Withholding stays one reviewer's act; a seizure is proposed by one holder of
``wallet.seize_hold`` (hold, amount, reason) and applied only when another one approves it — never the proposer — and
then the money moves once, the ledger reconciles, and the audit and the case name both reviewers. Releasing the hold
while the seizure awaits approval stays possible and withdraws the seizure (its own file:
test_a_decided_hold_withdraws_its_pending_seizure.py). Support staff neither propose nor approve a seizure. The case
page shows the pending seizure with its approval link."""

from __future__ import annotations

from typing import Any

import pytest

from compliance.models import CaseAction, CaseActionKind
from compliance.services import case_hold_create, case_hold_seizure_propose
from poker_site.core.models import RuleChangeProposal, RuleChangeStatus
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve, rule_change_propose, rule_change_reject
from tests.compliance.desk.support import case_about, everything_that_records, player
from tests.tables.back_office import logged_in
from tests.tables.support import cash
from wallet.errors import NotPermitted
from wallet.models import AccountKind, AuditEntry, Hold, HoldStatus
from wallet.services import balance_of, hold_seize, ledger_reconcile, system_account, withheld_total

pytestmark = pytest.mark.django_db

REASON = "Winnings from hands against one opponent are under review."
GROUNDS = "Chip dumping confirmed (FRD-14)"


def _withheld(reviewer: Any, amount: int = 20_000) -> tuple[Any, Any, Hold]:
    alice = player("alice", cash=50_000)
    case = case_about(reviewer, alice)
    return alice, case, case_hold_create(case, reviewer, alice, amount, REASON)


def _seized() -> int:
    return balance_of(system_account(AccountKind.HOUSE_SEIZED))


def test_issue_30_frd10_a_proposed_seizure_moves_nothing_and_its_proposer_cannot_approve_it(reviewer: Any) -> None:
    alice, case, hold = _withheld(reviewer)
    seized_before = _seized()

    proposal = case_hold_seizure_propose(case, reviewer, hold, GROUNDS)

    assert (proposal.kind, proposal.target, proposal.status) == (
        "hold_seizure",
        f"wallet.hold:{hold.pk}",
        RuleChangeStatus.PENDING,
    )
    assert proposal.changes == {"amount": 20_000}  # proposed without an amount: the whole hold
    before = everything_that_records()
    with pytest.raises(RuleChangeRefused, match="the one who proposed it cannot approve it"):
        rule_change_approve(proposal, reviewer, "I am sure")
    with pytest.raises(NotPermitted, match="second staff member"):
        hold_seize(hold, reviewer, GROUNDS, proposed_by=reviewer)  # nor through the wallet directly
    hold.refresh_from_db()
    proposal.refresh_from_db()
    assert (hold.status, proposal.status) == (HoldStatus.HELD, RuleChangeStatus.PENDING)
    assert everything_that_records() == before
    assert (_seized() - seized_before, withheld_total(alice), cash(alice)) == (0, 20_000, 30_000)


def test_issue_30_frd04_a_second_reviewer_approves_and_the_money_moves_once_with_both_named(
    reviewer: Any, second_reviewer: Any
) -> None:
    alice, case, hold = _withheld(reviewer)
    seized_before = _seized()
    proposal = case_hold_seizure_propose(case, reviewer, hold, GROUNDS, amount=15_000)

    approved = rule_change_approve(proposal, second_reviewer, "Agreed: the hands show it")

    assert (approved.status, approved.decided_by) == (RuleChangeStatus.APPROVED, second_reviewer)
    hold.refresh_from_db()
    assert (hold.status, hold.seized_amount, hold.decided_by) == (HoldStatus.SEIZED, 15_000, second_reviewer)
    assert hold.decision_reason == GROUNDS
    assert _seized() - seized_before == 15_000
    assert (cash(alice), withheld_total(alice)) == (35_000, 0)  # the rest back to the player in the same transfer
    assert ledger_reconcile() == []

    with pytest.raises(RuleChangeRefused, match="already approved"):
        rule_change_approve(proposal, second_reviewer, "Again")
    assert _seized() - seized_before == 15_000  # once

    wallet_entry = AuditEntry.objects.get(action="hold_seized", details__hold=hold.pk)
    assert wallet_entry.actor == second_reviewer
    assert wallet_entry.details["proposed_by"] == reviewer.username
    assert wallet_entry.details["approved_by"] == second_reviewer.username
    assert wallet_entry.details["rule_change"] == proposal.pk
    case_action = CaseAction.objects.get(case=case, kind=CaseActionKind.HOLD_SEIZED)
    assert case_action.actor == second_reviewer
    assert (case_action.details["proposed_by"], case_action.details["approved_by"]) == (
        reviewer.username,
        second_reviewer.username,
    )
    assert AuditEntry.objects.filter(
        action="rule_change_proposed", actor=reviewer, details__rule_change=proposal.pk
    ).exists()
    assert AuditEntry.objects.filter(
        action="rule_change_approved", actor=second_reviewer, details__rule_change=proposal.pk
    ).exists()


def test_issue_30_support_staff_neither_propose_nor_approve_a_seizure(
    reviewer: Any, support_agent: Any, second_reviewer: Any
) -> None:
    alice, case, hold = _withheld(reviewer)
    before = everything_that_records()

    with pytest.raises(NotPermitted):
        case_hold_seizure_propose(case, support_agent, hold, GROUNDS)
    with pytest.raises(RuleChangeRefused, match=r"wallet\.seize_hold"):
        rule_change_propose(support_agent, "hold_seizure", f"wallet.hold:{hold.pk}", {}, GROUNDS)
    assert (
        logged_in(support_agent)
        .post(f"/compliance/cases/{case.pk}/seize/", {"seize-hold": hold.pk, "seize-reason": GROUNDS})
        .status_code
        == 403
    )
    assert not RuleChangeProposal.objects.exists()

    assert everything_that_records() == before

    proposal = case_hold_seizure_propose(case, reviewer, hold, GROUNDS)
    proposed = everything_that_records()
    with pytest.raises(RuleChangeRefused, match=r"wallet\.seize_hold"):
        rule_change_approve(proposal, support_agent, "Looks right")
    with pytest.raises(RuleChangeRefused, match=r"wallet\.seize_hold"):
        rule_change_reject(proposal, support_agent, "Looks wrong")
    page = logged_in(support_agent).post(f"/admin/core/rulechangeproposal/{proposal.pk}/approve/", {"note": ""})
    assert page.status_code == 200
    assert "wallet.seize_hold" in page.content.decode()
    hold.refresh_from_db()
    proposal.refresh_from_db()
    assert (hold.status, proposal.status) == (HoldStatus.HELD, RuleChangeStatus.PENDING)
    assert everything_that_records() == proposed
    assert withheld_total(alice) == 20_000


def test_issue_30_the_desk_proposes_and_shows_the_pending_seizure_with_its_approval_link(
    reviewer: Any, second_reviewer: Any
) -> None:
    alice, case, hold = _withheld(reviewer)
    seized_before = _seized()

    response = logged_in(reviewer).post(
        f"/compliance/cases/{case.pk}/seize/",
        {"seize-hold": hold.pk, "seize-amount": "200.00", "seize-reason": GROUNDS},
        follow=True,
    )

    proposal = RuleChangeProposal.objects.get(kind="hold_seizure", target=f"wallet.hold:{hold.pk}")
    text = response.content.decode()
    assert f"Seizure of hold #{hold.pk} proposed (rule change #{proposal.pk})" in text
    assert "You proposed it: another reviewer approves or rejects it." in text
    assert _seized() == seized_before
    assert withheld_total(alice) == 20_000
    again = logged_in(reviewer).post(
        f"/compliance/cases/{case.pk}/seize/", {"seize-hold": hold.pk, "seize-reason": "Once more"}
    )
    assert again.status_code == 400
    assert "already awaits approval" in again.content.decode()
    assert RuleChangeProposal.objects.count() == 1

    second = logged_in(second_reviewer)
    page = second.get(f"/compliance/cases/{case.pk}/").content.decode()
    approve_url = f"/admin/core/rulechangeproposal/{proposal.pk}/approve/"
    assert approve_url in page
    assert second.post(approve_url, {"note": "Agreed"}).status_code == 302

    hold.refresh_from_db()
    assert hold.status == HoldStatus.SEIZED
    assert _seized() - seized_before == 20_000
    assert ledger_reconcile() == []
    assert approve_url not in second.get(f"/compliance/cases/{case.pk}/").content.decode()
