"""The site's front page."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """The lobby entry page; each capability adds its own tab to templates/home.html."""
    return render(request, "home.html")
