"""A HexaPro game in the browser, on the live site with its Celery worker and beat: three players open the HexaPro
page, press PLAY at the €1 buy-in and see the confirmation dialogue — game type, prize pool range, number of games and
the total buy-in — and REGISTER (HEX-03); the third registration forms the game at once (HEX-04) and every player is
taken to the table, where the prize pool drawn by the site is revealed to each of the three before the first hand
(HEX-05); they play all in to the end, the winner is congratulated at the table with the amount won, and each player's
balance ends at what they paid plus their prize, credited when the game ended (HEX-09, HEX-10). Two players use a
laptop (1366 × 768) and one a phone (390 × 844): the dialogue, the reveal and the congratulations are read on the
player's screen (covered by nothing, inside its width), the winner's also on the other screen (the cards choose the
winner)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import LAPTOP, PHONE, header_balance, log_in, on_both_screens, readable, wait_until
from tests.browser.setup import player
from tests.tournaments.browser.test_a_tournament_is_played_in_the_browser import act_when_it_is_my_turn
from tournaments.hexapro.models import HexaProGame
from tournaments.models import TournamentEntry, TournamentStatus
from wallet.errors import format_cents

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

START_CENTS = 5_000
BUY_IN = 100


def test_three_players_register_see_the_prize_pool_revealed_play_and_are_paid(site: Any, pages: Pages) -> None:
    users = {name: player(name, cash_cents=START_CENTS) for name in ("hexa", "pro", "extreme")}
    browsers = {}
    for name, screen in zip(users, (LAPTOP, PHONE, LAPTOP), strict=True):
        page = pages.new(**screen)
        log_in(page, name)
        page.goto("/")
        page.locator("#tab-hexapro").click()
        page.locator('#hexapro-buy-ins-hexapro a[href*="buy_in=100#"]').click()  # the lobby tab's PLAY
        page.wait_for_url("**/tournaments/hexapro/?product=hexapro&buy_in=100*")
        dialog = page.locator("#hexapro-dialog")
        assert dialog.is_visible()
        assert page.locator("#hexapro-game-type").text_content() == "HexaPro"
        assert page.locator("#hexapro-pool-range").text_content() == "€1.50 – €1,000.00"
        page.locator("#hexapro-games").fill("2")
        wait_until(page, "document.getElementById('hexapro-total').textContent === '€2.00'")
        page.locator("#hexapro-games").fill("1")
        wait_until(page, "document.getElementById('hexapro-total').textContent === '€1.00'")
        assert readable(page, "#hexapro-dialog") == "readable", name
        if name == "pro":
            pages.screenshot(page, "dialogue")
        page.locator("#hexapro-register").click()
        browsers[name] = page
    # The third registration formed the game: each page is taken to the table (the first two by their page's poll).
    for page in browsers.values():
        page.wait_for_url("**/games/tables/*/", timeout=30_000)
        wait_until(page, "document.getElementById('table-app').getAttribute('data-connection') === 'live'")
        assert header_balance(page) == START_CENTS - BUY_IN
    game = HexaProGame.objects.get()
    tournament = game.tournament
    for name, page in browsers.items():  # issue 28: every player sees the reveal, not only the first to arrive
        assert page.locator("#hexapro-prize-pool").text_content() == format_cents(game.prize_pool_cents)
        wait_until(
            page,
            "getComputedStyle(document.querySelector('#hexapro-reveal .hexapro-pool')).opacity === '1'",
            timeout=10_000,
        )
        assert readable(page, "#hexapro-reveal .hexapro-pool") == "readable", name
        pages.screenshot(page, f"revealed-to-{name}")

    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        tournament.refresh_from_db()
        if tournament.status == TournamentStatus.FINISHED:
            break
        for page in browsers.values():
            act_when_it_is_my_turn(page)
        page.wait_for_timeout(300)
    assert tournament.status == TournamentStatus.FINISHED
    entries = {entry.user_id: entry for entry in TournamentEntry.objects.filter(tournament=tournament)}
    assert sorted(entry.place for entry in entries.values()) == [1, 2, 3]
    assert entries_paid(entries.values())
    winner = next(entry for entry in entries.values() if entry.place == 1)
    winning = browsers[next(name for name, user in users.items() if user.pk == winner.user_id)]
    # The winner is congratulated at the table with the amount won, without a reload.
    wait_until(winning, "!document.getElementById('tournament-result').hidden", timeout=30_000)
    result = winning.locator("#tournament-result").text_content() or ""
    assert f"You won {tournament.name}!" in result
    assert f"Prize: {format_cents(winner.prize)}" in result
    # The game's table is closed: the page says so instead of waiting for a next hand that never comes.
    wait_until(winning, "document.getElementById('hand-info').textContent.includes('This table is closed.')")
    assert "Waiting for the next hand" not in (winning.locator("#hand-info").text_content() or "")
    pages.screenshot(winning, "winner-congratulated")
    on_both_screens(winning, ("#tournament-result",))
    for name, user in users.items():
        page = browsers[name]
        page.goto("/")
        assert header_balance(page) == START_CENTS - BUY_IN + entries[user.pk].prize
    assert winner.prize >= game.prize_pool_cents * 80 // 100
    history = browsers["hexa"]
    history.goto("/tournaments/hexapro/history/")
    assert f"#{game.pk}" in (history.locator("#hexapro-games").text_content() or "")
    pages.screenshot(history, "history")


def entries_paid(entries: Any, timeout: float = 30) -> bool:
    """Every prize credited by the Celery worker after the game ended (HEX-10)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = list(entries)
        for entry in rows:
            entry.refresh_from_db()
        if all(entry.prize_transfer_id for entry in rows if entry.prize):
            return True
        time.sleep(0.5)
    return False
