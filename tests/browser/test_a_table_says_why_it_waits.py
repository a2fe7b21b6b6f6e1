"""Between hands a cash table says why no hand is dealt and what will start one: a two-player table that must wait for
a third player (CASH-06, AMB-11: a hand needs three players unless the hand before had three or more) says so instead
of "The next hand starts shortly."; a lone player is told, in plain words, how many are ready and how many more are
needed, and is offered the other open tables of the same game and stake with a free seat (issue 28)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.models import Stake, Table
from games.services import table_open
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_live
from tests.browser.setup import in_thread, player, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


@pytest.fixture
def two_player_table(site: Any) -> Table:
    """A table under the catalogue's rules (three players to start, no heads-up continuation)."""
    table = table_open(Stake.objects.get(game_type__code="holdem", label="NL10"))
    seat(player("alice"), table, 1000, number=1)
    return table


def test_a_two_player_table_says_it_waits_for_a_third_player(two_player_table: Table, pages: Pages) -> None:
    stake = two_player_table.stake
    other = table_open(stake, name="Other NL10")
    seat(player("carol"), other, 1000, number=1)
    seat(player("dave"), other, 1000, number=2)
    full = table_open(stake, name="Full NL10")
    for number in range(1, full.seat_count + 1):
        seat(player(f"full{number}"), full, 1000, number=number)
    page = pages.new()
    log_in(page, "alice")
    page.goto(f"/games/tables/{two_player_table.pk}/")
    wait_live(page)
    page.wait_for_selector("#hand-info[data-waiting=players]")
    text = str(page.locator("#hand-info").text_content())
    assert "1 ready to play here, 2 more needed to start a hand" in text
    assert not re.search(r"\b[A-Z]{2,4}-\d+", text)  # no requirement ID (CASH-06) in what the player reads
    offer = page.locator("#other-tables")
    offer.wait_for(state="visible")
    links = offer.locator("a")
    assert links.count() == 1  # the full table is not offered, nor this one
    assert links.first.get_attribute("href") == f"/games/tables/{other.pk}/"
    assert "Other NL10 (2 of 6 seats taken)" in str(links.first.text_content())
    pages.screenshot(page, "waiting-for-players-offers-other-tables")
    bob = player("bob")
    in_thread(lambda: seat(bob, two_player_table, 1000, number=4))
    page.wait_for_selector("#hand-info[data-waiting=third_player]")
    text = str(page.locator("#hand-info").text_content())
    assert "third player" in text
    assert "starts shortly" not in text
    assert "third player" in str(page.locator("#action-prompt").text_content())
    pages.screenshot(page, "waiting-for-a-third-player")
