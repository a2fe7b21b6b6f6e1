"""LOB-01/LOB-02 in the browser (1366 × 768): the cash lobby's Tournaments tab follows the lobby socket's
``tournament_changed`` notices without a reload, as the tournament list page does (QA finding: the tab showed the
page's first list until a reload). A registration raises a Sit & Go's count of seats taken in the tab; after the
socket reconnects the tab reads its list again, so a registration made while it was down appears. Screenshots in
test-artifacts/."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_until
from tests.browser.setup import in_thread, player
from tournaments import realtime as tournament_realtime
from tournaments.models import Tournament, TournamentKind
from tournaments.rules.levels import structure_from_rows
from tournaments.services import tournament_register
from tournaments.services.catalog import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

LEVELS = structure_from_rows("lobby tab", 1_000, [(10, 20, 0), (20, 40, 0)], 300)

ANNOUNCE: Callable[[int], None] = tournament_realtime.tournament_changed
"""The real notice, taken before the tournament tests' autouse fixture silences it in the test process."""

STATUS = "document.getElementById('lobby-status').dataset.state"


@pytest.fixture
def notices_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    """The services this test calls announce their changes to the site's sockets, as the site's own processes do."""
    monkeypatch.setattr(tournament_realtime, "tournament_changed", ANNOUNCE)


def sit_and_go(name: str) -> Tournament:
    return tournament_create(
        name=name,
        kind=TournamentKind.SIT_AND_GO,
        seats_to_start=3,
        table_size=3,
        buy_in=100,
        fee=10,
        structure=LEVELS,
        reopens=False,
    )


def entrants_shown(page: Any, tournament: Tournament, count: int) -> None:
    selector = f'#lobby-tournaments li[data-tournament-id="{tournament.pk}"]'
    wait_until(page, f"document.querySelector('{selector}')?.dataset.entrants === '{count}'", timeout=30_000)


def open_tournaments_tab(pages: Pages, username: str) -> Any:
    page = pages.new(width=1366, height=768)
    log_in(page, username)
    page.goto("/")
    wait_until(page, f"{STATUS} === 'live'")
    page.click("#tab-tournaments")
    page.locator("#upcoming-tournaments").wait_for(state="visible")
    page.evaluate("window.sameDocument = true")  # gone if the page reloads
    return page


@pytest.mark.usefixtures("notices_sent")
def test_a_registration_reaches_the_tab_without_a_reload(site: Any, pages: Pages) -> None:
    table_of_three = sit_and_go("Tab Sit & Go")
    bob = player("bob", cash_cents=5_000)
    player("alice", cash_cents=5_000)
    page = open_tournaments_tab(pages, "alice")
    item = page.locator(f'#lobby-tournaments li[data-tournament-id="{table_of_three.pk}"]')
    assert "0 of 3 seats taken" in item.text_content()

    in_thread(lambda: tournament_register(bob, table_of_three))
    entrants_shown(page, table_of_three, 1)
    assert "1 of 3 seats taken" in item.text_content()
    assert page.evaluate("window.sameDocument") is True
    pages.screenshot(page, "lobby-tournaments-tab-live")


@pytest.mark.usefixtures("notices_sent")
def test_after_its_socket_reconnects_the_tab_shows_what_changed_while_it_was_down(site: Any, pages: Pages) -> None:
    table_of_three = sit_and_go("Tab Resync Sit & Go")
    bob = player("bob", cash_cents=5_000)
    player("alice", cash_cents=5_000)
    page = open_tournaments_tab(pages, "alice")
    # The connection drops and, for now, does not come back: the registration's notice reaches no socket of the page.
    page.evaluate("() => { const socket = window.lobbySocket; socket.connect = () => {}; socket.drop(); }")
    wait_until(page, f"{STATUS} === 'reconnecting'")

    in_thread(lambda: tournament_register(bob, table_of_three))
    item = page.locator(f'#lobby-tournaments li[data-tournament-id="{table_of_three.pk}"]')
    assert item.get_attribute("data-entrants") == "0"

    page.evaluate("() => { const socket = window.lobbySocket; delete socket.connect; socket.reconnectNow(); }")
    wait_until(page, f"{STATUS} === 'live'")
    entrants_shown(page, table_of_three, 1)  # read again when the socket opened
    assert page.evaluate("window.sameDocument") is True
