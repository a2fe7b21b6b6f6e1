"""Issue 30: the public "Forgot your password?" page sent the reset e-mail within the request, so a player's address
was answered later than an address no account has, by the mail server's round trips: timing the page told a stranger
which addresses have accounts. Now the request only counts itself against the client's limits and, once that
commits, queues a Celery task with the address, the same for every address; a worker looks the accounts up and mails
the link, in the language the page was read in. The request's path sends nothing and looks no account up."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.db import connection
from django.test import Client, TestCase
from django.test.utils import CaptureQueriesContext

from poker_site.accounts import tasks
from tests.accounts.support import FORGOT, player, reset_link_in

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

SAVEPOINT_NAME = re.compile(r'"s\d+_x\d+"')
"""Django numbers the savepoints of a test's transactions (the request's own is one of them)."""


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """The arguments of each mailing task the requests queued; no worker runs them."""
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tasks.password_reset_links_mail, "delay", lambda *arguments: calls.append(arguments))
    return calls


def asked(email: str, address: str, **headers: Any) -> tuple[Any, list[str]]:
    """The page's answer to a request for a link to ``email`` from ``address``, with the SQL run on the request's path,
    its commit included."""
    with CaptureQueriesContext(connection) as queries, TestCase.captureOnCommitCallbacks(execute=True):
        answer = Client(REMOTE_ADDR=address).post(FORGOT, {"email": email}, **headers)
    return answer, [SAVEPOINT_NAME.sub("<savepoint>", query["sql"]) for query in queries.captured_queries]


def test_a_players_address_and_an_unknown_one_are_answered_alike_and_neither_request_sends_mail(
    queued: list[tuple[Any, ...]],
) -> None:
    pat = player()

    known, known_queries = asked(pat.email, "203.0.113.7")
    unknown, unknown_queries = asked("nobody@players.example", "203.0.113.7")

    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"] == "/accounts/password-reset/sent/"
    assert known.content == unknown.content
    assert mail.outbox == []  # not on the request's path, not at its commit
    assert known_queries == unknown_queries  # the same work whatever the address
    assert not [query for query in known_queries if "accounts_user" in query]  # no account looked up
    assert queued == [
        (pat.email, "http", "testserver", "203.0.113.7", "en"),
        ("nobody@players.example", "http", "testserver", "203.0.113.7", "en"),
    ]


def test_the_worker_mails_the_link_the_request_queued_and_nothing_for_an_unknown_address(
    queued: list[tuple[Any, ...]],
) -> None:
    pat = player()
    asked(pat.email, "203.0.113.7")
    asked("nobody@players.example", "203.0.113.7")

    for arguments in queued:  # what a worker runs
        with TestCase.captureOnCommitCallbacks(execute=True):
            tasks.password_reset_links_mail(*arguments)

    assert [message.to for message in mail.outbox] == [[pat.email]]
    assert reset_link_in(mail.outbox[0]).startswith("/accounts/password-reset/")


def test_the_link_is_written_in_the_language_the_page_was_read_in(queued: list[tuple[Any, ...]]) -> None:
    pat = player()
    asked(pat.email, "203.0.113.7", HTTP_ACCEPT_LANGUAGE="et")

    ((*_rest, language),) = queued
    with TestCase.captureOnCommitCallbacks(execute=True):
        tasks.password_reset_links_mail(*queued[0])

    assert language == "et"
    assert mail.outbox[0].subject == "Valige oma pokkerikontole uus parool"
