"""Helpers for the account tests: a player with an e-mail address, and the link of a password-reset e-mail."""

from __future__ import annotations

import re

from django.core import mail

from poker_site.accounts.models import User

PASSWORD = "pat-old-password-42"
NEW_PASSWORD = "a-brand-new-passphrase-77"
RESET_LINK = re.compile(r"https?://[^/\s]+(/accounts/password-reset/[^/\s]+/[^/\s]+/)")


def player(username: str = "pat", email: str | None = None) -> User:
    return User.objects.create_user(username=username, email=email or f"{username}@players.example", password=PASSWORD)


def reset_link_in(message: mail.EmailMessage) -> str:
    """The path of the reset link in a password-reset e-mail."""
    found = RESET_LINK.search(str(message.body))
    assert found, message.body
    return found.group(1)
