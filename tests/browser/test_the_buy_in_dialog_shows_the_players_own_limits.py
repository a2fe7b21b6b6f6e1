"""The buy-in dialog shows the player's own limits at the table, with the reason (LOB-05): the ratholing minimum of
the table they left in plain words (CASH-11), and for Banzai the Resume or Reset choice (CASH-30, CASH-31), which the
seat follows."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Seat, Stake
from games.services import table_open
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_live, wait_until
from tests.browser.setup import player, seat
from tests.tables.support import left_table_earlier

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


def open_buy_in(page: Any, table_id: int) -> None:
    page.goto(f"/games/tables/{table_id}/")
    wait_live(page)
    page.locator("#seat-me").click()
    page.wait_for_selector("#buy-in-dialog[open]")


def test_lob_05_cash_11_the_dialog_shows_the_ratholing_minimum_of_the_table_the_player_left(
    site: Any, pages: Pages
) -> None:
    table = table_open(Stake.objects.get(game_type__code="holdem", label="NL10"))
    seat(player("erin"), table, 600, number=1)
    returning = player("frank", cash_cents=3000)
    left_table_earlier(returning, table, 730, timezone.now() - timedelta(minutes=10))
    page = pages.new()
    log_in(page, "frank")

    open_buy_in(page, table.pk)

    wait_until(page, "document.getElementById('buy-in-limits').textContent.includes('You left this table with')")
    text = str(page.locator("#buy-in-limits").text_content())
    assert "between €7.30 and €10.00" in text
    page.locator("[data-buy-in='min']").click()
    assert page.locator("#buy-in-amount").input_value() == "7.30"
    pages.screenshot(page, "buy-in-ratholing-minimum")


def test_cash_31_a_banzai_player_back_with_a_big_stack_chooses_reset_in_the_dialog(site: Any, pages: Pages) -> None:
    stake = Stake.objects.get(game_type__code="banzai", label="NL5")
    left, table = table_open(stake), table_open(stake)
    seat(player("gina"), table, 500, number=1)
    returning = player("hank", cash_cents=5000)
    left_table_earlier(returning, left, 1200, timezone.now() - timedelta(minutes=10))
    page = pages.new()
    log_in(page, "hank")

    open_buy_in(page, table.pk)

    page.wait_for_selector("#buy-in-banzai:not([hidden])")
    assert "Resume with €12.00" in str(page.locator("#buy-in-banzai").text_content())
    assert "Reset to €5.00 (5 resets left today)" in str(page.locator("#buy-in-banzai").text_content())
    assert page.locator("#buy-in-amount").input_value() == "12.00"
    page.locator("#buy-in-banzai-reset-choice").check()
    assert page.locator("#buy-in-amount").input_value() == "5.00"
    pages.screenshot(page, "buy-in-banzai-reset")
    page.locator("#buy-in-confirm").click()
    page.wait_for_selector("#buy-in-dialog:not([open])", state="attached")
    session = Seat.objects.select_related("session").get(table=table, user=returning).session
    assert session is not None
    assert (session.initial_buy_in, session.buy_in_kind) == (500, "banzai_reset")
