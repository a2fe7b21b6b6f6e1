"""Issue 30 (RAKE-02, RAKE-08, CASH-01..03): a stake's terms change by a proposal with a reason that a second staff
member approves; only then a new terms row is added, from the time proposed. The proposer never decides it; a rake rate
over 10 % or a cap over the catalog's highest needs an administrator; the terms rows are never edited in the admin."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Stake, StakeTerms
from games.terms_changes import catalog_highest_rake_cap
from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve, rule_change_propose
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in, support_agent
from tests.tables.support import stake
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db

KIND = "stake_terms"


def _proposal(proposer: Any, the_stake: Stake, **changes: Any) -> Any:
    when = (timezone.now() + timedelta(hours=1)).isoformat()
    return rule_change_propose(
        proposer, KIND, f"games.stake:{the_stake.pk}", {"effective_from": when, **changes}, "Rake review"
    )


def test_new_terms_are_added_only_when_a_second_support_agent_approves() -> None:
    the_stake = stake("holdem", "NL10")
    rows_before = StakeTerms.objects.filter(stake=the_stake).count()
    proposer, approver = support_agent("sue"), support_agent("sid")
    proposal = _proposal(proposer, the_stake, rake_rate_basis_points=400)
    assert StakeTerms.objects.filter(stake=the_stake).count() == rows_before

    with pytest.raises(RuleChangeRefused, match="second staff member"):
        rule_change_approve(proposal, proposer)
    rule_change_approve(proposal, approver)

    new = StakeTerms.objects.filter(stake=the_stake).latest("effective_from")
    assert new.rake_rate_basis_points == 400
    assert new.effective_from > timezone.now()
    assert the_stake.terms_at().rake_rate_basis_points != 400  # in force from the time proposed, not before
    actions = AuditEntry.objects.filter(target=f"games.stake:{the_stake.pk}").order_by("pk")
    assert [entry.action for entry in actions] == ["rule_change_proposed", "rule_change_approved"]


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"rake_rate_basis_points": 1_001}, "rake rate over 10 %"),
        ({"rake_cap": "highest + 1"}, "rake cap over the catalog's highest"),
    ],
)
def test_a_rake_out_of_the_usual_range_needs_an_administrator(changes: dict[str, Any], why: str) -> None:
    the_stake = stake("holdem", "NL10")
    if changes.get("rake_cap") == "highest + 1":
        changes = {"rake_cap": catalog_highest_rake_cap(timezone.now()) + 1}
    proposal = _proposal(support_agent("sue"), the_stake, **changes)
    assert proposal.needs_administrator

    with pytest.raises(RuleChangeRefused, match=why):
        rule_change_approve(proposal, support_agent("sid"))
    rule_change_approve(proposal, staff_member(ADMINISTRATORS, "ada"))


@pytest.mark.parametrize(
    "changes",
    [
        {"big_blind": 0},
        {"small_blind": 50, "big_blind": 10},
        {"rake_rate_basis_points": 10_001},
        {"seats": 11},
    ],
)
def test_terms_the_rows_refuse_are_refused_when_proposed(changes: dict[str, Any]) -> None:
    the_stake = stake("holdem", "NL10")
    with pytest.raises(RuleChangeRefused):
        _proposal(support_agent("sue"), the_stake, **changes)


def test_terms_taking_effect_in_the_past_are_refused() -> None:
    the_stake = stake("holdem", "NL10")
    past = (timezone.now() - timedelta(minutes=1)).isoformat()
    with pytest.raises(RuleChangeRefused, match="has passed"):
        rule_change_propose(support_agent("sue"), KIND, f"games.stake:{the_stake.pk}", {"effective_from": past}, "x")


def test_compliance_reviewers_neither_propose_nor_approve_terms() -> None:
    from poker_site.accounts.roles import COMPLIANCE_REVIEWERS

    the_stake = stake("holdem", "NL10")
    reviewer = staff_member(COMPLIANCE_REVIEWERS, "rita")
    with pytest.raises(RuleChangeRefused, match=r"games\.add_staketerms"):
        _proposal(reviewer, the_stake, rake_cap=100)
    proposal = _proposal(support_agent("sue"), the_stake, rake_cap=100)
    with pytest.raises(RuleChangeRefused, match=r"games\.add_staketerms"):
        rule_change_approve(proposal, reviewer)


def test_the_admin_adds_no_terms_row_and_the_stake_page_proposes_them() -> None:
    the_stake = stake("holdem", "NL10")
    agent = support_agent("sue")
    client = logged_in(agent)
    assert client.get("/admin/games/staketerms/add/").status_code == 403
    page = client.get(f"/admin/games/stake/{the_stake.pk}/propose-terms/")
    assert page.status_code == 200
    data = {name: value for name, value in page.context["form"].initial.items() if value is not None}
    data.update(
        {
            "effective_from": (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%d 12:00:00"),
            "rake_rate_basis_points": "450",
            "reason": "Market rate",
            "enabled": "on",
        }
    )
    response = client.post(f"/admin/games/stake/{the_stake.pk}/propose-terms/", data)
    assert response.status_code == 302, response.context["form"].errors if response.context else ""
    from poker_site.core.models import RuleChangeProposal

    proposal = RuleChangeProposal.objects.get()
    assert proposal.changes["rake_rate_basis_points"] == 450
    assert proposal.proposed_by == agent
