"""Helpers for the account tests: a player with an e-mail address, signing up (two at once, racing for a name or an
address), asking for a password-reset link as on the live site, and the link of a password-reset e-mail."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.core import mail
from django.test import Client, TestCase

from poker_site.accounts.forms import SignUpForm
from poker_site.accounts.models import User
from tests.waiting import GENEROUS_SECONDS
from tests.wallet.concurrency import run_simultaneously

PASSWORD = "pat-old-password-42"
NEW_PASSWORD = "a-brand-new-passphrase-77"
RESET_LINK = re.compile(r"https?://[^/\s]+(/accounts/password-reset/[^/\s]+/[^/\s]+/)")
FORGOT = "/accounts/password-reset/"


def player(username: str = "pat", email: str | None = None) -> User:
    return User.objects.create_user(username=username, email=email or f"{username}@players.example", password=PASSWORD)


def sign_up(username: str, email: str) -> Any:
    return Client().post(
        "/accounts/sign-up/",
        {
            "username": username,
            "email": email,
            "password1": PASSWORD,
            "password2": PASSWORD,
            "date_of_birth": "1990-05-17",
            "accept_terms": "on",
        },
    )


def two_sign_ups_at_once(monkeypatch: pytest.MonkeyPatch, first: tuple[str, str], second: tuple[str, str]) -> list[Any]:
    """Sign up as ``first`` and as ``second`` (a username and an e-mail address each) on two threads at once, each form
    saving only once both have checked that no account has its name and address: both pass the form's checks and the
    database settles the race. The two answers, or what a thread raised instead."""
    both_checked = threading.Barrier(2)
    save = SignUpForm.save

    def save_once_both_forms_are_checked(form: SignUpForm, commit: bool = True) -> User:
        both_checked.wait(timeout=GENEROUS_SECONDS)
        return save(form, commit)

    monkeypatch.setattr(SignUpForm, "save", save_once_both_forms_are_checked)
    return run_simultaneously([lambda: sign_up(*first), lambda: sign_up(*second)])


def no_server_error(answers: list[Any]) -> None:
    for answer in answers:
        assert not isinstance(answer, BaseException), answer


def reset_link_in(message: mail.EmailMessage) -> str:
    """The path of the reset link in a password-reset e-mail."""
    found = RESET_LINK.search(str(message.body))
    assert found, message.body
    return found.group(1)


@contextmanager
def celery_tasks_run_here() -> Iterator[None]:
    """Celery tasks queued meanwhile run at once in this process (eagerly, their errors raised), as a worker would
    run them."""
    from poker_site.celery import app

    before = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    try:
        yield
    finally:
        app.conf.task_always_eager, app.conf.task_eager_propagates = before


def ask_for_a_link(email: str, address: str = "203.0.113.7", **headers: Any) -> Any:
    """Post ``email`` to the "Forgot your password?" page from a client at ``address``, and then what follows on a live
    site: the request's commit queues the mailing and a worker sends the link (here both once the page has answered,
    in this process: the test's transaction never commits, so its commit callbacks are run by hand)."""
    with celery_tasks_run_here(), TestCase.captureOnCommitCallbacks(execute=True):  # the callbacks run first
        return Client(REMOTE_ADDR=address).post(FORGOT, {"email": email}, **headers)
