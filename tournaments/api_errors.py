"""One error shape for every answer of the tournament API (``/api/tournaments/``, HexaPro's included) that is not a
success: ``{"code": ..., "message": ...}``, the shape of ``/api/games/`` and of the services' refusals
(docs/protocol.md, "Tournament REST endpoints").

The services' refusals (409, 404) and the refused bodies (400, with ``errors`` by field) were built in that shape by
the views, but what Django REST framework answered itself — not logged in, a missing CSRF token, an unknown
tournament, a body it could not parse, too many requests, a method the endpoint does not take — came as
``{"detail": ...}``, so a client had to read two shapes. :class:`TournamentAPIView` gives each of those the same
shape, with DRF's own code (``not_authenticated``, ``permission_denied``, ``not_found``, ``parse_error``,
``throttled``, ``method_not_allowed``, ...; ``csrf`` for a missing or wrong CSRF token) and its message for people.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.utils.translation import gettext
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import APIView, exception_handler

INVALID_MESSAGE = "invalid request"
"""The message of a refused body, as ``games.api.invalid_request_response`` words it (the fields say the rest)."""


def error_body(code: str, message: str, errors: Any = None) -> dict[str, Any]:
    """The API's error shape: a stable ``code`` for programs, a ``message`` for people and, for a refused body, the
    ``errors`` by field."""
    body: dict[str, Any] = {"code": code, "message": message}
    if errors is not None:
        body["errors"] = errors
    return body


def _code_and_message(exception: Exception) -> tuple[str, str, Any]:
    if isinstance(exception, Http404):
        return "not_found", str(exception) or gettext("Not found."), None
    if isinstance(exception, DjangoPermissionDenied):
        return "permission_denied", str(exception) or gettext("You do not have permission to do that."), None
    if not isinstance(exception, exceptions.APIException):
        return "server_error", gettext("Something went wrong on our side."), None
    detail = exception.detail
    if isinstance(detail, (list, dict)):  # a ValidationError raised with errors by field
        return "invalid", INVALID_MESSAGE, detail
    message = str(detail)
    code = str(getattr(detail, "code", None) or exception.default_code)
    if code == "permission_denied" and message.startswith("CSRF Failed"):
        code = "csrf"  # the page's session token is missing or stale: the client says "reload the page"
    return code, message, None


def tournament_api_exception_handler(exception: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler (status, ``Retry-After``, ``WWW-Authenticate``), with its ``{"detail": ...}`` body replaced by
    :func:`error_body`. ``None`` (an unexpected error) is left to Django, as DRF leaves it."""
    response = exception_handler(exception, context)
    if response is None:
        return None
    response.data = error_body(*_code_and_message(exception))
    return response


class TournamentAPIView(APIView):
    """An endpoint of the tournament API: every error it answers is in :func:`error_body`'s shape."""

    def get_exception_handler(self) -> Any:
        return tournament_api_exception_handler
