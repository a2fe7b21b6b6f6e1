"""CASH-15 top-up: a top-up amount the player cleared is an inline error ("Enter an amount") and sends nothing. The
dialog's suggested amount follows the table maximum only until the player edits the field; a redraw of the table (a
snapshot, a bet) must never refill a field the player emptied, or pressing "Add chips" would add the maximum."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import HandEvent, Table
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import FrameRecorder, log_in, wait_live, wait_until
from tests.browser.setup import heads_up_table, player, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


@pytest.fixture
def seated(site: Any) -> Table:
    table = heads_up_table()  # NL10: table maximum €10.00
    seat(player("alice"), table, 600, number=1)
    return table


def test_cash_15_an_emptied_top_up_field_says_enter_an_amount_and_sends_nothing(seated: Table, pages: Pages) -> None:
    page = pages.new()
    recorder = FrameRecorder(page)
    log_in(page, "alice")
    page.goto(f"/games/tables/{seated.pk}/")
    wait_live(page)

    page.click("#top-up-button")
    page.wait_for_selector("#top-up-dialog[open]")
    wait_until(page, "document.getElementById('top-up-amount').value === '4.00'")  # the suggestion: the room left
    page.fill("#top-up-amount", "")
    page.evaluate("window.tableApp.draw()")  # a redraw, as every snapshot and event makes
    assert page.locator("#top-up-amount").input_value() == ""  # the player's empty field stays empty

    page.click("#top-up-confirm")
    page.wait_for_selector("#top-up-notices .notice")
    assert "Enter an amount" in str(page.locator("#top-up-notices").text_content())
    assert page.locator("#top-up-amount").get_attribute("aria-invalid") == "true"
    assert page.locator("#top-up-dialog").get_attribute("open") is not None  # the dialog stays open to correct it
    pages.screenshot(page, "top-up-empty-amount")

    # A typed amount is still sent as it is, and it is the only top-up the page ever sent (frames keep their order).
    page.fill("#top-up-amount", "1.50")
    page.click("#top-up-confirm")
    page.wait_for_selector("#top-up-dialog", state="hidden")
    wait_until(page, "document.querySelector('.seat[data-seat=\"1\"] .stack').dataset.cents === '750'")
    assert [frame["amount"] for frame in recorder.sent if frame.get("type") == "top_up"] == [150]
    assert [event.payload["amount"] for event in HandEvent.objects.filter(table=seated, kind="seat_topped_up")] == [150]
