"""A scheduled tournament played in the browser from registration to the winner's payout, on the live site with its
Celery worker and beat: three players register on the tournament's page (LOB-03), are seated at random when it
starts (TRN-03) and taken to their tables, check and call until they see a new level begin (AMB-65), then play
all-in; the player left alone is moved when the other table finishes (TRN-25, TRN-26), and the winner's balance rises
by the prize (TRN-21, TRN-27)."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import HandEvent, Seat
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import header_balance, log_in, register_confirmed, wait_until
from tests.browser.setup import celery_tasks_waiting, player, start_the_scheduled_tournament_now
from tournaments.models import Tournament, TournamentEntry, TournamentStatus
from tournaments.rules.levels import structure_from_rows
from tournaments.services.catalog import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

SHORT_LEVELS = structure_from_rows("browser", 1_000, [(10, 20, 0), (20, 40, 0), (40, 80, 0), (80, 160, 0)], 8)


def act_when_it_is_my_turn(page: Any, *, all_in: bool = True) -> bool:
    """Act when the page offers an action; True when it acted.

    With ``all_in``: the "All-in" size then Bet or Raise, else the All-in or Call button (a short stack facing a
    bigger all-in). Without: check, else call, so that the hands last and nobody is eliminated yet."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    def visible(selector: str) -> Any:
        button = page.locator(selector)
        if button.count() and button.is_visible() and button.get_attribute("aria-disabled") != "true":
            return button
        return None

    try:
        if not all_in:
            for action in ("check", "call"):
                button = visible(f'#action-buttons [data-act="{action}"]')
                if button is not None:
                    button.click(timeout=1_000)
                    return True
            return False
        preset = visible('#bet-control [data-preset="max"]')
        sizing = visible('#action-buttons [data-act="raise"]') or visible('#action-buttons [data-act="bet"]')
        if preset is not None and sizing is not None:
            preset.click(timeout=1_000)
            sizing.click(timeout=1_000)
            return True
        for action in ("all_in", "call"):
            button = visible(f'#action-buttons [data-act="{action}"]')
            if button is not None:
                button.click(timeout=1_000)
                return True
    except PlaywrightTimeout:
        return False  # the turn moved on meanwhile (the buttons were hidden again)
    return False


def test_three_players_register_play_and_the_winner_is_paid(site: Any, pages: Pages) -> None:
    tournament = tournament_create(
        name="Browser Freezeout",
        starts_at=timezone.now() + timedelta(minutes=10),  # brought forward once all three are registered
        table_size=2,
        buy_in=1_000,
        fee=100,
        unregistration_closes_minutes=0,
        structure=SHORT_LEVELS,
        pause_between_hands_milliseconds=1_000,
    )
    users = {name: player(name, cash_cents=5_000) for name in ("alice", "bob", "carol")}
    browsers = {}
    for name in users:
        page = pages.new()
        log_in(page, name)
        page.goto(f"/tournaments/{tournament.pk}/")
        register_confirmed(page)
        assert "You are registered." in page.locator(".messages").text_content()
        assert header_balance(page) == 5_000 - 1_100
        browsers[name] = page
    # Alice's page follows the registrations by itself.
    wait_until(browsers["alice"], "document.getElementById('tournament-entrants').textContent.trim() === '3'")
    start_the_scheduled_tournament_now(tournament)

    # The start: each page's tournament lobby takes its player to the table the tournament gave them.
    for page in browsers.values():
        page.wait_for_url("**/games/tables/*/", timeout=90_000)
        wait_until(page, "document.getElementById('table-app').getAttribute('data-connection') === 'live'")
    assert Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.RUNNING
    pages.screenshot(browsers["alice"], "seated")

    levels_seen: set[str] = set()
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        current = Tournament.objects.get(pk=tournament.pk)
        if current.status == TournamentStatus.FINISHED:
            break
        for page in browsers.values():
            if "/games/tables/" not in page.url:
                continue
            # They check and call until their pages show the second level, then go all in: the level clock
            # (8 s) then surely runs out before the tournament ends, whatever the cards.
            act_when_it_is_my_turn(page, all_in=len(levels_seen) >= 2)
            info = page.locator("#tournament-info")
            if info.count():
                levels_seen.update(re.findall(r"Level (\d+)", info.text_content() or ""))
        page.wait_for_timeout(300)
    finished = Tournament.objects.get(pk=tournament.pk)
    assert finished.status == TournamentStatus.FINISHED, (
        f"levels seen {sorted(levels_seen)}; entries "
        f"{list(TournamentEntry.objects.filter(tournament=tournament).values_list('status', 'table_id'))}; seats "
        f"{list(Seat.objects.filter(user__in=users.values()).values_list('table_id', 'chips', 'user_id'))}; "
        f"{celery_tasks_waiting()} Celery tasks waiting for the worker"
    )
    # The player left alone at the other table was told and taken to the table of the other two (TRN-26).
    moved = HandEvent.objects.get(table__tournament_link__tournament=tournament, kind="player_moved")
    moved_name = next(name for name, user in users.items() if user.pk == moved.payload["user_id"])
    # The table page takes them 1.5 s after the move; should it miss the event, the player socket a few seconds later.
    # The tournament may have ended meanwhile (the moved player's hands are folded while they are away, TRN-04).
    browsers[moved_name].wait_for_url(f"**/games/tables/{moved.payload['to_table']}/", timeout=60_000)
    winner = TournamentEntry.objects.get(tournament=tournament, place=1)
    assert winner.prize == 3_000
    # The prize is credited by the Celery worker (idempotent transfer, TRN-27).
    for _ in range(60):
        winner.refresh_from_db()
        if winner.prize_transfer_id:
            break
        time.sleep(0.5)
    assert winner.prize_transfer_id is not None
    winning_page = browsers[winner.user.username]
    winning_page.goto("/")
    assert header_balance(winning_page) == 5_000 - 1_100 + 3_000
    assert len(levels_seen) >= 2, f"a new level began while they played: {levels_seen}"
    pages.screenshot(winning_page, "winner")
