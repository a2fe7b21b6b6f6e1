"""Issue 30, four eyes, role by role: the privilege grant (kind ``staff_privileges``) is proposed and approved by
administrators only. Support and compliance reviewers may neither propose nor approve one; an account given the
administrators' permission ``core.approve_any_rule_change`` by hand is still no administrator: a grant it proposes or
approves is not applied. A grant never removes anything, and one grant per account waits at a time."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from poker_site.accounts.models import User
from poker_site.accounts.privilege_grants import STAFF_PRIVILEGES_KIND
from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve, rule_change_propose
from tests.accounts.privileges import NONE, REASON, grants_waiting, privileges
from tests.foundation.staff_roles import WITHOUT_A_ROLE, staff_member

pytestmark = pytest.mark.django_db

SUPERUSER = {"is_staff": True, "is_superuser": True, "groups": [], "user_permissions": []}


def hire() -> User:
    return User.objects.create_user(username="hire", email="hire@example.com", password="a-long-passphrase-42")


def target(user: User) -> str:
    return f"accounts.user:{user.pk}"


def manager_with_the_administrators_permission() -> User:
    manager = staff_member(WITHOUT_A_ROLE, "manager")
    manager.user_permissions.add(Permission.objects.get(codename="approve_any_rule_change"))
    return User.objects.get(pk=manager.pk)


@pytest.mark.parametrize("role", [SUPPORT_STAFF, COMPLIANCE_REVIEWERS])
def test_support_and_compliance_can_neither_propose_nor_approve_a_grant(role: str) -> None:
    staff, account = staff_member(role), hire()
    with pytest.raises(RuleChangeRefused, match="may not propose"):
        rule_change_propose(staff, STAFF_PRIVILEGES_KIND, target(account), SUPERUSER, REASON)
    proposal = rule_change_propose(
        staff_member(ADMINISTRATORS, "admin"), STAFF_PRIVILEGES_KIND, target(account), SUPERUSER, REASON
    )
    with pytest.raises(RuleChangeRefused, match="may not approve"):
        rule_change_approve(proposal, staff)
    assert privileges(account) == NONE


def test_an_account_with_the_administrators_permission_but_no_superuser_status_grants_nothing() -> None:
    manager, administrator, account = manager_with_the_administrators_permission(), staff_member(ADMINISTRATORS), hire()

    by_manager = rule_change_propose(manager, STAFF_PRIVILEGES_KIND, target(account), SUPERUSER, REASON)
    with pytest.raises(RuleChangeRefused, match="two administrators"):
        rule_change_approve(by_manager, administrator)
    by_administrator = rule_change_propose(administrator, STAFF_PRIVILEGES_KIND, target(hire_two()), SUPERUSER, REASON)
    with pytest.raises(RuleChangeRefused, match="two administrators"):
        rule_change_approve(by_administrator, manager)

    assert privileges(account) == NONE
    assert len(grants_waiting()) == 2  # refused approvals leave both waiting


def hire_two() -> User:
    return User.objects.create_user(username="hire2", email="hire2@example.com", password="a-long-passphrase-42")


def test_a_grant_that_removes_or_adds_nothing_is_refused_and_one_grant_waits_per_account() -> None:
    administrator, agent = staff_member(ADMINISTRATORS, "admin"), staff_member(SUPPORT_STAFF, "agent")

    with pytest.raises(RuleChangeRefused, match="only adds privileges"):
        rule_change_propose(administrator, STAFF_PRIVILEGES_KIND, target(agent), {"is_staff": False}, REASON)
    with pytest.raises(RuleChangeRefused, match="nothing would be granted"):
        rule_change_propose(
            administrator, STAFF_PRIVILEGES_KIND, target(agent), {"is_staff": True, "groups": [SUPPORT_STAFF]}, REASON
        )
    rule_change_propose(
        administrator, STAFF_PRIVILEGES_KIND, target(agent), {**SUPERUSER, "groups": [SUPPORT_STAFF]}, REASON
    )
    with pytest.raises(RuleChangeRefused, match="already awaits approval"):
        rule_change_propose(
            administrator, STAFF_PRIVILEGES_KIND, target(agent), {**SUPERUSER, "groups": [SUPPORT_STAFF]}, REASON
        )
