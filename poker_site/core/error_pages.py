"""The site's own answers to a missing page (404) and a fault on the server's side (500), in place of Django's bare
"Not Found" and "Server Error" documents: a player who follows an old link (a tournament that is gone, a hand they did
not play, a table's number typed wrong) reads what is missing, in their language, with the site's header and a way
back. An address under ``/api/`` is answered in the API's error shape (``{"code", "message"}``, docs/protocol.md),
as a program reads it.

The message shown is the sentence the view raised (``Http404(gettext("No such tournament."))``); an address that no
route serves has none, and the page says only that there is no such page. The 500 page is a document of its own: it is
rendered without the request's context (the database may be what failed), so it reads nothing but its template."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseServerError, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.urls import Resolver404
from django.utils.translation import gettext

API_PREFIX = "/api/"


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler404``: the 404 page (``404.html``) with the view's sentence, or the API's JSON 404."""
    message = message_of(exception)
    if request.path.startswith(API_PREFIX):
        return JsonResponse(
            {"code": "not_found", "message": message or gettext("There is nothing at this address.")}, status=404
        )
    return render(request, "404.html", {"message": message}, status=404)


def message_of(exception: Exception | None) -> str | None:
    """The sentence a view raised ``Http404`` with, or None (no exception, or an address no route serves: Django's
    ``Resolver404`` carries the routes it tried, which are not for players)."""
    if not isinstance(exception, Http404) or isinstance(exception, Resolver404):
        return None
    if not exception.args or not isinstance(exception.args[0], str) or not exception.args[0].strip():
        return None
    return exception.args[0]


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: ``500.html`` rendered with no context, so that it shows whatever failed."""
    return HttpResponseServerError(loader.get_template("500.html").render())
