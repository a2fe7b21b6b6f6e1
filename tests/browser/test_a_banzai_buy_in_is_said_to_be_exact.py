"""CASH-26: a Banzai buy-in is exactly 10 big blinds. The buy-in dialog says "The buy-in at this table is exactly
€5.00." (never "between €5.00 and €5.00" or "€5.00 to €5.00"), and another amount is refused in those words in the
dialog without being sent; the exact amount seats the player."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Seat, Stake
from games.services import table_open
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import FrameRecorder, log_in, wait_live
from tests.browser.setup import player, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

EXACTLY = "The buy-in at this table is exactly €5.00."


def test_cash_26_the_banzai_buy_in_dialog_says_exactly_and_refuses_another_amount_unsent(
    site: Any, pages: Pages
) -> None:
    table = table_open(Stake.objects.get(game_type__code="banzai", label="NL5"))  # 10 BB = €5.00
    seat(player("gina"), table, 500, number=1)
    ivan = player("ivan", cash_cents=5000)
    page = pages.new()
    recorder = FrameRecorder(page)
    log_in(page, "ivan")
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    page.locator("#seat-me").click()
    page.wait_for_selector("#buy-in-dialog[open]")
    assert EXACTLY in str(page.locator("#buy-in-limits").text_content())
    assert " to €5.00" not in str(page.locator("#buy-in-dialog").text_content())

    page.fill("#buy-in-amount", "4")
    page.locator("#buy-in-confirm").click()
    page.wait_for_selector("#buy-in-notices .notice")
    assert EXACTLY in str(page.locator("#buy-in-notices").text_content())
    pages.screenshot(page, "banzai-buy-in-exactly")

    page.fill("#buy-in-amount", "5")
    page.locator("#buy-in-confirm").click()
    page.wait_for_selector("#buy-in-dialog:not([open])", state="attached")
    assert [frame["buy_in"] for frame in recorder.sent if frame.get("type") == "seat_me"] == [500]
    assert Seat.objects.filter(table__stake=table.stake, user=ivan).exists()
