"""A progressive bounty Sit & Go in the browser, on the live site with its Celery worker and beat (TRN-41, TRN-42,
TRN-44): two players register for buy-in + bounty + fee on the tournament's page, are taken to the table, which shows
each player's bounty, play all in, and the table's log says who won what for the knock-out; the winner's balance
rises by the prize pool, half the loser's bounty at the knock-out and their own grown bounty at the end."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import header_balance, log_in, register_confirmed, wait_until
from tests.browser.setup import player
from tests.tournaments.browser.test_a_tournament_is_played_in_the_browser import SHORT_LEVELS, act_when_it_is_my_turn
from tournaments.models import TournamentEntry, TournamentKind, TournamentStatus
from tournaments.services.catalog import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


def test_two_players_see_their_bounties_and_the_knock_out_is_paid_at_once(site: Any, pages: Pages) -> None:
    tournament = tournament_create(
        name="Browser Bounty",
        kind=TournamentKind.SIT_AND_GO,
        seats_to_start=2,
        table_size=2,
        buy_in=1_000,
        fee=100,
        bounty_kind="progressive",
        bounty=1_000,
        structure=SHORT_LEVELS,
        pause_between_hands_milliseconds=1_000,
    )
    users = {name: player(name, cash_cents=5_000) for name in ("hunter", "hunted")}
    browsers = {}
    for name in users:
        page = pages.new()
        log_in(page, name)
        page.goto(f"/tournaments/{tournament.pk}/")
        assert "€10.00 + €10.00 bounty + €1.00 fee" in (page.locator("dl.facts").text_content() or "")
        assert "€21.00" in (page.locator("#register").text_content() or "")
        register_confirmed(page)
        assert header_balance(page) == 5_000 - 2_100
        browsers[name] = page
    # The last registration started the Sit & Go: that page shows the table link; the first page follows by itself.
    browsers["hunted"].locator("#your-table").click()
    for page in browsers.values():
        page.wait_for_url("**/games/tables/*/", timeout=90_000)
        wait_until(page, "document.getElementById('table-app').getAttribute('data-connection') === 'live'")
        wait_until(page, "document.getElementById('tournament-info').textContent.includes('bounty €10.00')")
    pages.screenshot(browsers["hunter"], "bounties")

    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        tournament.refresh_from_db()
        if tournament.status == TournamentStatus.FINISHED:
            break
        for page in browsers.values():
            if "/games/tables/" in page.url:
                act_when_it_is_my_turn(page)
        next(iter(browsers.values())).wait_for_timeout(300)
    assert tournament.status == TournamentStatus.FINISHED
    winner = TournamentEntry.objects.get(tournament=tournament, place=1)
    winning_page = browsers[winner.user.username]
    wait_until(
        winning_page,
        "Array.from(document.querySelectorAll('#action-log li')).some(li => li.textContent.includes('wins €5.00 for "
        "knocking out'))",
    )
    pages.screenshot(winning_page, "knock-out")
    for _ in range(60):
        winner.refresh_from_db()
        if winner.prize_transfer_id:
            break
        time.sleep(0.5)
    winning_page.goto("/")
    # Prize pool €20.00, half the loser's bounty at the knock-out (€5.00), and the winner's own €15.00 at the end.
    assert header_balance(winning_page) == 5_000 - 2_100 + 2_000 + 500 + 1_500
