"""LOB-05, TRN-35, TRN-03, TRN-26 in the browser, on a laptop (1366 × 768) and on a phone (390 × 844), the players of
each test given different screens: a player is brought to their tournament table wherever they are on the site. The
last registrant of a Sit & Go (on a phone), and the player who registered earlier and is reading the cashier (on a
laptop), are both taken to their table, the reader called first ("take your seat", with a countdown, in a banner
that covers nothing); two players in the lobby, one on a phone and one on a laptop, are brought to the multi-table
tournament that starts; players reading the cashier on either screen are told the table they play at, and the one
balancing moves is called to the new table and taken there, while the others stay where they are; a player at the
table they are moved from whose table socket stalls (the table's own ``player_moved`` never reaches the page) is
called and taken there by the player socket. Screenshots in test-artifacts/."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import HandEvent
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import LAPTOP, PHONE, log_in, readable, register_confirmed, wait_until
from tests.browser.setup import player, start_the_scheduled_tournament_now, tournament_started
from tests.tournaments.browser.support import (
    CALL_LEVELS,
    coordinated_until,
    disqualified_between_hands,
    started_at_tables_of_three_and_two,
)
from tournaments.models import Tournament, TournamentEntry, TournamentKind, TournamentStatus
from tournaments.services import tournament_register
from tournaments.services.catalog import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


def seat_call(page: Any, timeout: float = 30_000) -> Any:
    banner = page.locator("[data-testid=seat-call]").first
    banner.wait_for(state="visible", timeout=timeout)
    return banner


def test_the_last_registrant_of_a_sit_and_go_and_a_player_at_the_cashier_are_taken_to_their_table(
    site: Any, pages: Pages
) -> None:
    tournament = tournament_create(
        name="Heads-up Sit & Go",
        kind=TournamentKind.SIT_AND_GO,
        seats_to_start=2,
        table_size=2,
        buy_in=1_000,
        fee=100,
        structure=CALL_LEVELS,
    )
    alice, _bob = player("alice", cash_cents=5_000), player("bob", cash_cents=5_000)
    tournament_register(alice, tournament)
    reading = pages.new(**LAPTOP)
    log_in(reading, "alice")
    reading.goto("/wallet/")  # alice reads the cashier while the Sit & Go fills
    filling = pages.new(**PHONE)
    log_in(filling, "bob")
    filling.goto(f"/tournaments/{tournament.pk}/")
    register_confirmed(filling)  # the last seat: the Sit & Go starts

    banner = seat_call(reading)
    assert "Heads-up Sit & Go is starting: take your seat" in banner.text_content()
    assert reading.url.endswith("/wallet/")
    assert readable(reading, "[data-testid=seat-call]") == "readable"
    pages.screenshot(reading, "cashier-called")
    table_id = TournamentEntry.objects.get(tournament=tournament, user=alice).table_id
    assert banner.locator("[data-testid=seat-call-go]").get_attribute("href") == f"/games/tables/{table_id}/"
    for page in (reading, filling):
        page.wait_for_url(f"**/games/tables/{table_id}/", timeout=30_000)
        wait_until(page, "document.getElementById('table-app').getAttribute('data-connection') === 'live'")
        wait_until(page, "document.querySelector('#tournament-bar [data-item]') !== null")
        assert readable(page, "#tournament-bar") == "readable"
    pages.screenshot(filling, "last-registrant-at-the-table")


def test_players_in_the_lobby_on_a_phone_and_a_laptop_are_brought_to_the_tournament_that_starts(
    site: Any, pages: Pages
) -> None:
    tournament = tournament_create(
        name="Evening Freezeout",
        starts_at=timezone.now() + timedelta(minutes=10),  # brought forward once the phone's lobby is connected
        table_size=6,
        buy_in=1_000,
        fee=100,
        unregistration_closes_minutes=0,
        structure=CALL_LEVELS,
    )
    users = [player(name, cash_cents=5_000) for name in ("alice", "bob")]
    for user in users:
        tournament_register(user, tournament)
    lobbies = {}
    for user, screen, label in zip(users, (PHONE, LAPTOP), ("phone", "laptop"), strict=True):
        page = pages.new(**screen)
        log_in(page, user.username)
        page.goto("/")
        # The lobby's player socket is open (the server joins it to the player's group before it accepts) before the
        # start calls the player to the table.
        wait_until(page, "Boolean(window.Poker.playerSocket && window.Poker.playerSocket.isOpen())")
        lobbies[label] = (user, page)
    start_the_scheduled_tournament_now(tournament)
    tournament_started(tournament)
    for label, (_user, page) in lobbies.items():
        banner = seat_call(page, timeout=60_000)
        assert "Evening Freezeout is starting: take your seat" in banner.text_content()
        assert readable(page, "[data-testid=seat-call]") == "readable", label
        pages.screenshot(page, f"lobby-called-{label}")
    for label, (user, page) in lobbies.items():
        table_id = TournamentEntry.objects.get(tournament=tournament, user=user).table_id
        page.wait_for_url(f"**/games/tables/{table_id}/", timeout=30_000)
        wait_until(page, "document.getElementById('table-app').getAttribute('data-connection') === 'live'")
        pages.screenshot(page, f"at-the-table-{label}")


def balancing_moves_one_player(tournament: Any, leaving: TournamentEntry, big: int) -> HandEvent:
    """Disqualify ``leaving`` (a player of the table of two): three against one, so balancing moves one player of
    table ``big`` there. Returns the move's event."""
    disqualified_between_hands(leaving)
    coordinated_until(
        tournament,
        lambda: HandEvent.objects.filter(table_id=big, kind="player_moved").exists(),
        never="nobody was moved",
    )
    return HandEvent.objects.get(table_id=big, kind="player_moved")


