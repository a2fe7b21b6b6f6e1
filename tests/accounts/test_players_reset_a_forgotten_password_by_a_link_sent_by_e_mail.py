"""Issue 30: a player who forgot the password asks for a link on the public "Forgot your password?" page (linked from
the log-in page) and chooses a new password on the page the link opens. The page answers the same whether an account
has the address or not, and is throttled per client address and per e-mail address from one client. A link works
once: a used, forged or tampered link is refused; the new password logs the player's other sessions out."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client, override_settings
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from poker_site.accounts.models import User
from tests.accounts.support import FORGOT, NEW_PASSWORD, PASSWORD, ask_for_a_link, player, reset_link_in
from wallet.models import AuditEntry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

NEW = {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}


def choose_password(browser: Client, link: str) -> object:
    """Open the link (Django moves the token out of the address) and post the new password twice."""
    form_page = browser.get(link, follow=True)
    return browser.post(form_page.redirect_chain[-1][0], NEW) if form_page.redirect_chain else form_page


def test_the_log_in_page_links_to_the_forgot_your_password_page() -> None:
    page = Client().get("/accounts/log-in/").content.decode()

    assert f'href="{FORGOT}"' in page
    assert "Forgot your password?" in page
    assert Client().get(FORGOT).status_code == 200


def test_the_answer_is_the_same_whether_an_account_has_the_address_or_not() -> None:
    player("pat")

    known = ask_for_a_link("PAT@players.example")
    unknown = ask_for_a_link("nobody@players.example")

    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"] == "/accounts/password-reset/sent/"
    assert [message.to for message in mail.outbox] == [["pat@players.example"]]


def test_the_player_chooses_a_new_password_with_the_link_and_logs_in_with_it() -> None:
    pat = player("pat")
    elsewhere = Client()
    elsewhere.force_login(pat)
    ask_for_a_link("pat@players.example")
    browser = Client()

    done = choose_password(browser, reset_link_in(mail.outbox[0]))

    assert done.status_code == 302
    assert done["Location"] == "/accounts/password-reset/done/"
    pat.refresh_from_db()
    assert pat.check_password(NEW_PASSWORD)
    assert not pat.check_password(PASSWORD)
    assert browser.post("/accounts/log-in/", {"username": "pat", "password": NEW_PASSWORD}).status_code == 302
    assert browser.get("/").context["user"] == pat
    assert not elsewhere.get("/").context["user"].is_authenticated  # the other session is logged out
    entry = AuditEntry.objects.get(action="password_reset_by_player")
    assert (entry.actor, entry.player, entry.target) == (pat, pat, f"accounts.user:{pat.pk}")
    notice = mail.outbox[-1]  # the owner hears of it, in case it was not them
    assert notice.to == ["pat@players.example"]
    assert "password of your poker account was changed" in notice.subject


def test_a_used_link_is_refused() -> None:
    pat = player("pat")
    ask_for_a_link("pat@players.example")
    link = reset_link_in(mail.outbox[0])
    choose_password(Client(), link)

    again = Client().get(link, follow=True)

    assert again.status_code == 200
    assert not again.context["validlink"]
    assert "This link is not valid" in again.content.decode()
    pat.refresh_from_db()
    assert pat.check_password(NEW_PASSWORD)


def test_a_forged_or_tampered_link_is_refused_and_changes_nothing() -> None:
    pat, other = player("pat"), player("olga")
    ask_for_a_link("pat@players.example")
    link = reset_link_in(mail.outbox[0])
    _, _, _, uid, token, _ = link.split("/")
    other_uid = urlsafe_base64_encode(force_bytes(other.pk))
    forged = (
        f"/accounts/password-reset/{uid}/{token[:-1]}{'a' if token[-1] != 'a' else 'b'}/",  # one character changed
        f"/accounts/password-reset/{other_uid}/{token}/",  # pat's token on another account
        f"/accounts/password-reset/{uid}/set-password/",  # no token in this browser's session
        "/accounts/password-reset/bm90LWFuLWlk/c5mxyz-0123456789abcdef0123456789abcdef/",
    )

    for address in forged:
        browser = Client()
        page = browser.get(address, follow=True)
        assert page.status_code == 200, address
        assert not page.context["validlink"], address
        posted = browser.post(address, NEW)
        assert posted.status_code == 200, address
        assert not posted.context["validlink"], address
    for account in (pat, other):
        account.refresh_from_db()
        assert account.check_password(PASSWORD)
    assert not AuditEntry.objects.filter(action="password_reset_by_player").exists()


def test_no_link_goes_to_an_inactive_account() -> None:
    pat = player("pat")
    User.objects.filter(pk=pat.pk).update(is_active=False)

    assert ask_for_a_link("pat@players.example").status_code == 302
    assert mail.outbox == []


@override_settings(PASSWORD_RESET_EMAIL_LIMIT=2, PASSWORD_RESET_ADDRESS_LIMIT=100)
def test_one_client_is_throttled_per_e_mail_address_whether_an_account_has_it_or_not() -> None:
    player("pat")

    answers = [ask_for_a_link("pat@players.example", "198.51.100.1").status_code for _ in range(3)]
    unknown = [ask_for_a_link("ghost@players.example", "198.51.100.1").status_code for _ in range(3)]

    assert answers == unknown == [302, 302, 429]
    assert len(mail.outbox) == 1  # the second request came within the pause after the first link: none again
    refused = ask_for_a_link("Pat@Players.Example", "198.51.100.1")
    assert refused.status_code == 429
    assert "Too many requests for a new password" in refused.content.decode()
    assert ask_for_a_link("pat@players.example", "198.51.100.2").status_code == 302  # another client is not refused


@override_settings(PASSWORD_RESET_EMAIL_LIMIT=100, PASSWORD_RESET_ADDRESS_LIMIT=3)
def test_the_page_is_throttled_per_client_address_over_every_e_mail_address() -> None:
    answers = [ask_for_a_link(f"guess{n}@players.example", "192.0.2.50").status_code for n in range(4)]

    assert answers == [302, 302, 302, 429]
    assert ask_for_a_link("guess9@players.example", "192.0.2.51").status_code == 302
