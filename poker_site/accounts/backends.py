"""The authentication backend: Django's model backend behind the brute-force lock (poker_site/accounts/throttle.py).

Every log-in path (the site's form, the admin's, anything calling ``django.contrib.auth.authenticate``) reaches the
password check only through :meth:`RateLimitedModelBackend.authenticate`.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from poker_site.accounts import throttle
from poker_site.accounts.models import User


class RateLimitedModelBackend(ModelBackend):
    """Checks a password only after reserving an attempt on the lock's counters; refuses every attempt (right password
    or not) while the username, the (username, address) pair or the address is locked out."""

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> User | None:
        if username is None:
            username = kwargs.pop(User.USERNAME_FIELD, None)
        if username is None or password is None:
            return None  # what ModelBackend answers too, before any password check
        address = throttle.client_address(request)
        if throttle.attempt_reserve(username, address):
            # PermissionDenied stops Django trying other backends and fires user_login_failed.
            raise PermissionDenied("too many failed log-in attempts")
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None:
            throttle.attempt_succeeded(username, address)
        return user
