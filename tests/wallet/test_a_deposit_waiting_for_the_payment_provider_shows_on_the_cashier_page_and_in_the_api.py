"""A deposit waiting for the payment provider (a provider time-out leaves one: the reservation is made, the charge is
unknown) shows on the cashier page with its status, in the balance and in the cashier API with ``status`` and
``status_label``; the page's "ask again" button retries it with its own key, so it is finished, never made twice
(QA report i, finding 2)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from poker_site.accounts.models import User
from wallet.models import CashierDirection, CashierStatus, CashierTransaction
from wallet.services import balance_of, deposit_reserve, player_cash_account

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]


@pytest.fixture
def waiting(make_player: Callable[..., User], client: Client) -> CashierTransaction:
    player = make_player("waiting", 0)
    client.force_login(player)
    return deposit_reserve(player, 4_000, "timed-out-key")


def test_the_cashier_page_lists_it_waiting_for_the_payment_provider(
    client: Client, waiting: CashierTransaction
) -> None:
    body = client.get(reverse("wallet:cashier")).content.decode()
    assert f'data-testid="cashier-status-{waiting.pk}">waiting for the payment provider' in body
    assert '<dd data-testid="pending-deposits" data-cents="4000">€40.00</dd>' in body


def test_the_api_shows_it_in_the_balance_and_the_cashier_transactions(
    client: Client, waiting: CashierTransaction
) -> None:
    balance = client.get("/api/wallet/balance/").json()
    assert (balance["pending_deposits_cents"], balance["pending_deposits"]) == (4_000, "€40.00")
    listed = client.get("/api/wallet/cashier-transactions/").json()["results"]
    assert [(row["id"], row["direction"], row["status"], row["status_label"]) for row in listed] == [
        (waiting.pk, "deposit", "pending", "waiting for the payment provider")
    ]


def test_asking_again_finishes_the_same_deposit(client: Client, waiting: CashierTransaction) -> None:
    response = client.post(
        reverse("wallet:deposit"), {"deposit-idempotency_key": "timed-out-key", "deposit-amount": "40.00"}
    )
    assert response.status_code == 302
    waiting.refresh_from_db()
    assert waiting.status == CashierStatus.COMPLETED
    assert CashierTransaction.objects.filter(player=waiting.player, direction=CashierDirection.DEPOSIT).count() == 1
    assert balance_of(player_cash_account(waiting.player)) == 4_000
