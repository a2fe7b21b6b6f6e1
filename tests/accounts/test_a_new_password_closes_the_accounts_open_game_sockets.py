"""A new password throws out whoever had the account (QA pass D, F1): besides its HTTP sessions, every open game
socket of the account closes once the change commits, whether the player reset it by the link or an administrator set
it; a hijacker's table socket does not go on acting until its session re-check, minutes later."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client

from poker_site.accounts import password_reset
from poker_site.accounts.role_table import ADMINISTRATORS
from tests.accounts.support import NEW_PASSWORD, ask_for_a_link, player, reset_link_in
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]


@pytest.fixture
def closed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """The account ids whose sockets were closed (``account_sockets_close``), with the reason the sockets are told."""
    calls: list[tuple[int, str]] = []
    monkeypatch.setattr(
        "poker_site.core.account_sockets.account_sockets_close", lambda user_id, reason: calls.append((user_id, reason))
    )
    return calls


def test_a_password_reset_by_the_link_closes_the_accounts_game_sockets_once_it_commits(
    closed: list[tuple[int, str]], django_capture_on_commit_callbacks: Any
) -> None:
    pat = player()
    ask_for_a_link(pat.email)
    browser = Client()
    form_page = browser.get(reset_link_in(mail.outbox[0]), follow=True)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        done = browser.post(
            form_page.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
        )
    assert done.status_code == 302
    assert closed == []  # not before the new password commits
    for callback in callbacks:
        callback()

    assert closed == [(pat.pk, password_reset.SOCKETS_CLOSING_MESSAGE)]


def test_a_failed_reset_closes_nothing(closed: list[tuple[int, str]], django_capture_on_commit_callbacks: Any) -> None:
    pat = player()
    ask_for_a_link(pat.email)
    browser = Client()
    form_page = browser.get(reset_link_in(mail.outbox[0]), follow=True)

    with django_capture_on_commit_callbacks(execute=True):
        mismatched = browser.post(
            form_page.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": "something-else-55"}
        )

    assert mismatched.status_code == 200
    assert closed == []


def test_a_password_an_administrator_sets_closes_the_accounts_game_sockets(
    closed: list[tuple[int, str]], django_capture_on_commit_callbacks: Any
) -> None:
    pat = player()
    client = logged_in(staff_member(ADMINISTRATORS, "the-admin"))

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/admin/accounts/user/{pat.pk}/password/",
            {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true", "reason": "Ticket 9"},
        )

    assert response.status_code == 302
    pat.refresh_from_db()
    assert pat.check_password(NEW_PASSWORD)
    assert closed == [(pat.pk, password_reset.SOCKETS_CLOSING_MESSAGE)]
