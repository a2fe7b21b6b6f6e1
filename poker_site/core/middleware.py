"""Site-wide request checks that run before any view."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse

NUL = "\x00"
NUL_MESSAGE = "The address contains a NUL character (%00), which no page, parameter or game number here can hold."


class RefuseNulCharactersMiddleware:
    """Answers 400 to a request whose path or query string holds a NUL character.

    PostgreSQL text cannot hold NUL, so such a value reaching a lookup (a UTH game number, an admin search, a lobby
    filter) was a database error and a 500. No valid address of the site contains one, so it is refused here once
    instead of in every view. API paths get the API's JSON error shape.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if NUL in request.path_info or any(
            NUL in key or any(NUL in value for value in values) for key, values in request.GET.lists()
        ):
            if request.path_info.startswith("/api/"):
                return JsonResponse({"code": "invalid", "message": NUL_MESSAGE}, status=400)
            return HttpResponseBadRequest(NUL_MESSAGE, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
