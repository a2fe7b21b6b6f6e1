"""Every page works under the Content-Security-Policy in Chromium: no script, style, image or socket is refused, the
table sockets connect (connect-src allows the page's own ws:// origin), and the API docs (Swagger UI and Redoc, the
relaxed docs policy) render the schema. Nothing is requested from other sites (the hardening issue, item 6)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import timezone

from games.uth.models import UthTable
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_live, wait_until
from tests.browser.setup import heads_up_table, player

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

LOOPBACK = re.compile(r"^(https?|wss?)://127\.0\.0\.1[:/]")
REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"


def watched(pages: Pages, elsewhere: list[str]) -> Any:
    """A page whose requests to other sites are collected and aborted before they leave the machine (the ``pages``
    fixture already fails the test on any Content-Security-Policy refusal Chromium reports)."""
    page = pages.new()

    def only_loopback(route: Any) -> None:
        if LOOPBACK.match(route.request.url) or route.request.url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    page.context.route("**/*", only_loopback)
    return page


def test_the_pages_and_their_sockets_work_under_the_policy(site: Any, pages: Pages) -> None:
    player("alice", cash_cents=10_000)
    table = heads_up_table()
    uth_table = UthTable.objects.create(name="CSP UTH", next_round_at=timezone.now())
    elsewhere: list[str] = []
    page = watched(pages, elsewhere)
    log_in(page, "alice")
    for address in ("/", "/wallet/", "/games/hands/", "/rules/", "/uth/"):
        response = page.goto(address)
        assert response.status == 200, address
        assert "default-src 'self'" in response.headers["content-security-policy"]
        assert page.evaluate("document.documentElement.classList.contains('js')"), "the head script ran"
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    page.goto(f"/uth/{uth_table.pk}/")
    wait_until(page, "document.getElementById('uth-connection').textContent === 'Connected'")
    assert page.evaluate("getComputedStyle(document.querySelector('.uth-felt')).borderRadius") != "0px", "uth.css"

    page.goto("/api/docs/")
    page.locator(".swagger-ui .info .title").filter(has_text="Poker operator API").wait_for()
    page.locator(".opblock").first.wait_for()
    page.goto("/api/redoc/")
    page.get_by_role("heading", name=re.compile("Poker operator API")).wait_for()
    page.locator("[data-section-id]").first.wait_for()

    # Redoc's footer shows its maker's logo from their site: refusing it is the policy working (nothing is loaded
    # from other sites), and the only refusal on any page.
    refusals = [error for error in pages.errors if "Content Security Policy" in error]
    assert all(REDOC_LOGO in refusal for refusal in refusals), refusals
    pages.errors[:] = [error for error in pages.errors if error not in refusals]
    assert elsewhere == []
