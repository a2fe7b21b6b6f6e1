"""The device cookie (FRD-03): a random identifier of the browser, set when a player logs in and kept two years, so
the shared-connection indicator can tell two accounts playing from one device (FRD-19)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from compliance.services.connections import DEVICE_COOKIE, device_of

DEVICE_COOKIE_SECONDS = 2 * 365 * 24 * 3600


class DeviceCookieMiddleware:
    """Sets the ``device`` cookie on the response of a request that gave the browser a new identifier (a log-in)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        new = getattr(request, "device_id", "")
        if new and not device_of(request.COOKIES.get(DEVICE_COOKIE)):
            response.set_cookie(
                DEVICE_COOKIE,
                new,
                max_age=DEVICE_COOKIE_SECONDS,
                httponly=True,
                samesite="Lax",
                secure=request.is_secure(),
            )
        return response
