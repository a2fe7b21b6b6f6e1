"""TRN-35 / LOB-05 in the browser: the registration that fills a Sit & Go starts it, and the tournament page's poll then
brings the page to its table; while the page is sending its registration, that poll must not navigate (it would abort
the form's answer, seen once in a whole run as ``net::ERR_ABORTED`` when the answer was slow). The answer page is
shown ("You are registered." with the table's link) and the player goes on from there."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, register_confirmed
from tests.browser.setup import player
from tournaments.models import Tournament, TournamentKind, TournamentStatus
from tournaments.rules.levels import structure_from_rows
from tournaments.services import tournament_register
from tournaments.services.catalog import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

LEVELS = structure_from_rows("answer", 1_000, [(10, 20, 0), (20, 40, 0)], 300)
POLL_SECONDS = 4  # static/js/tournament.js polls its tournament every 4 s


def test_the_answer_to_the_registration_that_starts_a_sit_and_go_is_shown_however_slow_it_comes(
    site: Any, pages: Pages
) -> None:
    tournament = tournament_create(
        name="Answer Sit & Go",
        kind=TournamentKind.SIT_AND_GO,
        seats_to_start=2,
        table_size=2,
        buy_in=100,
        fee=10,
        structure=LEVELS,
    )
    tournament_register(player("early", cash_cents=5_000), tournament.pk)
    player("last", cash_cents=5_000)
    page = pages.new()
    log_in(page, "last")
    page.goto(f"/tournaments/{tournament.pk}/")

    def answer_late(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        # The server registers at once (the Sit & Go starts); its answer (a redirect to the tournament page) reaches
        # the page only after two polls.
        response = route.fetch(max_redirects=0)
        time.sleep(2 * POLL_SECONDS + 1)
        route.fulfill(response=response)

    page.route(f"**/tournaments/{tournament.pk}/registration/", answer_late)
    register_confirmed(page)

    assert Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.RUNNING
    assert "You are registered." in (page.locator(".messages").text_content() or "")
    assert f"/tournaments/{tournament.pk}/" in page.url
    page.locator("#your-table").click()
    page.wait_for_url("**/games/tables/*/", timeout=60_000)
