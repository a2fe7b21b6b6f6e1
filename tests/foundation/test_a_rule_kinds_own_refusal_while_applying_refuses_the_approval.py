"""Issue 30: a kind of rule names the domain errors its apply raises for a change it cannot make now
(``RuleKind.refusals``: a wallet or tournament refusal); the approval turns one into ``RuleChangeRefused`` with its
message, and nothing is applied: the proposal still waits, unapproved and unaudited as approved. Any other error is
not a refusal and goes up as it is."""

from __future__ import annotations

from typing import Any

import pytest

from poker_site.accounts.roles import SUPPORT_STAFF
from poker_site.core import rule_changes
from poker_site.core.models import RuleChangeStatus
from poker_site.core.rule_changes import CheckedChange, RuleChangeRefused, RuleKind, rule_change_approve
from tests.foundation.staff_roles import staff_member
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db

KIND = "refusing_for_a_test"
PERMISSION = "core.view_rulechangeproposal"  # held by support staff


class NotNow(Exception):
    """The kind's own domain error."""


def check(target: str, changes: dict[str, Any]) -> CheckedChange:
    return CheckedChange(summary=f"{target}: {changes}", before={}, changes=changes)


def apply_decided(proposal: Any, changes: dict[str, Any]) -> None:
    if changes["error"] == "refusal":
        raise NotNow("The pool is closed for the night.")
    raise LookupError("a bug, not a refusal")


@pytest.fixture
def pending(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A kind whose apply refuses, registered for the test alone, and a function proposing a change of it."""
    kind = RuleKind(
        name=KIND,
        label="a change that refuses",
        propose_permission=PERMISSION,
        approve_permission=PERMISSION,
        check=check,
        apply_decided=apply_decided,
        refusals=(NotNow,),
    )
    monkeypatch.setitem(rule_changes._kinds, KIND, kind)  # the registry, restored after the test
    proposer = staff_member(SUPPORT_STAFF, "sue")

    def propose(error: str) -> Any:
        return rule_changes.rule_change_propose(proposer, KIND, "core.test:1", {"error": error}, "For the test")

    return propose


def test_the_kinds_own_refusal_while_applying_refuses_the_approval_and_nothing_is_applied(pending: Any) -> None:
    proposal = pending("refusal")

    with pytest.raises(RuleChangeRefused, match=r"The pool is closed for the night\.") as refused:
        rule_change_approve(proposal, staff_member(SUPPORT_STAFF, "sid"), "Agreed")

    assert isinstance(refused.value.__cause__, NotNow)
    proposal.refresh_from_db()
    assert (proposal.status, proposal.decided_by_id) == (RuleChangeStatus.PENDING, None)
    assert not AuditEntry.objects.filter(action="rule_change_approved").exists()


def test_an_error_the_kind_does_not_name_goes_up_as_it_is(pending: Any) -> None:
    proposal = pending("bug")

    with pytest.raises(LookupError, match="a bug, not a refusal"):
        rule_change_approve(proposal, staff_member(SUPPORT_STAFF, "sid"), "Agreed")

    proposal.refresh_from_db()
    assert proposal.status == RuleChangeStatus.PENDING
