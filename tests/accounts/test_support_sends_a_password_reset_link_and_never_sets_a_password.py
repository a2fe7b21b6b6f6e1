"""Issue 30 (LOB-10: back-office actions are restricted by staff role; four eyes, least privilege): no single support
agent can take a player's account over through its password. Support never sets a password: the admin's "set a
password" page refuses them. On the player's page they send a password-reset link instead, to the e-mail address on
file, with a written reason kept in the audit log; the player chooses the password. Compliance reviewers can do
neither; never to an account that holds privileges; administrators (superusers) still set a password directly, with
a reason."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from poker_site.accounts.models import User
from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from tests.accounts.support import NEW_PASSWORD, PASSWORD, player, reset_link_in
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in
from wallet.models import AuditEntry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

NEW = {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true", "reason": "Ticket 4411"}


def password_page(user: User) -> str:
    return f"/admin/accounts/user/{user.pk}/password/"


def reset_link_page(user: User) -> str:
    return f"/admin/accounts/user/{user.pk}/send-password-reset/"


def test_support_cannot_open_or_post_the_set_a_password_page_of_a_player() -> None:
    """Issue 30: the page that sets a password is refused to support (403), even with a reason."""
    pat = player()
    client = logged_in(staff_member(SUPPORT_STAFF))

    assert client.get(password_page(pat)).status_code == 403
    assert client.post(password_page(pat), NEW).status_code == 403

    pat.refresh_from_db()
    assert pat.check_password(PASSWORD)
    assert not pat.check_password(NEW_PASSWORD)
    assert not AuditEntry.objects.filter(target=f"accounts.user:{pat.pk}").exists()


def test_the_players_page_offers_support_a_reset_link_instead_of_the_set_a_password_page() -> None:
    pat = player()
    page = logged_in(staff_member(SUPPORT_STAFF)).get(f"/admin/accounts/user/{pat.pk}/change/").content.decode()

    assert reset_link_page(pat) in page
    assert "Send a password-reset link" in page
    assert 'href="../password/"' not in page


def test_support_sends_a_reset_link_to_the_address_on_file_with_a_reason_kept_in_the_audit_log() -> None:
    """Issue 30: the link goes to the address on file only; the reason is required and audited with who sent it."""
    pat, support = player(), staff_member(SUPPORT_STAFF)
    client = logged_in(support)

    without_reason = client.post(reset_link_page(pat), {"reason": "  "})
    assert without_reason.status_code == 200
    assert "reason" in without_reason.context["form"].errors
    assert mail.outbox == []
    assert not AuditEntry.objects.filter(action="password_reset_link_sent").exists()

    sent = client.post(reset_link_page(pat), {"reason": "Ticket 4411: forgot the password after a holiday"})

    assert sent.status_code == 302
    assert [message.to for message in mail.outbox] == [["pat@players.example"]]
    assert reset_link_in(mail.outbox[0]).startswith("/accounts/password-reset/")
    assert NEW_PASSWORD not in mail.outbox[0].body
    entry = AuditEntry.objects.get(action="password_reset_link_sent")
    assert (entry.actor, entry.player, entry.target) == (support, pat, f"accounts.user:{pat.pk}")
    assert entry.reason == "Ticket 4411: forgot the password after a holiday"
    assert entry.details == {"sent_to": "pat@players.example"}
    pat.refresh_from_db()
    assert pat.check_password(PASSWORD)  # nothing changes until the player uses the link


def test_the_link_support_sent_lets_the_player_choose_a_password_and_log_in() -> None:
    pat = player()
    logged_in(staff_member(SUPPORT_STAFF)).post(reset_link_page(pat), {"reason": "Ticket 4412"})
    link = reset_link_in(mail.outbox[0])

    browser = Client()
    form_page = browser.get(link, follow=True)
    assert form_page.context["validlink"]
    done = browser.post(form_page.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302

    logged = browser.post("/accounts/log-in/", {"username": "pat", "password": NEW_PASSWORD})
    assert logged.status_code == 302
    assert browser.get("/").context["user"] == pat


def test_compliance_reviewers_can_neither_set_a_password_nor_send_a_reset_link() -> None:
    pat = player()
    client = logged_in(staff_member(COMPLIANCE_REVIEWERS))

    assert client.post(password_page(pat), NEW).status_code == 403
    assert client.post(reset_link_page(pat), {"reason": "Ticket 4413"}).status_code == 403
    page = client.get(f"/admin/accounts/user/{pat.pk}/change/").content.decode()

    assert reset_link_page(pat) not in page
    assert mail.outbox == []
    pat.refresh_from_db()
    assert pat.check_password(PASSWORD)
    assert not AuditEntry.objects.filter(target=f"accounts.user:{pat.pk}").exists()


def test_support_cannot_send_a_reset_link_to_an_account_that_holds_privileges() -> None:
    client = logged_in(staff_member(SUPPORT_STAFF))
    administrator = staff_member(ADMINISTRATORS, "the-admin")
    colleague = staff_member(SUPPORT_STAFF, "colleague")

    for account in (administrator, colleague):
        assert client.post(reset_link_page(account), {"reason": "Ticket 4414"}).status_code == 403
    assert mail.outbox == []


def test_a_reset_link_is_refused_for_an_account_without_an_e_mail_address() -> None:
    pat = player()
    User.objects.filter(pk=pat.pk).update(email="")

    response = logged_in(staff_member(SUPPORT_STAFF)).post(reset_link_page(pat), {"reason": "Ticket 4415"})

    assert response.status_code == 200
    assert "no e-mail address on file" in " ".join(response.context["form"].non_field_errors())
    assert mail.outbox == []
    assert not AuditEntry.objects.filter(action="password_reset_link_sent").exists()


def test_an_administrator_still_sets_a_players_password_with_a_reason() -> None:
    pat, administrator = player(), staff_member(ADMINISTRATORS, "the-admin")
    client = logged_in(administrator)

    refused = client.post(password_page(pat), {**NEW, "reason": " "})
    assert refused.status_code == 200
    assert "reason" in refused.context["form"].errors
    set_ = client.post(password_page(pat), NEW)

    assert set_.status_code == 302
    pat.refresh_from_db()
    assert pat.check_password(NEW_PASSWORD)
    entry = AuditEntry.objects.get(action="admin_changed", target=f"accounts.user:{pat.pk}")
    assert (entry.actor, entry.reason) == (administrator, "Ticket 4411")
    assert (entry.before, entry.after) == ({"password": "(set)"}, {"password": "(changed)"})


def test_support_sends_at_most_three_links_to_one_player_in_an_hour() -> None:
    """QA pass D, F10: twenty links in a row to one player were all sent (mail-bombing, cover for phishing)."""
    pat, olga = player(), player("olga")
    client = logged_in(staff_member(SUPPORT_STAFF))
    colleague = logged_in(staff_member(SUPPORT_STAFF, "colleague"))

    answers = [client.post(reset_link_page(pat), {"reason": f"Ticket {n}"}).status_code for n in range(3)]
    refused = colleague.post(reset_link_page(pat), {"reason": "Ticket 4"})

    assert answers == [302, 302, 302]
    assert refused.status_code == 200
    assert "3 password-reset links were already sent to pat within 60 minutes" in " ".join(
        refused.context["form"].non_field_errors()
    )
    assert len(mail.outbox) == 3
    assert AuditEntry.objects.filter(action="password_reset_link_sent").count() == 3
    assert client.post(reset_link_page(olga), {"reason": "Ticket 5"}).status_code == 302  # another player