def test_a_player_reading_the_cashier_is_taken_to_the_table_balancing_moves_them_to(site: Any, pages: Pages) -> None:
    tournament, small, big, by_table = started_at_tables_of_three_and_two("Balanced Freezeout", table_size=3)
    readers = {}
    for number, entry in enumerate(by_table[big]):
        page = pages.new(**(LAPTOP, PHONE)[number % 2])
        log_in(page, entry.user.username)
        page.goto("/wallet/")
        offered = seat_call(page)  # each is told the table they play at, and stays on the cashier
        assert offered.get_attribute("data-reason") == "playing"
        assert readable(page, "[data-testid=seat-call]") == "readable"
        readers[entry.user_id] = page

    # One player of the small table is disqualified: three against one, so balancing moves one player there.
    moved = balancing_moves_one_player(tournament, by_table[small][0], big)
    mover = readers[moved.payload["user_id"]]
    banner = mover.locator("[data-testid=seat-call][data-reason=moved]")
    banner.wait_for(state="visible")
    assert "You have been moved to another table in Balanced Freezeout." in banner.text_content()
    # Read at once: the banner opens the new table by itself a few seconds later. The mover's screen is the one
    # their page has (the cards choose who moves); the same banner is read above on both screens ("playing").
    assert readable(mover, "[data-testid=seat-call][data-reason=moved]") == "readable"
    pages.screenshot(mover, "moved-called")
    mover.wait_for_url(f"**/games/tables/{small}/", timeout=30_000)
    for user_id, page in readers.items():
        if user_id != moved.payload["user_id"]:
            assert page.url.endswith("/wallet/")  # the others were not moved and stay where they were
    assert Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.RUNNING


class SilencedTableSockets:
    """Routes a page's table socket through the test; after ``silence`` nothing the server sends reaches the page
    (a stalled connection: the page keeps it open and hears nothing)."""

    def __init__(self, page: Any) -> None:
        self.silent = False
        page.route_web_socket("**/ws/tables/**", self._connect)

    def _connect(self, route: Any) -> None:
        server = route.connect_to_server()
        route.on_message(server.send)
        server.on_message(lambda message: None if self.silent else route.send(message))

    def silence(self) -> None:
        self.silent = True


def test_a_player_whose_table_page_misses_the_move_is_taken_to_the_new_table_by_the_player_socket(
    site: Any, pages: Pages
) -> None:
    """TRN-26: the table page a player was moved from takes them to the new table on the table's ``player_moved``
    event; when that event does not reach the page (its table socket stalled here), the player socket's call does."""
    tournament, small, big, by_table = started_at_tables_of_three_and_two("Stalled Freezeout", table_size=3)
    at_the_table = {}
    for number, entry in enumerate(by_table[big]):
        page = pages.new(**(LAPTOP, PHONE)[number % 2])
        sockets = SilencedTableSockets(page)
        log_in(page, entry.user.username)
        page.goto(f"/games/tables/{big}/")
        wait_until(page, "document.getElementById('table-app').getAttribute('data-connection') === 'live'")
        wait_until(page, "Boolean(window.Poker.playerSocket && window.Poker.playerSocket.isOpen())")
        at_the_table[entry.user_id] = (page, sockets)
    for _page, sockets in at_the_table.values():
        sockets.silence()

    moved = balancing_moves_one_player(tournament, by_table[small][0], big)
    mover, _sockets = at_the_table[moved.payload["user_id"]]
    banner = mover.locator("[data-testid=seat-call][data-reason=moved]")
    banner.wait_for(state="visible", timeout=60_000)
    pages.screenshot(mover, "moved-called-at-the-old-table")
    mover.wait_for_url(f"**/games/tables/{small}/", timeout=60_000)
    for user_id, (page, _sockets) in at_the_table.items():
        if user_id != moved.payload["user_id"]:
            assert page.url.endswith(f"/games/tables/{big}/")  # the others were not moved and stay at their table
