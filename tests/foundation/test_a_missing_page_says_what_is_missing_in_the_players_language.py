"""A player who follows an old link (a tournament that is gone, a hand they did not play, a table's number typed
wrong) gets the site's own 404 page: the site's header, what is missing in the view's own words, in the player's
language, and a way back to the lobby; not Django's bare "Not Found" document. An address under ``/api/`` is answered
in the API's error shape (docs/protocol.md). A fault on the server's side gets the site's 500 page, which reads
nothing but its template. The 403 page speaks the player's language too."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import path
from django.utils import translation

from poker_site.urls import urlpatterns as site_routes
from tests.tables.support import player

pytestmark = pytest.mark.django_db


def estonian_client() -> Client:
    client = Client()
    client.cookies["django_language"] = "et"
    return client


def test_a_tournament_that_does_not_exist_is_a_page_of_the_site_that_names_what_is_missing() -> None:
    response = Client().get("/tournaments/999999/")

    assert response.status_code == 404
    assert response.templates[0].name == "404.html"
    page = response.content.decode()
    assert "No such tournament." in page
    assert "There is no such page" in page
    assert 'href="/"' in page  # the way back to the lobby
    assert "The requested resource was not found on this server" not in page


def test_an_address_no_route_serves_says_only_that_there_is_no_such_page() -> None:
    response = Client().get("/no-such-place/")

    assert response.status_code == 404
    assert response.templates[0].name == "404.html"
    assert response.context["message"] is None
    assert "Resolver404" not in response.content.decode()


def test_a_missing_page_speaks_estonian_to_an_estonian_player() -> None:
    with translation.override("et"):
        missing_tournament = translation.gettext("No such tournament.")
        heading = translation.gettext("There is no such page")
    response = estonian_client().get("/tournaments/999999/")

    page = response.content.decode()
    assert response.status_code == 404
    assert missing_tournament != "No such tournament."
    assert missing_tournament in page
    assert heading != "There is no such page"
    assert heading in page


def test_a_hand_the_player_did_not_play_is_the_sites_404_page_in_their_language() -> None:
    client = estonian_client()
    client.force_login(player())
    with translation.override("et"):
        not_in_history = translation.gettext("No such hand in your history.")

    response = client.get("/games/hands/999999/")

    assert response.status_code == 404
    assert not_in_history != "No such hand in your history."
    assert not_in_history in response.content.decode()


def test_an_api_address_that_does_not_exist_is_answered_in_the_apis_error_shape() -> None:
    response = Client().get("/api/games/no-such-endpoint/")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"
    assert response.json()["message"]


def failing_view(request: object) -> None:
    raise RuntimeError("the database went away")


urlpatterns = [path("fails/", failing_view), *site_routes]
handler404 = "poker_site.core.error_pages.page_not_found"
handler500 = "poker_site.core.error_pages.server_error"


@pytest.mark.urls(__name__)
def test_a_fault_on_the_servers_side_is_the_sites_500_page_in_the_players_language() -> None:
    client = estonian_client()
    client.raise_request_exception = False
    with translation.override("et"):
        heading = translation.gettext("Something went wrong on our side")

    response = client.get("/fails/")

    assert response.status_code == 500
    page = response.content.decode()
    assert heading != "Something went wrong on our side"
    assert heading in page
    assert "the database went away" not in page
    assert 'lang="et"' in page


def test_the_refused_page_speaks_estonian_to_an_estonian_player() -> None:
    client = estonian_client()
    client.force_login(player())
    with translation.override("et"):
        heading = translation.gettext("This page is not open to you")

    response = client.get("/compliance/")

    assert response.status_code == 403
    assert heading != "This page is not open to you"
    assert heading in response.content.decode()
