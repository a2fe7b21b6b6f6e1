"""LOB-02 in the browser (1366 × 768): the tournament list page follows the tournament lobby socket's
``tournament_changed`` notices without a reload (QA finding: a player had to reload to see any change). A registration
raises a Sit & Go's player count; the player's own registration made elsewhere appears under "My tournaments"; the Sit
& Go that fills starts and reads "Running"; a scheduled tournament cancelled leaves the list and shows under "Just
finished" as cancelled. After its socket reconnects the page reads its lists again, so a change made while it was
down appears. Screenshots in test-artifacts/."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import wait_until
from tests.browser.setup import in_thread, player
from tests.tournaments.browser.support import (
    TWO_LEVELS,
    entrants_shown,
    live_page,
    sit_and_go_of_three,
    socket_back,
    socket_dropped,
)
from tournaments.models import Tournament
from tournaments.services import tournament_register
from tournaments.services.catalog import tournament_create
from tournaments.services.staff import tournament_cancel

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

STATUS = "document.getElementById('tournament-lobby-status').dataset.state"


def row(tournament: Tournament) -> str:
    return f'tr[data-tournament-id="{tournament.pk}"]'


def listed(tournament: Tournament) -> str:
    return f"#tournament-lobby-lists {row(tournament)}"


def open_lobby(pages: Pages, username: str) -> Any:
    return live_page(pages, username, "/tournaments/", STATUS)


@pytest.mark.usefixtures("notices_sent")
def test_registrations_a_start_and_a_cancellation_reach_the_list_without_a_reload(site: Any, pages: Pages) -> None:
    table_of_three = sit_and_go_of_three("Live Sit & Go")
    evening = tournament_create(
        name="Evening Cup",
        starts_at=timezone.now() + timedelta(hours=3),
        table_size=6,
        buy_in=500,
        fee=50,
        structure=TWO_LEVELS,
    )
    alice, bob, carol, dave = (player(name, cash_cents=5_000) for name in ("alice", "bob", "carol", "dave"))
    page = open_lobby(pages, "alice")
    sit_and_go_row = page.locator(f"#sit-and-go-tournaments {row(table_of_three)}")
    assert sit_and_go_row.locator('td[data-label="Players"]').text_content() == "0 / 3"

    in_thread(lambda: tournament_register(bob, table_of_three))
    entrants_shown(page, listed(table_of_three), 1)
    assert sit_and_go_row.locator('td[data-label="Players"]').text_content() == "1 / 3"

    in_thread(lambda: tournament_register(alice, evening))  # in another tab, say
    mine = page.locator(f'#my-tournaments li[data-tournament-id="{evening.pk}"]')
    mine.wait_for(state="visible", timeout=30_000)
    entrants_shown(page, listed(evening), 1)

    in_thread(lambda: tournament_register(carol, table_of_three))
    in_thread(lambda: tournament_register(dave, table_of_three))  # the last seat: it starts
    wait_until(
        page, f"document.querySelector('#sit-and-go-tournaments {row(table_of_three)}')?.dataset.status === 'running'"
    )
    assert sit_and_go_row.locator('td[data-label="Status"]').text_content().strip() == "Running"
    pages.screenshot(page, "sit-and-go-running")

    in_thread(lambda: tournament_cancel(evening, actor=carol, reason="Not enough interest."))
    finished = page.locator(f"#finished-tournaments {row(evening)}")
    finished.wait_for(state="visible", timeout=30_000)
    assert finished.locator('td[data-label="Status"]').text_content().strip() == "Cancelled"
    assert page.locator(f"#scheduled-tournaments {row(evening)}").count() == 0
    assert mine.count() == 0  # refunded: no longer one of alice's tournaments
    assert page.evaluate("window.sameDocument") is True
    pages.screenshot(page, "cancelled-moved-to-just-finished")


@pytest.mark.usefixtures("notices_sent")
def test_after_its_socket_reconnects_the_list_shows_what_changed_while_it_was_down(site: Any, pages: Pages) -> None:
    table_of_three = sit_and_go_of_three("Resync Sit & Go")
    bob = player("bob", cash_cents=5_000)
    player("alice", cash_cents=5_000)
    page = open_lobby(pages, "alice")
    socket_dropped(page, "tournamentLobbySocket", STATUS)

    in_thread(lambda: tournament_register(bob, table_of_three))  # its notice reaches no socket of the page
    assert page.locator(f"#sit-and-go-tournaments {row(table_of_three)}").get_attribute("data-entrants") == "0"

    socket_back(page, "tournamentLobbySocket", STATUS)
    entrants_shown(page, listed(table_of_three), 1)  # read again when the socket opened (the poll stopped when it did)
    assert page.evaluate("window.sameDocument") is True
