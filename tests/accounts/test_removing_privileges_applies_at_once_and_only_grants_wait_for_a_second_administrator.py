"""Issue 30, four eyes: removing privileges (a demotion, someone leaving) is protective and applies at once, by one
administrator; an edit that removes some privileges and grants others applies the removals and only proposes the
grants; and a grant proposed before the account's privileges changed cannot be approved any more (it would put back
what was removed)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve
from tests.accounts.privileges import NONE, REASON, account_form, change_page, grants_waiting, privileges
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db


def test_one_administrator_demotes_a_leaving_administrator_at_once() -> None:
    administrator, leaving = staff_member(ADMINISTRATORS, "admin"), staff_member(ADMINISTRATORS, "leaving")

    saved = logged_in(administrator).post(change_page(leaving), account_form(leaving))

    assert saved.status_code == 302
    assert privileges(leaving) == NONE
    assert grants_waiting() == []


def test_an_edit_that_removes_one_group_and_adds_another_applies_the_removal_and_proposes_the_addition() -> None:
    administrator, second = staff_member(ADMINISTRATORS, "admin"), staff_member(ADMINISTRATORS, "admin2")
    agent = staff_member(SUPPORT_STAFF, "agent")

    logged_in(administrator).post(
        change_page(agent), account_form(agent, is_staff=True, groups=(COMPLIANCE_REVIEWERS,), privileges_reason=REASON)
    )

    assert privileges(agent) == (True, False, [], [])
    [proposal] = grants_waiting()
    rule_change_approve(proposal, second)
    assert privileges(agent) == (True, False, [COMPLIANCE_REVIEWERS], [])


def test_a_grant_cannot_be_approved_once_the_accounts_privileges_changed_since_it_was_proposed() -> None:
    administrator, second = staff_member(ADMINISTRATORS, "admin"), staff_member(ADMINISTRATORS, "admin2")
    agent = staff_member(SUPPORT_STAFF, "agent")
    logged_in(administrator).post(
        change_page(agent),
        account_form(
            agent,
            is_staff=True,
            groups=(SUPPORT_STAFF,),
            permissions=("approve_any_adjustment",),
            privileges_reason=REASON,
        ),
    )
    [proposal] = grants_waiting()
    logged_in(second).post(change_page(agent), account_form(agent))  # the agent leaves: demoted at once

    with pytest.raises(RuleChangeRefused, match="changed since this was proposed"):
        rule_change_approve(proposal, second)

    assert privileges(agent) == NONE
    assert not Group.objects.get(name=SUPPORT_STAFF).user_set.exists()
