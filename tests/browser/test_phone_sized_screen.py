"""The table and the lobby are usable on a phone-sized screen (390 × 844): nothing overflows sideways, the player's
cards, the board and every legal action are on screen and big enough to tap."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Table
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, visible_actions, wait_live, wait_until
from tests.browser.setup import heads_up_table, player, running_hand, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def dealt_table(site: Any) -> Table:
    table = heads_up_table()
    seat(player("alice"), table, 1000, number=1)
    seat(player("bob"), table, 1000, number=4)
    running_hand(table)
    return table


def no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "the page scrolls sideways"


def test_a_player_plays_from_a_phone(dealt_table: Table, pages: Pages) -> None:
    acting = running_hand(dealt_table).acting_seat
    page = pages.new(**PHONE)
    log_in(page, "alice" if acting == 1 else "bob")
    no_sideways_scroll(page)
    pages.screenshot(page, "lobby-phone")
    page.goto(f"/games/tables/{dealt_table.pk}/")
    wait_live(page)
    wait_until(page, "document.querySelectorAll('#my-cards [data-card]').length === 2")
    no_sideways_scroll(page)
    actions = visible_actions(page)
    assert actions
    for act in actions:
        box = page.locator(f"#action-buttons [data-act={act}]").bounding_box()
        assert box is not None
        assert box["width"] >= 44
        assert box["height"] >= 44  # a comfortable tap target
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= PHONE["width"]
    # Measured in one evaluation: the page redraws its seats as events arrive, and a seat located, then measured,
    # may have been replaced in between (Playwright then finds no box).
    seat_boxes = page.evaluate(
        "Array.from(document.querySelectorAll('#seats .seat')).map(seat => {"
        " const box = seat.getBoundingClientRect(); return [box.left, box.right, box.width, box.height]; })"
    )
    assert seat_boxes
    for left, right, width, height in seat_boxes:
        assert width > 0
        assert height > 0
        assert left >= -1
        assert right <= PHONE["width"] + 1
    pages.screenshot(page, "table-phone")
    choice = "check" if "check" in actions else "call"
    sequence = int(page.locator("#table-app").get_attribute("data-sequence"))
    page.locator(f"#action-buttons [data-act={choice}]").click()
    wait_until(page, f"Number(document.getElementById('table-app').dataset.sequence) > {sequence}")
