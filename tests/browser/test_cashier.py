"""The cashier page: a sandbox deposit and a withdrawal move the balance shown in the page and the header exactly as
the ledger does, and the transaction history lists both with the balance after each."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import deposit, header_balance, log_in
from tests.browser.setup import player
from wallet.models import Account, AccountKind

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


@pytest.fixture
def newcomer(site: Any) -> Any:
    return player("dana", cash_cents=0)


def ledger_cash(user: Any) -> int:
    account = Account.objects.filter(owner=user, kind=AccountKind.PLAYER_CASH).first()
    return int(account.balance) if account is not None else 0


def test_deposit_and_withdrawal_show_the_ledger_balance_and_history(newcomer: Any, pages: Pages) -> None:
    page = pages.new()
    log_in(page, "dana")
    assert header_balance(page) == 0
    deposit(page, "25.50")
    assert page.locator(".notice-success, .notice-info").first.text_content() == "Deposited €25.50."
    assert ledger_cash(newcomer) == 2550
    assert page.locator("[data-testid=cash-balance]").get_attribute("data-cents") == "2550"
    assert header_balance(page) == 2550

    page.locator("#id_withdraw-amount").fill("10")
    with page.expect_navigation(wait_until="domcontentloaded"):
        page.get_by_role("button", name="Withdraw", exact=True).click()
    assert ledger_cash(newcomer) == 1550
    assert page.locator("[data-testid=cash-balance]").get_attribute("data-cents") == "1550"
    assert header_balance(page) == 1550

    amounts = page.locator("#cashier-history td.money").evaluate_all("cells => cells.map(c => Number(c.dataset.cents))")
    assert amounts == [-1000, 1550, 2550, 2550]  # newest first: amount, balance after
    pages.screenshot(page, "cashier")
