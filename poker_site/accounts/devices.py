"""Known log-in devices: the signed cookie that lets a player's own browser past the account-wide log-in lock.

Anyone who knows a username could otherwise lock its owner out with the account-wide failure counter
(:mod:`poker_site.accounts.throttle`). A browser that logged in to an account successfully gets the ``login_device``
cookie: the account's counter name and a random device identifier, signed with the site's secret key (a browser cannot
forge one for an account it never logged in to, nor move one to another account). An attempt for that username that
carries the cookie is checked against its own device counter instead of the account-wide one; the per-(username,
address) and per-address limits apply as always (OWASP's "device cookies" scheme).

One cookie per browser, for the account that logged in last: a second account on the same browser replaces it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from poker_site.accounts.throttle import account_key

LOGIN_DEVICE_COOKIE = "login_device"
LOGIN_DEVICE_SALT = "poker_site.accounts.login_device"
LOGIN_DEVICE_SECONDS = 365 * 24 * 3600
REMEMBER_ATTRIBUTE = "login_device_to_remember"
"""Attribute of the request under which a successful log-in leaves the cookie's value for the middleware."""


def _signed_value(request: HttpRequest | None) -> tuple[str, str] | None:
    """The (account, device) pair of the request's cookie, when its signature and age are good."""
    if request is None:
        return None
    value = request.get_signed_cookie(
        LOGIN_DEVICE_COOKIE, default="", salt=LOGIN_DEVICE_SALT, max_age=LOGIN_DEVICE_SECONDS
    )
    account, _, device = str(value).partition(":")
    if not account or len(device) != 32:
        return None
    return account, device


def known_device(request: HttpRequest | None, username: str) -> str:
    """The device identifier of the request's log-in device cookie if it was issued to ``username``, else ""."""
    signed = _signed_value(request)
    if signed is None or signed[0] != account_key(username):
        return ""
    return signed[1]


def remember_device(request: HttpRequest | None, username: str) -> None:
    """After a successful log-in: have :class:`LoginDeviceCookieMiddleware` give the browser the cookie for
    ``username`` (the same device identifier when it already has one for that account)."""
    if request is None:
        return
    device = known_device(request, username) or secrets.token_hex(16)
    setattr(request, REMEMBER_ATTRIBUTE, f"{account_key(username)}:{device}")


class LoginDeviceCookieMiddleware:
    """Sets the signed ``login_device`` cookie on the response of a successful log-in."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        value = getattr(request, REMEMBER_ATTRIBUTE, "")
        if value:
            response.set_signed_cookie(
                LOGIN_DEVICE_COOKIE,
                value,
                salt=LOGIN_DEVICE_SALT,
                max_age=LOGIN_DEVICE_SECONDS,
                httponly=True,
                samesite="Lax",
                secure=request.is_secure() or settings.SESSION_COOKIE_SECURE,
            )
        return response
