"""LOB-10: support staff edit players' accounts, never privileges. Ticking "Staff status" or "Superuser status", or
posting groups and permissions, on the user change form changes none of them (the fields are read-only for anyone but
a superuser, so the posted values are not read); an account that holds any privilege is read-only to them (its page,
its reset-link page); nobody but a superuser sets a password (issue 30: support sends a player a reset link instead);
the model's "change" permission alone is not enough; and a superuser still can, once a second superuser approves
(issue 30, four eyes)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from django.core import mail

from poker_site.accounts.models import User
from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from poker_site.core.models import RuleChangeProposal, RuleChangeStatus
from poker_site.core.rule_changes import rule_change_approve
from tests.foundation.staff_roles import WITHOUT_A_ROLE, staff_member
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db


def player(username: str = "player-pat") -> User:
    return User.objects.create_user(username=username, email=f"{username}@example.com", password="pat-old-password-42")


def change_page(user: User) -> str:
    return f"/admin/accounts/user/{user.pk}/change/"


def everything_ticked(user: User, **changes: Any) -> dict[str, Any]:
    """The change form as a browser would post it with every privilege ticked, and ``changes`` to other fields."""
    return {
        "username": user.username,
        "first_name": "",
        "last_name": "",
        "email": user.email,
        "screen_name": "",
        "is_active": "on",
        "date_joined_0": user.date_joined.strftime("%Y-%m-%d"),
        "date_joined_1": user.date_joined.strftime("%H:%M:%S"),
        "last_login_0": "",
        "last_login_1": "",
        "is_staff": "on",
        "is_superuser": "on",
        "groups": [group.pk for group in Group.objects.all()],
        "user_permissions": list(
            Permission.objects.filter(codename__in=("change_group", "change_user")).values_list("pk", flat=True)
        ),
        **changes,
    }


def privileges(user: User) -> tuple[bool, bool, list[str], list[str]]:
    user.refresh_from_db()
    return (
        user.is_staff,
        user.is_superuser,
        sorted(user.groups.values_list("name", flat=True)),
        sorted(user.user_permissions.values_list("codename", flat=True)),
    )


NONE = (False, False, [], [])


def test_support_saving_a_players_account_with_every_privilege_ticked_changes_only_the_other_fields() -> None:
    support, pat = staff_member(SUPPORT_STAFF), player()
    client = logged_in(support)

    response = client.post(change_page(pat), everything_ticked(pat, screen_name="Pat the Fish"))

    assert response.status_code == 302  # saved: the form was read, without the privilege fields
    pat.refresh_from_db()
    assert pat.screen_name == "Pat the Fish"
    assert privileges(pat) == NONE
    page = client.get(change_page(pat)).content.decode()
    assert 'name="is_superuser"' not in page
    assert 'name="is_staff"' not in page
    assert 'name="groups"' not in page
    assert 'name="is_active"' in page  # suspending a player stays support's


def test_support_cannot_make_their_own_account_or_another_staff_members_a_superuser() -> None:
    support, reviewer = staff_member(SUPPORT_STAFF), staff_member(COMPLIANCE_REVIEWERS)
    client = logged_in(support)

    for account in (support, reviewer):
        before = privileges(account)
        response = client.post(change_page(account), everything_ticked(account, email="taken-over@example.com"))
        assert response.status_code == 403
        account.refresh_from_db()
        assert account.email != "taken-over@example.com"
        assert privileges(account) == before
    assert client.get(change_page(reviewer)).status_code == 200  # still readable: support may view staff accounts
    assert 'name="email"' not in client.get(change_page(reviewer)).content.decode()


def test_support_sets_no_password_and_sends_a_reset_link_to_a_player_but_not_to_a_privileged_account() -> None:
    """Issue 30: support sets no password at all (a player's neither: a reset link goes to the address on file
    instead), and sends no reset link to an account that holds privileges."""
    support, pat = staff_member(SUPPORT_STAFF), player()
    administrator = staff_member(ADMINISTRATORS, "the-admin")
    client = logged_in(support)
    new_password = {
        "password1": "taken-over-42-xyz",
        "password2": "taken-over-42-xyz",
        "usable_password": "true",
        "reason": "Ticket 881: the player lost access to their e-mail",
    }

    refused = client.post(f"/admin/accounts/user/{administrator.pk}/password/", new_password)
    refused_too = client.post(f"/admin/accounts/user/{pat.pk}/password/", new_password)
    no_link = client.post(f"/admin/accounts/user/{administrator.pk}/send-password-reset/", new_password)
    link = client.post(f"/admin/accounts/user/{pat.pk}/send-password-reset/", new_password)

    assert refused.status_code == 403
    administrator.refresh_from_db()
    assert not administrator.check_password("taken-over-42-xyz")
    assert refused_too.status_code == 403
    pat.refresh_from_db()
    assert not pat.check_password("taken-over-42-xyz")
    assert pat.check_password("pat-old-password-42")
    assert no_link.status_code == 403
    assert link.status_code == 302
    assert [message.to for message in mail.outbox] == [[pat.email]]


def test_a_player_with_a_group_or_permission_is_read_only_to_support_too() -> None:
    support, pat = staff_member(SUPPORT_STAFF), player()
    pat.user_permissions.add(Permission.objects.get(codename="view_uthround"))
    client = logged_in(support)

    response = client.post(change_page(pat), everything_ticked(pat, screen_name="Renamed"))

    assert response.status_code == 403
    pat.refresh_from_db()
    assert pat.screen_name is None
    assert privileges(pat) == (False, False, [], ["view_uthround"])


def test_the_permissions_to_add_and_change_users_are_not_enough_to_grant_privileges() -> None:
    staff = staff_member(WITHOUT_A_ROLE, "user-manager")
    staff.user_permissions.add(*Permission.objects.filter(codename__in=("view_user", "add_user", "change_user")))
    client = logged_in(User.objects.get(pk=staff.pk))

    added = client.post(
        "/admin/accounts/user/add/",
        {
            "username": "new-hire",
            "password1": "a-long-enough-passphrase-42",
            "password2": "a-long-enough-passphrase-42",
            "usable_password": "true",
            "is_staff": "on",
            "is_superuser": "on",
            "groups": [Group.objects.get(name=SUPPORT_STAFF).pk],
        },
    )
    pat = player()
    changed = client.post(change_page(pat), everything_ticked(pat))
    own = client.post(change_page(staff), everything_ticked(staff))

    assert added.status_code == 302
    assert privileges(User.objects.get(username="new-hire")) == NONE
    assert changed.status_code == 302
    assert privileges(pat) == NONE
    assert own.status_code == 403
    assert privileges(staff) == (True, False, [], ["add_user", "change_user", "view_user"])


def test_support_may_not_add_accounts_at_all() -> None:
    client = logged_in(staff_member(SUPPORT_STAFF))

    response = client.post(
        "/admin/accounts/user/add/",
        {"username": "sneaky", "password1": "a-long-enough-passphrase-42", "password2": "a-long-enough-passphrase-42"},
    )

    assert response.status_code == 403
    assert not User.objects.filter(username="sneaky").exists()


def test_a_superuser_still_grants_staff_status_superuser_status_and_groups_when_a_second_superuser_approves() -> None:
    """Issue 30, four eyes: the superuser's grant is proposed (nothing before the approval) and applied when another
    superuser approves it."""
    client = logged_in(staff_member(ADMINISTRATORS, "the-admin"))
    pat = player()

    response = client.post(
        change_page(pat),
        everything_ticked(
            pat, groups=[Group.objects.get(name=SUPPORT_STAFF).pk], user_permissions=[], privileges_reason="Ticket 7"
        ),
    )

    assert response.status_code == 302
    assert privileges(pat) == NONE
    [proposal] = RuleChangeProposal.objects.filter(kind="staff_privileges", status=RuleChangeStatus.PENDING)
    rule_change_approve(proposal, staff_member(ADMINISTRATORS, "the-second-admin"))
    assert privileges(pat) == (True, True, [SUPPORT_STAFF], [])
