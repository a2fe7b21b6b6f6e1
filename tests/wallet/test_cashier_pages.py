"""The /wallet/ cashier page: balance, labelled deposit and withdrawal forms, history; errors shown in place."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from poker_site.accounts.models import User
from wallet.models import CashierTransaction
from wallet.services import balance_of, player_cash_account


@pytest.fixture
def browser(alice: User) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def _key(page: str, prefix: str) -> str:
    match = re.search(rf'name="{prefix}-idempotency_key" value="([0-9a-f]+)"', page)
    assert match, "the form carries an idempotency key"
    return match.group(1)


def test_the_cashier_page_needs_a_log_in(db: None) -> None:
    response = Client().get("/wallet/")
    assert response.status_code == 302
    assert "/accounts/" in response["Location"]


def test_the_cashier_page_shows_the_balance_forms_with_labels_and_history(browser: Client) -> None:
    page = browser.get("/wallet/").content.decode()

    assert "€100.00" in page
    for prefix in ("deposit", "withdraw"):
        assert f'<label for="id_{prefix}-amount">' in page
        assert f'id="id_{prefix}-amount"' in page
    assert "test-funding:" in page  # the funding deposit's reference in the history


def test_a_deposit_through_the_page_credits_once_even_if_submitted_twice(browser: Client, alice: User) -> None:
    key = _key(browser.get("/wallet/").content.decode(), "deposit")
    form = {"deposit-amount": "25.50", "deposit-idempotency_key": key}

    first = browser.post("/wallet/deposit/", form)
    second = browser.post("/wallet/deposit/", form)

    assert first.status_code == second.status_code == 302
    assert balance_of(player_cash_account(alice)) == 12_550
    assert CashierTransaction.objects.count() == 1
    assert "Deposited €25.50." in browser.get("/wallet/").content.decode()


def test_a_malformed_amount_is_shown_next_to_the_field_and_changes_nothing(browser: Client, alice: User) -> None:
    key = _key(browser.get("/wallet/").content.decode(), "withdraw")
    response = browser.post("/wallet/withdraw/", {"withdraw-amount": "12.345", "withdraw-idempotency_key": key})

    assert response.status_code == 400
    page = response.content.decode()
    assert "Use at most two decimals" in page
    assert 'aria-invalid="true"' in page
    assert balance_of(player_cash_account(alice)) == 10_000


def test_withdrawing_more_than_the_cash_balance_says_why(browser: Client, alice: User) -> None:
    key = _key(browser.get("/wallet/").content.decode(), "withdraw")
    response = browser.post("/wallet/withdraw/", {"withdraw-amount": "150", "withdraw-idempotency_key": key})

    assert response.status_code == 400
    assert "at most your cash balance of €100.00" in response.content.decode()
    assert balance_of(player_cash_account(alice)) == 10_000
