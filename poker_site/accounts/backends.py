"""The authentication backend: Django's model backend behind the brute-force lock."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from poker_site.accounts import throttle
from poker_site.accounts.models import User


class RateLimitedModelBackend(ModelBackend):
    """Refuses every attempt (right password or not) while the username or address is locked out."""

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> User | None:
        if username is not None and throttle.seconds_locked(username, throttle.client_address(request)):
            # PermissionDenied stops Django trying other backends and fires user_login_failed.
            raise PermissionDenied("too many failed log-in attempts")
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None and username is not None:
            throttle.clear_failures(username)
        return user
