"""LOB-01/LOB-02 in the browser (1366 × 768): the cash lobby's Tournaments tab follows the lobby socket's
``tournament_changed`` notices without a reload, as the tournament list page does (QA finding: the tab showed the
page's first list until a reload). A registration raises a Sit & Go's count of seats taken in the tab; after the
socket reconnects the tab reads its list again, so a registration made while it was down appears. Screenshots in
test-artifacts/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Pages, requires_chromium
from tests.browser.setup import in_thread, player
from tests.tournaments.browser.support import (
    entrants_shown,
    live_page,
    sit_and_go_of_three,
    socket_back,
    socket_dropped,
)
from tournaments.models import Tournament
from tournaments.services import tournament_register

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

STATUS = "document.getElementById('lobby-status').dataset.state"


def item(tournament: Tournament) -> str:
    return f'#lobby-tournaments li[data-tournament-id="{tournament.pk}"]'


def open_tournaments_tab(pages: Pages, username: str) -> Any:
    page = live_page(pages, username, "/", STATUS)
    page.click("#tab-tournaments")
    page.locator("#upcoming-tournaments").wait_for(state="visible")
    return page


@pytest.mark.usefixtures("notices_sent")
def test_a_registration_reaches_the_tab_without_a_reload(site: Any, pages: Pages) -> None:
    table_of_three = sit_and_go_of_three("Tab Sit & Go")
    bob = player("bob", cash_cents=5_000)
    player("alice", cash_cents=5_000)
    page = open_tournaments_tab(pages, "alice")
    shown = page.locator(item(table_of_three))
    assert "0 of 3 seats taken" in shown.text_content()

    in_thread(lambda: tournament_register(bob, table_of_three))
    entrants_shown(page, item(table_of_three), 1)
    assert "1 of 3 seats taken" in shown.text_content()
    assert page.evaluate("window.sameDocument") is True
    pages.screenshot(page, "lobby-tournaments-tab-live")


@pytest.mark.usefixtures("notices_sent")
def test_after_its_socket_reconnects_the_tab_shows_what_changed_while_it_was_down(site: Any, pages: Pages) -> None:
    table_of_three = sit_and_go_of_three("Tab Resync Sit & Go")
    bob = player("bob", cash_cents=5_000)
    player("alice", cash_cents=5_000)
    page = open_tournaments_tab(pages, "alice")
    socket_dropped(page, "lobbySocket", STATUS)

    in_thread(lambda: tournament_register(bob, table_of_three))  # its notice reaches no socket of the page
    assert page.locator(item(table_of_three)).get_attribute("data-entrants") == "0"

    socket_back(page, "lobbySocket", STATUS)
    entrants_shown(page, item(table_of_three), 1)  # read again when the socket opened
    assert page.evaluate("window.sameDocument") is True
