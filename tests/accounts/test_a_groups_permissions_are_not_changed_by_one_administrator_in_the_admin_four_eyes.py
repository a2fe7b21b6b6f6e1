"""Issue 30, four eyes: changing a group's permissions grants them to every member at once, so one administrator
does not do it in the admin: a group's permissions are read-only on its page (the role groups' permissions are set in
code, poker_site/accounts/roles.py, after every migrate; an account's own permissions are granted by proposal). The
group page adds no members either."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission

from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import SUPPORT_STAFF
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db


def approve_any_adjustment() -> Permission:
    return Permission.objects.get(codename="approve_any_adjustment")


def test_an_administrator_posting_a_permission_onto_the_support_group_changes_nothing() -> None:
    client = logged_in(staff_member(ADMINISTRATORS, "admin"))
    support = Group.objects.get(name=SUPPORT_STAFF)
    held = set(support.permissions.values_list("pk", flat=True))

    page = client.get(f"/admin/auth/group/{support.pk}/change/").content.decode()
    saved = client.post(
        f"/admin/auth/group/{support.pk}/change/",
        {"name": SUPPORT_STAFF, "permissions": [*held, approve_any_adjustment().pk]},
    )

    assert 'name="permissions"' not in page
    assert saved.status_code == 302
    assert set(support.permissions.values_list("pk", flat=True)) == held


def test_a_group_added_in_the_admin_holds_no_permission_and_no_member() -> None:
    client = logged_in(staff_member(ADMINISTRATORS, "admin"))

    added = client.post(
        "/admin/auth/group/add/", {"name": "Cashiers", "permissions": [approve_any_adjustment().pk], "user_set": [1]}
    )

    assert added.status_code == 302
    cashiers = Group.objects.get(name="Cashiers")
    assert not cashiers.permissions.exists()
    assert not cashiers.user_set.exists()
