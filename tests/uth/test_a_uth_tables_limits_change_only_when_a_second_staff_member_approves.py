"""Issue 30 (UTH-22, LOB-07): a UTH table's bet limits, chips and clocks change by a proposal with a reason that a
second staff member approves; a maximum over the highest at any table, or less time to bet or decide than the
defaults, needs an administrator; the proposer never decides it and compliance reviewers do neither."""

from __future__ import annotations

from typing import Any

import pytest

from games.uth.limit_changes import UTH_TABLE_LIMITS, table_target
from games.uth.models import UthLimitChange, UthTable
from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve, rule_change_propose
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db


def propose(proposer: Any, table: UthTable, **changes: Any) -> Any:
    return rule_change_propose(proposer, UTH_TABLE_LIMITS.name, table_target(table), changes, "Limit review")


def test_new_limits_apply_only_when_a_second_support_agent_approves(table: UthTable) -> None:
    first, second = staff_member(SUPPORT_STAFF, "first"), staff_member(SUPPORT_STAFF, "second")
    proposal = propose(first, table, ante_minimum=200, trips_maximum=2_000)
    table.refresh_from_db()
    assert (table.ante_minimum, table.trips_maximum) != (200, 2_000)

    with pytest.raises(RuleChangeRefused, match="cannot approve it"):
        rule_change_approve(proposal, first)
    rule_change_approve(proposal, second)

    table.refresh_from_db()
    assert (table.ante_minimum, table.trips_maximum) == (200, 2_000)
    assert UthLimitChange.objects.get(table=table).changed_by == second


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"ante_maximum": 1_000_000}, "Ante maximum over the highest"),
        ({"decision_seconds": 4}, "decision seconds 4 under"),
        ({"betting_seconds": 5}, "betting seconds 5 under"),
    ],
)
def test_more_house_money_at_risk_or_less_time_needs_an_administrator(
    table: UthTable, changes: dict[str, Any], why: str
) -> None:
    proposal = propose(staff_member(SUPPORT_STAFF, "first"), table, **changes)
    assert proposal.needs_administrator

    with pytest.raises(RuleChangeRefused, match=why):
        rule_change_approve(proposal, staff_member(SUPPORT_STAFF, "second"))
    rule_change_approve(proposal, staff_member(ADMINISTRATORS, "administrator"))
    table.refresh_from_db()
    assert all(getattr(table, name) == value for name, value in changes.items())


@pytest.mark.parametrize(
    "changes",
    [
        {"ante_minimum": 101},  # not a 2-cent step (the Blind pays 1.5:1)
        {"ante_minimum": 60_000},  # above the maximum
        {"decision_seconds": 2},  # under the 3 s floor of the tables
        {"ante_maximum": "50000"},
        {"chip_values": [500, 100]},
        {"is_open": False},
        {},
    ],
)
def test_limits_the_table_refuses_or_that_change_nothing_are_refused(table: UthTable, changes: dict[str, Any]) -> None:
    with pytest.raises(RuleChangeRefused):
        propose(staff_member(SUPPORT_STAFF), table, **changes)


def test_compliance_reviewers_neither_propose_nor_approve_limits(table: UthTable) -> None:
    reviewer = staff_member(COMPLIANCE_REVIEWERS)
    with pytest.raises(RuleChangeRefused, match=r"uth\.change_uthtable"):
        propose(reviewer, table, ante_minimum=200)
    proposal = propose(staff_member(SUPPORT_STAFF), table, ante_minimum=200)
    with pytest.raises(RuleChangeRefused, match=r"uth\.change_uthtable"):
        rule_change_approve(proposal, reviewer)


def test_a_new_table_opens_with_the_default_limits_and_its_own_are_proposed(db: None) -> None:
    agent = staff_member(SUPPORT_STAFF)
    client = logged_in(agent)
    response = client.post(
        "/admin/uth/uthtable/add/",
        {
            "name": "High roller",
            "is_open": "on",
            "ante_minimum": "10000",
            "ante_maximum": "5000000",
            "trips_minimum": "100",
            "trips_maximum": "10000",
            "chip_values": "[10000]",
            "betting_seconds": "15",
            "decision_seconds": "10",
            "result_seconds": "6",
            "rules_version": UthTable._meta.get_field("rules_version").get_default(),
            "reason": "A high-stakes table",
        },
    )

    assert response.status_code == 302
    table = UthTable.objects.get(name="High roller")
    assert (table.ante_minimum, table.ante_maximum) == (100, 50_000)
    proposal = table_target(table)
    from poker_site.core.models import RuleChangeProposal

    pending = RuleChangeProposal.objects.get(target=proposal)
    assert (pending.changes["ante_maximum"], pending.needs_administrator) == (5_000_000, True)
