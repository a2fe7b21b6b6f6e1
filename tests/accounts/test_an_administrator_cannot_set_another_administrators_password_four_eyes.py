"""Issue 30, four eyes: an administrator who could set another administrator's password could log in as that second
administrator and approve their own proposals (money, grants) alone. So the admin's "set a password" page refuses
another administrator's account (403); an administrator still sets their own and a staff member's password. A
forgotten administrator password is replaced with `manage.py changepassword` (shell access)."""

from __future__ import annotations

import pytest

from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import SUPPORT_STAFF
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-brand-new-passphrase-77"
FORM = {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true", "reason": "Ticket 9002"}


def test_an_administrator_sets_their_own_and_a_staff_members_password_but_not_another_administrators() -> None:
    administrator, colleague = staff_member(ADMINISTRATORS, "admin"), staff_member(ADMINISTRATORS, "admin2")
    agent = staff_member(SUPPORT_STAFF, "agent")
    client = logged_in(administrator)

    refused = client.post(f"/admin/accounts/user/{colleague.pk}/password/", FORM)
    for_agent = client.post(f"/admin/accounts/user/{agent.pk}/password/", FORM)
    own = client.post(f"/admin/accounts/user/{administrator.pk}/password/", FORM)

    assert refused.status_code == 403
    colleague.refresh_from_db()
    assert not colleague.check_password(NEW_PASSWORD)
    assert for_agent.status_code == 302
    agent.refresh_from_db()
    assert agent.check_password(NEW_PASSWORD)
    assert own.status_code == 302
