"""Issue 30 (QA pass on player accounts, finding 1): the public "Forgot your password?" page is the players' page. An
account that holds privileges (staff, superuser, a role group or any permission) gets no reset link from it, or whoever
controls or guesses a staff mailbox would hold a path to a staff account there; administrators reset staff passwords
in the admin. The page answers exactly as for an address no account has (the same redirect, counted on the same
throttle), sends nothing, and writes the refused request to the audit log."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client, override_settings

from poker_site.accounts.models import User
from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import SUPPORT_STAFF
from tests.accounts.support import PASSWORD, ask_for_a_link, player
from tests.foundation.staff_roles import WITHOUT_A_ROLE, staff_member
from wallet.models import AuditEntry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

REFUSED = "password_reset_refused_privileged_account"


def staff_with_a_mailbox(role: str, username: str = "staffer") -> User:
    """A staff member of ``role`` with an e-mail address and a password (a reset link could be made for it)."""
    user = staff_member(role, username)
    user.email = f"{username}@operator.example"
    user.set_password(PASSWORD)
    user.save(update_fields=["email", "password"])
    return user


@pytest.mark.parametrize("role", [ADMINISTRATORS, SUPPORT_STAFF, WITHOUT_A_ROLE])
def test_a_staff_account_gets_no_link_and_the_answer_is_that_of_an_unknown_address(role: str) -> None:
    staff_with_a_mailbox(role)

    staff = ask_for_a_link("Staffer@Operator.Example")
    unknown = ask_for_a_link("nobody@operator.example")

    assert staff.status_code == unknown.status_code == 302
    assert staff["Location"] == unknown["Location"] == "/accounts/password-reset/sent/"
    assert staff.content == unknown.content
    assert mail.outbox == []


def test_a_player_given_a_single_permission_gets_no_link_either() -> None:
    from django.contrib.auth.models import Permission

    pat = player()
    pat.user_permissions.add(Permission.objects.get(codename="view_user"))

    assert ask_for_a_link("pat@players.example").status_code == 302
    assert mail.outbox == []


def test_the_refused_request_is_written_to_the_audit_log_with_the_client_that_asked() -> None:
    staffer = staff_with_a_mailbox(SUPPORT_STAFF)
    player("pat")

    ask_for_a_link("staffer@operator.example", "198.51.100.23")
    ask_for_a_link("pat@players.example")
    ask_for_a_link("nobody@operator.example")

    entry = AuditEntry.objects.get(action=REFUSED)
    assert entry.actor is None
    assert entry.target == f"accounts.user:{staffer.pk}"
    assert entry.details == {"client": "198.51.100.23"}
    assert "administrator" in entry.reason
    assert AuditEntry.objects.filter(action=REFUSED).count() == 1  # a player's and an unknown address: no refusal
    assert [message.to for message in mail.outbox] == [["pat@players.example"]]


@override_settings(PASSWORD_RESET_EMAIL_LIMIT=2, PASSWORD_RESET_ADDRESS_LIMIT=100)
def test_a_staff_address_is_throttled_exactly_as_an_unknown_one() -> None:
    staff_with_a_mailbox(SUPPORT_STAFF)

    staff = [ask_for_a_link("staffer@operator.example").status_code for _ in range(3)]
    unknown = [ask_for_a_link("nobody@operator.example").status_code for _ in range(3)]

    assert staff == unknown == [302, 302, 429]
    assert mail.outbox == []


def test_an_administrator_still_sets_a_staff_members_password_in_the_admin() -> None:
    staffer = staff_member(SUPPORT_STAFF, "staffer")
    client = Client()
    client.force_login(staff_member(ADMINISTRATORS, "the-admin"))
    new_password = "a-brand-new-passphrase-77"

    set_ = client.post(
        f"/admin/accounts/user/{staffer.pk}/password/",
        {"password1": new_password, "password2": new_password, "usable_password": "true", "reason": "Ticket 9001"},
    )

    assert set_.status_code == 302
    staffer.refresh_from_db()
    assert staffer.check_password(new_password)
