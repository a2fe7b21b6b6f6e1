"""A self-excluded player is offered no seat (issue 28: "buttons that would be refused are not offered ... seat buttons
for a self-excluded player"; RG self-exclusion): the lobby's rows carry no "Play this stake" and the stake picker's
"Seat me" is hidden, the table page offers no "Seat me at this stake"; the page's notice says why and until when. A
player who is not excluded sees all three."""

from __future__ import annotations

from typing import Any

import pytest

from poker_site.responsible_gaming.services import self_exclusion_start
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_live, wait_until
from tests.browser.setup import heads_up_table, player, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


def seat_offers(page: Any, table_id: int) -> dict[str, Any]:
    page.goto("/")
    wait_until(page, f"document.getElementById('lobby-table-{table_id}') !== null")
    lobby = {
        "row buttons": page.locator("#cash-lobby [data-action=play-stake]").count(),
        "picker": page.locator("#play-stake").is_visible(),
        "notice": page.locator("[data-testid=self-exclusion-notice]").count(),
    }
    page.goto(f"/games/tables/{table_id}/")
    wait_live(page)
    lobby["table seat me"] = page.locator("#seat-me").is_visible()
    return lobby


def test_the_lobby_and_the_table_offer_a_self_excluded_player_no_seat(site: Any, pages: Pages) -> None:
    table = heads_up_table()
    seat(player("dealer"), table, 1_000, number=1)
    excluded, welcome = player("alice"), player("bob")
    self_exclusion_start(excluded, "7d", confirmed=True)

    page = pages.new(width=1366, height=768)
    log_in(page, "alice")
    offers = seat_offers(page, table.pk)
    assert offers == {"row buttons": 0, "picker": False, "notice": 1, "table seat me": False}
    pages.screenshot(page, "excluded-table")

    other = pages.new(width=1366, height=768)
    log_in(other, welcome.username)
    offers = seat_offers(other, table.pk)
    assert offers["row buttons"] >= 1
    assert offers["picker"] is True
    assert offers["notice"] == 0
    assert offers["table seat me"] is True
