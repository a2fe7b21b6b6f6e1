"""Issue 30 (four eyes on money), FRD-04, FRD-18: a seizure proposal can only apply to a hold still withheld. When the
hold ends while the seizure waits for its approval — a reviewer releases it (on the desk or on the hold's admin page),
or it is seized by another decision — the pending seizure is withdrawn in the same transaction: marked withdrawn with
a system reason naming how the hold ended, decided by nobody, audited (``rule_change_withdrawn``, actor the staff
member whose act ended the hold). The desk and the hold's admin page no longer show it as pending; approving or
rejecting it afterwards is refused. A release that is refused withdraws nothing. A release and an approval of the same
hold sent at once end with one of them done and nothing left pending."""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps
from django.utils import timezone

from compliance.models import Case
from compliance.seizure_changes import pending_seizures
from compliance.services import case_hold_create, case_hold_release, case_hold_seizure_propose
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS
from poker_site.core.models import RuleChangeProposal, RuleChangeStatus
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve, rule_change_reject
from tests.compliance.desk.support import case_about, player
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in
from tests.tables.support import cash
from tests.wallet.concurrency import run_simultaneously
from wallet.errors import HoldAlreadyDecided, NotPermitted
from wallet.models import AuditEntry, Hold, HoldStatus
from wallet.services import hold_release, hold_seize, ledger_reconcile, withheld_total

pytestmark = pytest.mark.django_db

REASON = "Winnings from hands against one opponent are under review."
GROUNDS = "Chip dumping confirmed (FRD-14)"


def seizure_pending_on_a_hold(reviewer: Any) -> tuple[Any, Case, Hold, RuleChangeProposal]:
    """Alice's €200.00 withheld for a case, and ``reviewer``'s proposal to seize it, waiting for approval."""
    alice = player("alice", cash=50_000)
    case = case_about(reviewer, alice)
    hold = case_hold_create(case, reviewer, alice, 20_000, REASON)
    return alice, case, hold, case_hold_seizure_propose(case, reviewer, hold, GROUNDS)


def withdrawal_entry(proposal: RuleChangeProposal) -> AuditEntry:
    return AuditEntry.objects.get(action="rule_change_withdrawn", details__rule_change=proposal.pk)


def test_releasing_a_hold_on_the_desk_withdraws_its_pending_seizure_with_a_system_reason(
    reviewer: Any, second_reviewer: Any
) -> None:
    alice, case, hold, proposal = seizure_pending_on_a_hold(reviewer)

    case_hold_release(case, second_reviewer, hold, "Reviewed again: nothing wrong")

    proposal.refresh_from_db()
    assert proposal.status == RuleChangeStatus.WITHDRAWN
    assert (proposal.decided_by_id, proposal.decided_at is not None) == (None, True)
    assert f"Hold #{hold.pk} was released by rory" in proposal.decision_note
    entry = withdrawal_entry(proposal)
    assert (entry.actor_id, entry.target, entry.reason) == (
        second_reviewer.pk,
        f"wallet.hold:{hold.pk}",
        proposal.decision_note,
    )
    assert entry.details["kind"] == "hold_seizure"
    assert (entry.before, entry.after) == ({"status": "pending"}, {"status": "withdrawn"})
    assert pending_seizures([hold]) == {}
    assert (cash(alice), withheld_total(alice)) == (50_000, 0)
    assert ledger_reconcile() == []


def test_the_desk_and_the_holds_admin_page_no_longer_show_a_withdrawn_seizure_as_pending(
    reviewer: Any, second_reviewer: Any
) -> None:
    _alice, case, hold, proposal = seizure_pending_on_a_hold(reviewer)
    approve_url = f"/admin/core/rulechangeproposal/{proposal.pk}/approve/"
    assert approve_url in logged_in(second_reviewer).get(f"/compliance/cases/{case.pk}/").content.decode()

    case_hold_release(case, second_reviewer, hold, "Reviewed again: nothing wrong")

    client = logged_in(second_reviewer)
    assert approve_url not in client.get(f"/compliance/cases/{case.pk}/").content.decode()
    assert "awaiting a second reviewer" not in client.get(f"/admin/wallet/hold/{hold.pk}/change/").content.decode()
    listed = client.get(f"/admin/core/rulechangeproposal/{proposal.pk}/change/").content.decode()
    assert "withdrawn (it can no longer apply)" in listed


def test_a_withdrawn_seizure_can_be_neither_approved_nor_rejected(reviewer: Any, second_reviewer: Any) -> None:
    _alice, case, hold, proposal = seizure_pending_on_a_hold(reviewer)
    case_hold_release(case, reviewer, hold, "Reviewed again: nothing wrong")  # the proposer may release it too

    with pytest.raises(RuleChangeRefused, match=rf"Rule change #{proposal.pk} is already withdrawn"):
        rule_change_approve(proposal, second_reviewer, "Agreed")
    with pytest.raises(RuleChangeRefused, match=rf"Rule change #{proposal.pk} is already withdrawn"):
        rule_change_reject(proposal, second_reviewer, "The hold was released")

    proposal.refresh_from_db()
    assert (proposal.status, proposal.decided_by_id) == (RuleChangeStatus.WITHDRAWN, None)
    assert withdrawal_entry(proposal).actor_id == reviewer.pk
    hold.refresh_from_db()
    assert (hold.status, hold.seized_amount) == (HoldStatus.RELEASED, None)


