"""The cash lobby (LOB-01) at 1366 × 800: every row's button is on screen (nothing cut off), the columns sort when
their heading is pressed, the tables the player sits at are marked (with "Open" instead of "Play this stake"), and the
players seated per game are counted above the list. A new account is welcomed, not "welcomed back"."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Stake, Table
from games.services import table_open
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, sign_up
from tests.browser.setup import player, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

LAPTOP = {"width": 1366, "height": 800}


@pytest.fixture
def tables(site: Any) -> dict[str, Table]:
    opened = {
        "holdem NL10": table_open(Stake.objects.get(game_type__code="holdem", label="NL10")),
        "holdem NL4": table_open(Stake.objects.get(game_type__code="holdem", label="NL4")),
        "omaha PL10": table_open(Stake.objects.get(game_type__code="omaha", label="PL10")),
    }
    seat(player("alice"), opened["holdem NL10"], 700)
    seat(player("carol"), opened["omaha PL10"], 700)
    seat(player("dave"), opened["holdem NL4"], 300)
    return opened


def test_the_lobby_fits_sorts_and_marks_the_players_tables(tables: dict[str, Table], pages: Pages) -> None:
    page = pages.new(**LAPTOP)
    log_in(page, "alice")
    page.goto("/")
    # The rows are drawn again when the player's own tables are known (their row then offers "Open"), and on every
    # live update: wait for the first, then measure every button in one step of the page (a soak run caught a
    # redraw between listing the buttons and measuring one, which then measured nothing).
    page.wait_for_selector(f"#lobby-table-{tables['holdem NL10'].pk}[data-mine=true]")
    pages.screenshot(page, "lobby-1366")
    boxes = page.locator("#cash-table-rows .lobby-row-actions > *").evaluate_all(
        "buttons => buttons.map(button => [button.getBoundingClientRect().left, button.getBoundingClientRect().width])"
    )
    assert len(boxes) == 1 + 2 + 2  # Open at the player's table; Watch and Play this stake at the two others
    for left, width in boxes:
        assert width > 0
        assert left >= 0
        assert left + width <= LAPTOP["width"], "a row's button is cut off"
    assert page.evaluate(
        "(() => { const box = document.querySelector('.table-scroll'); return box.scrollWidth <= box.clientWidth; })()"
    ), "the table list scrolls sideways"

    own = page.locator(f"#lobby-table-{tables['holdem NL10'].pk}")
    assert own.get_attribute("data-mine") == "true"
    assert own.locator("[data-action=play-stake]").count() == 0
    assert page.locator("#cash-table-rows [data-action=join]").count() == 0, "no row offers its table (CASH-04)"
    assert own.get_by_role("link", name="Open your table").count() == 1
    assert page.locator("#cash-table-rows tr[data-mine]").count() == 1

    counts = dict(
        page.locator("#players-online li").evaluate_all(
            "items => items.map(item => [item.dataset.game, Number(item.querySelector('strong').dataset.players)])"
        )
    )
    assert counts == {"holdem": 2, "omaha": 1}

    def stakes_in_order() -> list[str]:
        return list(page.locator("#cash-table-rows tr").evaluate_all("rows => rows.map(row => row.dataset.stake)"))

    page.locator("th[data-sort=stake] button").click()
    assert page.locator("th[data-sort=stake]").get_attribute("aria-sort") == "ascending"
    assert stakes_in_order()[0] == "NL4"  # by big blind; NL10 and PL10 share theirs
    page.locator("th[data-sort=stake] button").click()
    assert page.locator("th[data-sort=stake]").get_attribute("aria-sort") == "descending"
    assert stakes_in_order()[-1] == "NL4"
    page.reload()  # the order is kept in the address
    page.wait_for_selector("#cash-table-rows tr")
    assert page.locator("th[data-sort=stake]").get_attribute("aria-sort") == "descending"


def test_a_new_account_is_welcomed_and_not_welcomed_back(site: Any, pages: Pages) -> None:
    page = pages.new()
    sign_up(page, "newcomer")
    page.goto("/")
    greeting = str(page.locator("#greeting").text_content())
    assert "Welcome, newcomer" in greeting
    assert "back" not in greeting
