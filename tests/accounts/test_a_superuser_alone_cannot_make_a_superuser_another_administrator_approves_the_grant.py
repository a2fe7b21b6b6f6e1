"""Issue 30, four eyes (QA finding 4): one administrator alone defeated every four-eyes rule by making a second
superuser and approving their own money with it. Now an administrator's grant of superuser status, staff status, a
group or a permission on an account's page is only proposed (with a reason); the account holds nothing more until a
different administrator approves it, never the proposer and never the account the privileges are for. Proposal and
approval are in the audit log."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from poker_site.accounts.models import User
from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import SUPPORT_STAFF
from poker_site.core.models import RuleChangeStatus
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve, rule_change_reject
from tests.accounts.privileges import NONE, REASON, account_form, change_page, grants_waiting, privileges
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db


def new_hire() -> User:
    return User.objects.create_user(username="new-hire", email="new-hire@example.com", password="a-long-passphrase-42")


def test_ticking_superuser_status_only_proposes_it_and_a_second_administrator_approves_it() -> None:
    administrator, second = staff_member(ADMINISTRATORS, "admin"), staff_member(ADMINISTRATORS, "admin2")
    hire = new_hire()

    saved = logged_in(administrator).post(
        change_page(hire),
        account_form(hire, is_staff=True, is_superuser=True, groups=(SUPPORT_STAFF,), privileges_reason=REASON),
    )

    assert saved.status_code == 302
    assert privileges(hire) == NONE  # nothing before the approval
    [proposal] = grants_waiting()
    assert proposal.proposed_by == administrator
    assert proposal.target == f"accounts.user:{hire.pk}"
    assert proposal.reason == REASON
    assert proposal.needs_administrator
    assert "superuser status" in proposal.summary
    assert "group Support staff" in proposal.summary

    approved = logged_in(second).post(f"/admin/core/rulechangeproposal/{proposal.pk}/approve/", {"note": "Checked"})

    assert approved.status_code == 302
    assert privileges(hire) == (True, True, [SUPPORT_STAFF], [])
    proposal.refresh_from_db()
    assert (proposal.status, proposal.decided_by) == (RuleChangeStatus.APPROVED, second)
    entries = AuditEntry.objects.filter(target=f"accounts.user:{hire.pk}", action__startswith="rule_change_")
    assert list(entries.order_by("pk").values_list("action", "actor__username")) == [
        ("rule_change_proposed", "admin"),
        ("rule_change_approved", "admin2"),
    ]


def test_the_proposer_can_neither_approve_nor_reject_their_own_grant() -> None:
    administrator, hire = staff_member(ADMINISTRATORS, "admin"), new_hire()
    client = logged_in(administrator)
    client.post(change_page(hire), account_form(hire, is_superuser=True, privileges_reason=REASON))
    [proposal] = grants_waiting()

    with pytest.raises(RuleChangeRefused, match="cannot approve"):
        rule_change_approve(proposal, administrator)
    with pytest.raises(RuleChangeRefused, match="second staff member"):
        rule_change_reject(proposal, administrator, "Never mind")
    page = client.post(f"/admin/core/rulechangeproposal/{proposal.pk}/approve/", {"note": ""})

    assert page.status_code == 200  # the page again, with the refusal
    assert privileges(hire) == NONE
    assert grants_waiting() == [proposal]


def test_the_account_the_privileges_are_for_cannot_approve_them() -> None:
    """Another administrator's grant of a group to an administrator: not for that administrator to approve."""
    administrator, colleague = staff_member(ADMINISTRATORS, "admin"), staff_member(ADMINISTRATORS, "admin2")
    logged_in(administrator).post(
        change_page(colleague),
        account_form(colleague, is_staff=True, is_superuser=True, groups=(SUPPORT_STAFF,), privileges_reason=REASON),
    )
    [proposal] = grants_waiting()

    with pytest.raises(RuleChangeRefused, match="their own account"):
        rule_change_approve(proposal, colleague)

    assert privileges(colleague)[2] == []
    assert rule_change_approve(proposal, staff_member(ADMINISTRATORS, "admin3")).status == RuleChangeStatus.APPROVED
    assert privileges(colleague)[2] == [SUPPORT_STAFF]


def test_a_grant_without_a_reason_is_refused_on_the_form_and_nothing_is_proposed() -> None:
    administrator, hire = staff_member(ADMINISTRATORS, "admin"), new_hire()

    page = logged_in(administrator).post(change_page(hire), account_form(hire, is_superuser=True, screen_name="Hy"))

    assert page.status_code == 200
    assert "Granting privileges needs a written reason" in page.content.decode()
    assert privileges(hire) == NONE
    hire.refresh_from_db()
    assert hire.screen_name is None  # the page saved nothing
    assert grants_waiting() == []


def test_a_rejected_grant_gives_nothing() -> None:
    administrator, second, hire = staff_member(ADMINISTRATORS, "admin"), staff_member(ADMINISTRATORS, "b"), new_hire()
    logged_in(administrator).post(change_page(hire), account_form(hire, is_staff=True, privileges_reason=REASON))
    [proposal] = grants_waiting()

    rule_change_reject(proposal, second, "Not hired after all")

    assert privileges(hire) == NONE
    assert Group.objects.get(name=SUPPORT_STAFF).user_set.count() == 0
