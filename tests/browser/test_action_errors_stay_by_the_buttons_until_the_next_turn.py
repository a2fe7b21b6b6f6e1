"""A refused action is explained next to the action buttons, where the player is looking, one message at a time, and
the message goes away when the player's next turn starts (it never lingers into later turns or hands, nor stacks up
above the table). Requirement: LOB-04 (table controls), GEN plain-words errors."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Table
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, my_turn, wait_live, wait_until
from tests.browser.setup import act_until_seat_acts, heads_up_table, in_thread, player, running_hand, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

LAPTOP = {"width": 1366, "height": 800}


@pytest.fixture
def dealt(site: Any) -> tuple[Table, dict[int, Any]]:
    table = heads_up_table()
    users = {1: player("alice"), 4: player("bob")}
    seat(users[1], table, 1000, number=1)
    seat(users[4], table, 1000, number=4)
    running_hand(table)
    return table, users


def in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    viewport = page.viewport_size
    return bool(box) and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"]


def test_an_amount_out_of_range_is_explained_by_the_buttons_and_cleared_on_the_next_turn(
    dealt: tuple[Table, dict[int, Any]], pages: Pages
) -> None:
    table, users = dealt
    acting = running_hand(table).acting_seat
    assert acting is not None
    page = pages.new(**LAPTOP)
    log_in(page, users[acting].username)
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    my_turn(page)
    raise_or_bet = "raise" if page.locator("#action-buttons [data-act=raise]").is_visible() else "bet"
    for _ in range(2):  # the same mistake twice: still one message, not a pile
        page.locator("#bet-amount").fill("999")
        page.locator(f"#action-buttons [data-act={raise_or_bet}]").click()
    page.wait_for_selector("#action-notices .notice-error")
    assert page.locator("#action-notices .notice").count() == 1
    assert "between" in str(page.locator("#action-notices .notice-error").text_content())
    assert page.locator("#table-notices .notice").count() == 0, "the error is shown above the table"
    assert in_view(page, "#action-notices"), "the error is out of sight of the action bar"
    pages.screenshot(page, "error-by-the-buttons")

    # The player calls; the other player plays on until it is this player's turn again (the next street).
    sequence = int(page.locator("#table-app").get_attribute("data-sequence"))
    page.locator("#action-buttons [data-act=call]:visible, #action-buttons [data-act=check]:visible").first.click()
    wait_until(page, f"Number(document.getElementById('table-app').dataset.sequence) > {sequence}")
    in_thread(lambda: act_until_seat_acts(table, users, acting))
    wait_until(
        page,
        "document.querySelector('#hand-info').textContent.includes('Flop')"
        " && document.querySelectorAll('#action-buttons [data-act]:not([hidden])').length > 0",
    )
    assert page.locator("#action-notices .notice").count() == 0, "the error stayed on screen into the next turn"
