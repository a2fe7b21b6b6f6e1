"""Every refusal the server sends back is shown to the player in plain words, where they made the request: buy-ins and
top-ups at the table (CASH-10, CASH-15 limits), the seating queue, and the cashier (wallet limits and balance)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.models import Stake, Table
from games.services import table_open
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_live
from tests.browser.setup import player, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

CODE_LIKE = re.compile(r"^[a-z]+(_[a-z]+)+$")


@pytest.fixture
def nl10_table(site: Any) -> Table:
    table = table_open(Stake.objects.get(game_type__code="holdem", label="NL10"))
    seat(player("alice"), table, 600, number=1)
    player("bob", cash_cents=3000)
    return table


def notice_text(page: Any, selector: str) -> str:
    page.wait_for_selector(f"{selector} .notice-error")
    text = str(page.locator(f"{selector} .notice-error span").last.text_content()).strip()
    assert text
    assert not CODE_LIKE.match(text), f"a bare error code was shown: {text!r}"
    return text


def test_a_buy_in_the_server_refuses_is_explained_in_the_dialog(nl10_table: Table, pages: Pages) -> None:
    page = pages.new()
    log_in(page, "bob")
    page.goto(f"/games/tables/{nl10_table.pk}/")
    wait_live(page)
    page.locator("#seat-me").click()
    page.locator("#buy-in-amount").fill("12")
    page.locator("#buy-in-confirm").click()
    text = notice_text(page, "#buy-in-notices")
    assert "€5.00 to €10.00" in text
    pages.screenshot(page, "buy-in-refused")
    # Not a number at all: said before anything is sent.
    page.locator("#buy-in-amount").fill("ten euros")
    page.locator("#buy-in-confirm").click()
    assert "for example" in notice_text(page, "#buy-in-notices")


def test_a_top_up_above_the_table_maximum_is_explained(nl10_table: Table, pages: Pages) -> None:
    page = pages.new()
    log_in(page, "alice")
    page.goto(f"/games/tables/{nl10_table.pk}/")
    wait_live(page)
    page.locator("#top-up-button").click()
    page.locator("#top-up-amount").fill("9")
    page.locator("#top-up-confirm").click()
    text = notice_text(page, "#top-up-notices")
    assert "€10.00" in text
    assert "€4.00" in text  # what can still be added to a €6.00 stack
    pages.screenshot(page, "top-up-refused")


def test_the_same_refusal_reads_in_estonian_for_an_estonian_player(nl10_table: Table, pages: Pages) -> None:
    page = pages.new(language="et")
    log_in(page, "alice")
    page.goto(f"/games/tables/{nl10_table.pk}/")
    wait_live(page)
    assert page.locator("html").get_attribute("lang") == "et"
    page.locator("#top-up-button").click()
    page.locator("#top-up-amount").fill("9")
    page.locator("#top-up-confirm").click()
    text = notice_text(page, "#top-up-notices")
    assert "lauale" in text or "summa" in text.lower(), text
    pages.screenshot(page, "top-up-refused-estonian")


def test_the_cashier_explains_a_withdrawal_above_the_balance_and_a_bad_amount(nl10_table: Table, pages: Pages) -> None:
    page = pages.new()
    log_in(page, "bob")
    page.goto("/wallet/")
    page.locator("#id_withdraw-amount").fill("45")
    page.get_by_role("button", name="Withdraw", exact=True).click()
    page.wait_for_selector("[role=alert]")
    message = str(page.locator("[role=alert]").first.text_content())
    assert "€" in message
    assert page.locator("[data-testid=cash-balance]").get_attribute("data-cents") == "3000"
    pages.screenshot(page, "withdrawal-refused")
    page.goto("/wallet/")
    page.locator("#id_deposit-amount").fill("12,345.678")
    page.get_by_role("button", name="Deposit", exact=True).click()
    page.wait_for_selector("#deposit-errors")
    assert str(page.locator("#deposit-errors").text_content()).strip()
