"""Helpers for the account tests: a player with an e-mail address, asking for a password-reset link as on the live
site, and the link of a password-reset e-mail."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core import mail
from django.test import Client, TestCase

from poker_site.accounts.models import User

PASSWORD = "pat-old-password-42"
NEW_PASSWORD = "a-brand-new-passphrase-77"
RESET_LINK = re.compile(r"https?://[^/\s]+(/accounts/password-reset/[^/\s]+/[^/\s]+/)")
FORGOT = "/accounts/password-reset/"


def player(username: str = "pat", email: str | None = None) -> User:
    return User.objects.create_user(username=username, email=email or f"{username}@players.example", password=PASSWORD)


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
