"""The front page, admin, API schema and docs answer."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_lobby_page_answers(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "Lobby" in response.content.decode()


def test_the_admin_asks_for_a_log_in(client: Client) -> None:
    response = client.get("/admin/", follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[-1][0].startswith("/admin/login/")


def test_the_api_schema_is_served_as_openapi(client: Client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert response.json()["openapi"].startswith("3.")


def test_the_browsable_api_docs_use_local_assets(client: Client) -> None:
    response = client.get("/api/docs/")
    assert response.status_code == 200
    assert "cdn." not in response.content.decode()


def test_the_page_can_be_shown_in_estonian(client: Client) -> None:
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="et")
    assert response.status_code == 200
    assert 'lang="et"' in response.content.decode()
