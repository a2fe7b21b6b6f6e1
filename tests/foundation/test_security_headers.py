"""Security headers: a Content-Security-Policy on every page (scripts and styles from the site's files only, sockets
to the page's own host), a wider one only on the API docs pages, and HSTS in production (the hardening issue,
item 6)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.test import Client

from poker_site.embedded import PROJECT_DIRECTORY

pytestmark = pytest.mark.django_db


def policy_of(response: object) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]  # type: ignore[index]
    directives = [part.split() for part in header.split(";") if part.strip()]
    return {directive[0]: directive[1:] for directive in directives}


def test_a_page_has_a_policy_without_inline_code_that_lets_it_reach_its_own_sockets(client: Client) -> None:
    policy = policy_of(client.get("/accounts/log-in/"))
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["connect-src"] == ["'self'", "ws://testserver"]


def test_a_page_served_over_https_may_reach_its_wss_sockets(client: Client) -> None:
    assert policy_of(client.get("/accounts/log-in/", secure=True))["connect-src"] == ["'self'", "wss://testserver"]


def test_api_answers_carry_the_policy_too(client: Client) -> None:
    assert policy_of(client.get("/api/games/tables/"))["script-src"] == ["'self'"]


@pytest.mark.parametrize("docs", ["/api/docs/", "/api/redoc/", "/api/docs/?script="])
def test_the_api_docs_may_use_inline_styles_and_a_blob_worker_but_still_no_inline_script(
    client: Client, docs: str
) -> None:
    response = client.get(docs)
    assert response.status_code == 200
    policy = policy_of(response)
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'", "'unsafe-inline'"]
    assert policy["worker-src"] == ["'self'", "blob:"]


def test_the_swagger_page_loads_its_start_up_script_as_a_file(client: Client) -> None:
    page = client.get("/api/docs/").content.decode()
    assert '<script src="/api/docs/?script="></script>' in page
    assert client.get("/api/docs/?script=")["Content-Type"].startswith("application/javascript")


def test_no_hsts_outside_production(client: Client) -> None:
    assert "Strict-Transport-Security" not in client.get("/accounts/log-in/", secure=True)


def test_production_sends_hsts_for_a_year_on_https() -> None:
    program = (
        "import django; django.setup();"
        "from django.test import Client;"
        "secure = Client().get('/accounts/log-in/', secure=True, HTTP_HOST='localhost');"
        "plain = Client().get('/accounts/log-in/', HTTP_HOST='localhost');"
        "print(secure.status_code, secure.get('Strict-Transport-Security'), plain.get('Strict-Transport-Security'))"
    )
    environment = {
        **os.environ,
        "ENVIRONMENT": "production",
        "DEBUG": "false",
        "SECRET_KEY": "x" * 50,
        "DJANGO_SETTINGS_MODULE": "poker_site.settings",
    }
    result = subprocess.run(
        [sys.executable, "-c", program],
        cwd=PROJECT_DIRECTORY,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    status, secure_header, plain_header = result.stdout.split()[-3:]
    assert status == "200"
    assert secure_header == "max-age=31536000"
    assert plain_header == "None", "HSTS only on HTTPS answers (the plain one is redirected by the proxy)"
