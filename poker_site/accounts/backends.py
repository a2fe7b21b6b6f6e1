"""The authentication backend: Django's model backend behind the brute-force lock (poker_site/accounts/throttle.py),
refusing accounts the compliance desk suspended or terminated (FRD-18).

Every log-in path (the site's form, the admin's, anything calling ``django.contrib.auth.authenticate``) reaches the
password check only through :meth:`RateLimitedModelBackend.authenticate`. Every request and socket finds its user
through :meth:`RateLimitedModelBackend.get_user`: a suspended or terminated account is nobody from the moment the
suspension commits, so its sessions sign nobody in any more (pages, the API, socket connects and the sockets' session
re-check).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from poker_site.accounts import devices, throttle
from poker_site.accounts.models import User
from poker_site.core.compiled_sql import CompiledSelect

SIGN_IN_REFUSED = "sign_in_refused"
"""Attribute of the request under which :meth:`RateLimitedModelBackend.authenticate` leaves why a right password was
refused (the log-in form shows it)."""


def _user_with_standing(user_id: int) -> Any:
    from compliance.standing import with_sign_in_blocked  # compliance's models import the accounts app

    return with_sign_in_blocked(User._default_manager.filter(pk=user_id))


_USER_WITH_STANDING: CompiledSelect[User] = CompiledSelect(_user_with_standing)
"""Every request and socket reads its user this way: the statement is compiled once per process."""


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
        address = throttle.counted_address(request)
        reservation = throttle.attempt_reserve(username, address, devices.known_device(request, username))
        if reservation.seconds_locked:
            # PermissionDenied stops Django trying other backends and fires user_login_failed.
            raise PermissionDenied("too many failed log-in attempts")
        device = reservation.device
        # Only a checked wrong password keeps the reservation: an attempt whose request fails before the check (no
        # database connection: 503) or whose password is right gives it back.
        outcome = "not checked"
        try:
            # ModelBackend.authenticate, except that a right password of a refused account says why (once hashed).
            try:
                user = User._default_manager.get_by_natural_key(username)  # in any case (UserManager)
            except User.DoesNotExist:
                User().set_password(password)  # the same hashing work as for an existing account (timing)
                outcome = "wrong password"
                return None
            if not user.check_password(password):
                outcome = "wrong password"
                return None
            if not self.user_can_authenticate(user):
                if request is not None and user.is_active:
                    from compliance.standing import sign_in_refusal

                    setattr(request, SIGN_IN_REFUSED, sign_in_refusal(user.pk))
                return None
            throttle.attempt_succeeded(username, address, device)
            outcome = "logged in"
            devices.remember_device(request, username)
            return user
        finally:
            if outcome == "wrong password":
                throttle.attempt_failed(username, address, device)
            elif outcome != "logged in":
                throttle.attempt_given_back(username, address, device)

    def user_can_authenticate(self, user: Any) -> bool:
        """Active, and not suspended or terminated by the compliance desk."""
        if not super().user_can_authenticate(user):
            return False
        blocked = getattr(user, "sign_in_blocked", None)
        if blocked is None:
            from compliance.standing import sign_in_blocked

            blocked = sign_in_blocked(user.pk)
        return not blocked

    def get_user(self, user_id: Any) -> User | None:
        """The user of a session, read with its compliance standing in the same query."""
        try:
            key = int(user_id)
        except (TypeError, ValueError):
            return None  # not a key this backend gave a session
        user = _USER_WITH_STANDING.first(key)
        return user if user is not None and self.user_can_authenticate(user) else None
