"""Issue 30 (FRD-19, LOB-10): a detection threshold changes by a proposal with a reason that a second reviewer (or an
administrator) approves; nothing changes before. The proposer never decides their own proposal; a threshold of 0 or
less is refused; support staff neither propose nor approve; an approval sent twice applies once."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from compliance.models import IndicatorSetting
from compliance.services import settings_ensure
from poker_site.core.models import RuleChangeProposal, RuleChangeStatus
from poker_site.core.rule_changes import (
    RuleChangeRefused,
    rule_change_approve,
    rule_change_propose,
    rule_change_reject,
)
from tests.tables.back_office import logged_in
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db

KIND = "detection_threshold"


@pytest.fixture
def setting() -> IndicatorSetting:
    settings_ensure()
    return IndicatorSetting.objects.get(indicator="shared_connection", parameter="threshold")


def _target(setting: IndicatorSetting) -> str:
    return f"compliance.indicatorsetting:{setting.pk}"


def test_nothing_changes_until_a_second_reviewer_approves(
    setting: IndicatorSetting, reviewer: Any, second_reviewer: Any, django_capture_on_commit_callbacks: Any
) -> None:
    proposal = rule_change_propose(reviewer, KIND, _target(setting), {"value": 3}, "One shared address is too strict")
    setting.refresh_from_db()
    assert setting.value == 1.0
    assert proposal.summary == "shared_connection.threshold: 1 → 3"

    with django_capture_on_commit_callbacks() as callbacks:
        approved = rule_change_approve(proposal, second_reviewer, "Agreed")

    assert (approved.status, approved.decided_by) == (RuleChangeStatus.APPROVED, second_reviewer)
    setting.refresh_from_db()
    assert setting.value == 3.0
    assert callbacks, "the flags are recomputed after the commit"
    actions = list(AuditEntry.objects.filter(target=_target(setting)).order_by("pk").values_list("action", "actor"))
    assert actions == [("rule_change_proposed", reviewer.pk), ("rule_change_approved", second_reviewer.pk)]


def test_the_proposer_can_neither_approve_nor_reject(
    setting: IndicatorSetting, reviewer: Any, administrator: Any
) -> None:
    for proposer in (reviewer, administrator):
        proposal = rule_change_propose(proposer, KIND, _target(setting), {"value": 2}, "Tuning")
        with pytest.raises(RuleChangeRefused, match="second staff member"):
            rule_change_approve(proposal, proposer)
        with pytest.raises(RuleChangeRefused, match="second staff member"):
            rule_change_reject(proposal, proposer, "Withdrawn")
    setting.refresh_from_db()
    assert setting.value == 1.0
    with pytest.raises(IntegrityError, match="core_rule_change_decided_by_another"), transaction.atomic():
        RuleChangeProposal.objects.filter(proposed_by=reviewer).update(
            status=RuleChangeStatus.APPROVED, decided_by=reviewer, decided_at=timezone.now()
        )


@pytest.mark.parametrize("value", [0, -1, -0.5])
def test_a_threshold_of_zero_or_less_is_refused(setting: IndicatorSetting, reviewer: Any, value: float) -> None:
    with pytest.raises(RuleChangeRefused, match="above zero"):
        rule_change_propose(reviewer, KIND, _target(setting), {"value": value}, "Tuning")
    assert not RuleChangeProposal.objects.exists()


def test_a_proposal_needs_a_reason(setting: IndicatorSetting, reviewer: Any) -> None:
    with pytest.raises(RuleChangeRefused, match="reason"):
        rule_change_propose(reviewer, KIND, _target(setting), {"value": 2}, "  ")
    assert not RuleChangeProposal.objects.exists()


def test_support_staff_neither_propose_nor_approve_a_threshold(
    setting: IndicatorSetting, reviewer: Any, support_agent: Any
) -> None:
    with pytest.raises(RuleChangeRefused, match=r"compliance\.change_indicatorsetting"):
        rule_change_propose(support_agent, KIND, _target(setting), {"value": 2}, "Tuning")
    proposal = rule_change_propose(reviewer, KIND, _target(setting), {"value": 2}, "Tuning")
    with pytest.raises(RuleChangeRefused, match=r"compliance\.change_indicatorsetting"):
        rule_change_approve(proposal, support_agent)
    setting.refresh_from_db()
    assert setting.value == 1.0


def test_an_approval_sent_twice_applies_once_and_a_rejection_needs_a_reason(
    setting: IndicatorSetting, reviewer: Any, second_reviewer: Any, administrator: Any
) -> None:
    first = rule_change_propose(reviewer, KIND, _target(setting), {"value": 2}, "Tuning")
    rule_change_approve(first, second_reviewer)
    with pytest.raises(RuleChangeRefused, match="already approved"):
        rule_change_approve(first, administrator)
    assert AuditEntry.objects.filter(action="rule_change_approved").count() == 1

    second = rule_change_propose(reviewer, KIND, _target(setting), {"value": 5}, "Tuning again")
    with pytest.raises(RuleChangeRefused, match="reason"):
        rule_change_reject(second, second_reviewer, "")
    rejected = rule_change_reject(second, second_reviewer, "Too loose")
    assert (rejected.status, rejected.decision_note) == (RuleChangeStatus.REJECTED, "Too loose")
    setting.refresh_from_db()
    assert setting.value == 2.0


def test_the_settings_page_is_read_only_and_the_change_goes_through_the_pages(
    setting: IndicatorSetting, reviewer: Any, second_reviewer: Any
) -> None:
    assert logged_in(reviewer).post(
        f"/admin/compliance/indicatorsetting/{setting.pk}/change/", {"value": "9"}
    ).status_code in (302, 403)
    setting.refresh_from_db()
    assert setting.value == 1.0

    logged_in(reviewer).post(
        f"/admin/compliance/indicatorsetting/{setting.pk}/propose/", {"value": "2", "reason": "Tuning"}
    )
    proposal = RuleChangeProposal.objects.get()
    own = logged_in(reviewer).post(f"/admin/core/rulechangeproposal/{proposal.pk}/approve/", {"note": ""})
    assert "second staff member" in own.content.decode()
    done = logged_in(second_reviewer).post(f"/admin/core/rulechangeproposal/{proposal.pk}/approve/", {"note": ""})
    assert done.status_code == 302
    setting.refresh_from_db()
    assert setting.value == 2.0
