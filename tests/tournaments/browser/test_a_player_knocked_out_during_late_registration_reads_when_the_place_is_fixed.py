"""At a tournament table, in the browser (1366 × 768): a player knocked out while late registration is open reads in
the result panel that their place is fixed when late registration closes, at the end of which level, and the place it
will be if nobody else enters (QA finding: "Your place is being decided" and nothing more); when the places are given
the panel shows the place, without a reload (TRN-06, TRN-08, AMB-28, TRN-27). Screenshots in test-artifacts/."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import LAPTOP, log_in, wait_until
from tests.browser.setup import player, start_the_scheduled_tournament_now, tournament_started
from tests.tournaments.browser.test_a_tournament_is_played_in_the_browser import act_when_it_is_my_turn
from tournaments.models import EntryStatus, Tournament, TournamentEntry
from tournaments.rules.levels import structure_from_rows
from tournaments.services import tournament_register
from tournaments.services.catalog import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

# Late registration lasts two levels of 90 s: time enough for a knock-out on a loaded machine before it closes.
LEVELS = structure_from_rows("late", 1_000, [(10, 20, 0), (20, 40, 0), (40, 80, 0)], 90)
RESULT = "document.getElementById('tournament-result')"


def test_a_knocked_out_player_reads_what_the_place_waits_for_then_the_place(site: Any, pages: Pages) -> None:
    tournament = tournament_create(
        name="Late Cup",
        starts_at=timezone.now() + timedelta(hours=1),
        table_size=2,  # heads-up tables: a hand knocks out one player at most, and the tournament plays on
        buy_in=1_000,
        fee=100,
        structure=LEVELS,
        late_registration_levels=2,
        pause_between_hands_milliseconds=800,
    )
    users = {name: player(name, cash_cents=5_000) for name in ("alice", "bob", "carol", "dave")}
    browsers = {}
    for name, user in users.items():
        tournament_register(user, tournament)
        page = pages.new(**LAPTOP)
        log_in(page, name)
        browsers[name] = page
    start_the_scheduled_tournament_now(tournament)
    tournament_started(tournament)
    for name, page in browsers.items():
        table_id = TournamentEntry.objects.get(tournament=tournament, user=users[name]).table_id
        page.goto(f"/games/tables/{table_id}/")
        wait_until(page, "document.getElementById('table-app').getAttribute('data-connection') === 'live'")
        page.evaluate("window.notReloaded = true")

    deadline = time.monotonic() + 150
    while not TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.BUSTED).exists():
        assert time.monotonic() < deadline, "nobody was knocked out"
        assert Tournament.objects.get(pk=tournament.pk).registration_closed_at is None, "late registration closed"
        for page in browsers.values():
            act_when_it_is_my_turn(page, all_in=True)
        browsers["alice"].wait_for_timeout(300)
    out = TournamentEntry.objects.select_related("user").filter(tournament=tournament, status=EntryStatus.BUSTED)[0]
    page = browsers[out.user.username]
    wait_until(page, f"!{RESULT}.hidden && {RESULT}.textContent.includes('late registration closes')")
    text = str(page.locator("#tournament-result").text_content())
    assert "You are out of the tournament." in text
    assert "Your place will be fixed when late registration closes: at the end of level 2, at " in text
    assert "if nobody else registers or re-enters" in text
    assert "being decided" not in text
    pages.screenshot(page, "place-waits-for-late-registration")

    # The others play on; the place is given when late registration closes (or the tournament ends before).
    deadline = time.monotonic() + 300
    while TournamentEntry.objects.get(pk=out.pk).place is None:
        assert time.monotonic() < deadline, "the place was not given"
        for other in browsers.values():
            act_when_it_is_my_turn(other, all_in=True)
        page.wait_for_timeout(300)
    place = TournamentEntry.objects.get(pk=out.pk).place
    wait_until(page, f"{RESULT}.textContent.includes('You finished in place {place} of 4')", timeout=30_000)
    assert page.evaluate("window.notReloaded === true")
    pages.screenshot(page, "place-given")