def test_releasing_a_hold_on_its_admin_page_withdraws_its_pending_seizure(reviewer: Any, second_reviewer: Any) -> None:
    _alice, _case, hold, proposal = seizure_pending_on_a_hold(reviewer)

    response = logged_in(second_reviewer).post(
        f"/admin/wallet/hold/{hold.pk}/decide/", {"decision": "release", "reason": "Cleared on review"}
    )

    assert response.status_code == 302
    proposal.refresh_from_db()
    assert proposal.status == RuleChangeStatus.WITHDRAWN
    assert withdrawal_entry(proposal).actor_id == second_reviewer.pk


def test_a_hold_seized_by_another_decision_withdraws_the_seizure_still_pending_on_it(
    reviewer: Any, second_reviewer: Any
) -> None:
    _alice, _case, hold, proposal = seizure_pending_on_a_hold(reviewer)

    hold_seize(hold, second_reviewer, "Seized on the wallet's own path", proposed_by=reviewer, amount=5_000)

    proposal.refresh_from_db()
    assert proposal.status == RuleChangeStatus.WITHDRAWN
    assert f"Hold #{hold.pk} was seized by rory" in proposal.decision_note
    with pytest.raises(RuleChangeRefused, match="already withdrawn"):
        rule_change_approve(proposal, second_reviewer, "Agreed")
    hold.refresh_from_db()
    assert (hold.status, hold.seized_amount) == (HoldStatus.SEIZED, 5_000)  # seized once, by the other decision
    assert ledger_reconcile() == []


def test_a_refused_release_withdraws_nothing(reviewer: Any) -> None:
    _alice, _case, hold, proposal = seizure_pending_on_a_hold(reviewer)
    owner = staff_member(COMPLIANCE_REVIEWERS, "olga")
    Hold.objects.filter(pk=hold.pk).update(player=owner)  # a reviewer's own winnings under review
    hold.refresh_from_db()

    with pytest.raises(NotPermitted, match="own account"):
        hold_release(hold, owner, "Mine")

    proposal.refresh_from_db()
    assert proposal.status == RuleChangeStatus.PENDING
    assert not AuditEntry.objects.filter(action="rule_change_withdrawn").exists()


def test_the_migration_withdraws_seizures_left_pending_on_holds_decided_before_it(
    reviewer: Any, second_reviewer: Any
) -> None:
    """Seizures left pending on holds released before this change are withdrawn by compliance migration 0006, audited
    as the service would; one on a hold still withheld stays pending."""
    from importlib import import_module

    alice, bob = player("alice", cash=50_000), player("bob", cash=50_000)
    case = case_about(reviewer, alice, bob)
    hold, live_hold = (case_hold_create(case, reviewer, subject, 1_000, REASON) for subject in (alice, bob))
    stale, live = (case_hold_seizure_propose(case, reviewer, held, GROUNDS) for held in (hold, live_hold))
    # Released before a release withdrew the seizures waiting on its hold (the row alone: the migration reads it).
    Hold.objects.filter(pk=hold.pk).update(
        status=HoldStatus.RELEASED, decided_by=second_reviewer, decided_at=timezone.now()
    )

    import_module("compliance.migrations.0006_withdraw_seizures_of_decided_holds").withdraw_stale_seizures(apps, None)

    stale.refresh_from_db()
    live.refresh_from_db()
    assert (stale.status, stale.decided_by_id, live.status) == (
        RuleChangeStatus.WITHDRAWN,
        None,
        RuleChangeStatus.PENDING,
    )
    assert f"Hold #{hold.pk} was released by rory" in stale.decision_note
    entry = withdrawal_entry(stale)
    assert (entry.actor_id, entry.target, entry.details["kind"]) == (None, f"wallet.hold:{hold.pk}", "hold_seizure")
    assert not AuditEntry.objects.filter(action="rule_change_withdrawn", details__rule_change=live.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_a_release_and_an_approval_of_the_same_hold_sent_at_once_leave_nothing_pending(
    reviewer: Any, second_reviewer: Any
) -> None:
    """Whichever wins, the other is refused with its ordinary refusal (no deadlock: both take the case, then the
    hold, then the proposal), the hold is decided once and no seizure stays pending."""
    third = staff_member(COMPLIANCE_REVIEWERS, "remy")
    for round_number in range(3):
        alice = player(f"alice{round_number}", cash=50_000)
        case = case_about(reviewer, alice)
        hold = case_hold_create(case, reviewer, alice, 20_000, REASON)
        proposal = case_hold_seizure_propose(case, reviewer, hold, GROUNDS)

        results = run_simultaneously(
            [
                lambda case=case, hold=hold: case_hold_release(case.pk, third, hold.pk, "Cleared"),
                lambda proposal=proposal: rule_change_approve(proposal.pk, second_reviewer, "Agreed"),
            ]
        )

        done = [result for result in results if not isinstance(result, BaseException)]
        refused = [result for result in results if isinstance(result, BaseException)]
        assert (len(done), len(refused)) == (1, 1), results
        hold.refresh_from_db()
        proposal.refresh_from_db()
        if hold.status == HoldStatus.RELEASED:
            assert proposal.status == RuleChangeStatus.WITHDRAWN
            assert isinstance(refused[0], RuleChangeRefused)
        else:
            assert (hold.status, proposal.status) == (HoldStatus.SEIZED, RuleChangeStatus.APPROVED)
            assert isinstance(refused[0], HoldAlreadyDecided)
        assert not RuleChangeProposal.objects.filter(status=RuleChangeStatus.PENDING).exists()
        assert ledger_reconcile() == []
