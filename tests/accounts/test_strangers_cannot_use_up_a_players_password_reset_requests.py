"""Issue 30 (QA pass on player accounts, finding 2): the "Forgot your password?" page counted each e-mail address's
requests from anyone, so a stranger asking three times for a player's address left the player no reset for an hour.

Now a client's requests count per client and per (e-mail address, client): a stranger over a limit is refused, the
player is not. Against mail-bombing, the address itself counts only the links actually sent to it, and a link still
valid that went out within ``PASSWORD_RESET_RESEND_SECONDS`` is not sent again; the answer is the same either way.
Neither leaves the player without a working link: every link held back is held back because one sent moments ago (or
within the window, while the account has not changed since) still works, and a new one goes as soon as the account's
password or log-in spends the old ones. Support's own limit (3 links per player an hour) counts apart from the
public page, so strangers cannot block support either."""

from __future__ import annotations

import socket

import pytest
from django.core import mail
from django.test import Client, override_settings

from poker_site.accounts.roles import SUPPORT_STAFF
from tests.accounts.support import NEW_PASSWORD, ask_for_a_link, player, reset_link_in
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in
from tests.waiting import eventually

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

SENT_PAGE = "/accounts/password-reset/sent/"
PLAYERS_NETWORK = "203.0.113.7"
STRANGERS_NETWORKS = [f"198.51.100.{number}" for number in range(1, 9)]


def the_password_is_chosen_with(link: str) -> bool:
    browser = Client()
    form_page = browser.get(link, follow=True)
    if not form_page.context["validlink"]:
        return False
    done = browser.post(form_page.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    return bool(done.status_code == 302 and done["Location"] == "/accounts/password-reset/done/")


@override_settings(PASSWORD_RESET_EMAIL_LIMIT=3, PASSWORD_RESET_ADDRESS_LIMIT=100)
def test_a_stranger_asking_again_and_again_for_a_players_address_is_refused_and_the_player_is_not() -> None:
    pat = player()

    strangers = [ask_for_a_link(pat.email, STRANGERS_NETWORKS[0]).status_code for _ in range(4)]
    own = ask_for_a_link(pat.email, PLAYERS_NETWORK)

    assert strangers == [302, 302, 302, 429]
    assert own.status_code == 302
    assert own["Location"] == SENT_PAGE


@override_settings(PASSWORD_RESET_RESEND_SECONDS=300)
def test_a_link_sent_minutes_ago_is_not_sent_again_and_the_answer_is_the_same() -> None:
    pat = player()

    first = ask_for_a_link(pat.email, STRANGERS_NETWORKS[0])
    again = ask_for_a_link(pat.email.upper(), PLAYERS_NETWORK)
    unknown = ask_for_a_link("nobody@players.example", STRANGERS_NETWORKS[1])

    assert first.status_code == again.status_code == unknown.status_code == 302
    assert first["Location"] == again["Location"] == unknown["Location"] == SENT_PAGE
    assert [message.to for message in mail.outbox] == [[pat.email]]
    assert the_password_is_chosen_with(reset_link_in(mail.outbox[0]))  # the one sent still works


def test_a_new_link_goes_at_once_when_the_last_one_was_used() -> None:
    pat = player()
    ask_for_a_link(pat.email, PLAYERS_NETWORK)
    assert the_password_is_chosen_with(reset_link_in(mail.outbox[0]))

    ask_for_a_link(pat.email, PLAYERS_NETWORK)

    assert len(mail.outbox) == 3  # the link, the notice that the password changed, a new link
    assert reset_link_in(mail.outbox[2]) != reset_link_in(mail.outbox[0])


@override_settings(
    PASSWORD_RESET_SENT_LIMIT=2,
    PASSWORD_RESET_RESEND_SECONDS=1,
    PASSWORD_RESET_EMAIL_LIMIT=1000,  # the second stranger asks until the pause is over
    PASSWORD_RESET_ADDRESS_LIMIT=1000,
)
def test_strangers_from_many_networks_send_at_most_the_limit_and_the_player_keeps_a_working_link() -> None:
    pat = player()
    ask_for_a_link(pat.email, STRANGERS_NETWORKS[0])
    eventually(  # once the pause after the first link is over, a stranger elsewhere gets a second one sent
        lambda: ask_for_a_link(pat.email, STRANGERS_NETWORKS[1]) and len(mail.outbox) == 2,
        what="a second link after the pause",
    )
    for network in STRANGERS_NETWORKS[2:]:
        assert ask_for_a_link(pat.email, network).status_code == 302

    own = ask_for_a_link(pat.email, PLAYERS_NETWORK)

    assert own.status_code == 302
    assert own["Location"] == SENT_PAGE
    assert len(mail.outbox) == 2  # the address's limit of links sent: the mailbox is not bombed
    assert the_password_is_chosen_with(reset_link_in(mail.outbox[1]))  # and the player holds a working link
    ask_for_a_link(pat.email, PLAYERS_NETWORK)  # the password changed: the links sent are spent, a new one goes
    assert [message.to for message in mail.outbox[3:]] == [[pat.email]]
    assert "/accounts/password-reset/" in reset_link_in(mail.outbox[3])


@override_settings(PASSWORD_RESET_EMAIL_LIMIT=1, PASSWORD_RESET_SENT_LIMIT=1)
def test_strangers_who_used_up_the_public_page_for_a_player_do_not_stop_support_sending_a_link() -> None:
    pat = player()
    for network in STRANGERS_NETWORKS:
        ask_for_a_link(pat.email, network)
        ask_for_a_link(pat.email, network)
    assert len(mail.outbox) == 1

    sent = logged_in(staff_member(SUPPORT_STAFF)).post(
        f"/admin/accounts/user/{pat.pk}/send-password-reset/", {"reason": "Ticket 8120: no link arrived"}
    )

    assert sent.status_code == 302
    assert len(mail.outbox) == 2
    assert mail.outbox[1].to == [pat.email]


def test_support_using_up_its_own_limit_does_not_stop_the_player_asking_on_the_public_page() -> None:
    pat = player()
    support = logged_in(staff_member(SUPPORT_STAFF))
    page = f"/admin/accounts/user/{pat.pk}/send-password-reset/"
    assert [support.post(page, {"reason": f"Ticket {number}"}).status_code for number in range(3)] == [302] * 3

    asked = ask_for_a_link(pat.email, PLAYERS_NETWORK)

    assert asked.status_code == 302
    assert len(mail.outbox) == 4
    assert mail.outbox[3].to == [pat.email]


def a_port_nothing_listens_on() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_link_the_mail_server_refused_is_not_counted_and_the_next_request_sends_one() -> None:
    pat = player()
    unreachable = {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": a_port_nothing_listens_on(),
        "EMAIL_USE_TLS": False,
        "EMAIL_TIMEOUT": 5,
    }
    with override_settings(**unreachable):
        failed = ask_for_a_link(pat.email, PLAYERS_NETWORK)

    again = ask_for_a_link(pat.email, PLAYERS_NETWORK)

    assert failed.status_code == again.status_code == 302
    assert failed["Location"] == again["Location"] == SENT_PAGE
    assert [message.to for message in mail.outbox] == [[pat.email]]
