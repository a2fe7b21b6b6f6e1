"""Issue 30: the public page's reset e-mail went out inside the transaction that decided it, so a transaction that
failed afterwards had mailed a link all the same. Now the link is mailed, and counted against the address's limit of
links sent, only once the transaction commits; a transaction that fails sends nothing and counts nothing (the next
request sends the link at once), and a page request whose transaction fails queues no mailing at all."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.db import DatabaseError
from django.test import RequestFactory, TestCase

from poker_site.accounts import password_reset, tasks
from poker_site.accounts.password_reset import password_reset_links_send, password_reset_request
from tests.accounts.support import player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

SITE = ("https", "poker.example")
CLIENT = "203.0.113.7"


def then_failing(monkeypatch: pytest.MonkeyPatch, planning: str) -> None:
    """Make the transaction fail just after ``planning`` (a function of ``password_reset``) planned its work for
    after the commit."""
    plan = getattr(password_reset, planning)

    def planned_then_failed(*arguments: Any) -> None:
        plan(*arguments)
        raise DatabaseError("the transaction fails after the work after its commit was planned")

    monkeypatch.setattr(password_reset, planning, planned_then_failed)


def test_the_link_is_mailed_only_once_the_transaction_commits() -> None:
    pat = player()

    with TestCase.captureOnCommitCallbacks() as after_commit:
        password_reset_links_send(pat.email, SITE, CLIENT)
    assert mail.outbox == []
    for callback in after_commit:  # the commit
        callback()

    assert [message.to for message in mail.outbox] == [[pat.email]]
    assert "https://poker.example/accounts/password-reset/" in str(mail.outbox[0].body)


def test_a_transaction_that_fails_sends_nothing_and_holds_the_next_link_back_by_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pat = player()
    then_failing(monkeypatch, "_link_mail_after_commit")

    with TestCase.captureOnCommitCallbacks(execute=True), pytest.raises(DatabaseError):
        password_reset_links_send(pat.email, SITE, CLIENT)
    assert mail.outbox == []

    monkeypatch.undo()
    with TestCase.captureOnCommitCallbacks(execute=True):
        password_reset_links_send(pat.email, SITE, CLIENT)
    assert [message.to for message in mail.outbox] == [[pat.email]]  # not held back as if one had gone


def test_a_page_request_whose_transaction_fails_queues_no_mailing(monkeypatch: pytest.MonkeyPatch) -> None:
    pat = player()
    queued: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tasks.password_reset_links_mail, "delay", lambda *arguments: queued.append(arguments))
    then_failing(monkeypatch, "_links_send_after_commit")
    request = RequestFactory().post("/accounts/password-reset/", REMOTE_ADDR=CLIENT)

    with TestCase.captureOnCommitCallbacks(execute=True), pytest.raises(DatabaseError):
        password_reset_request(pat.email, request)

    assert queued == []
    assert mail.outbox == []
