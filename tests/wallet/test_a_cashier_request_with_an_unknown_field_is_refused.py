"""A deposit or withdrawal whose body has a field the cashier does not take (``"currency": "USD"``) is refused with
a message naming the field, and no money moves (the hardening issue, item 6: the field used to be ignored and euros
deposited)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from poker_site.accounts.models import User
from wallet.models import CashierTransaction
from wallet.services import balance_of, player_cash_account


@pytest.mark.parametrize("endpoint", ["/api/wallet/deposits/", "/api/wallet/withdrawals/"])
def test_a_currency_field_is_refused_and_nothing_moves(alice: User, endpoint: str) -> None:
    client = APIClient()
    client.force_authenticate(alice)
    response = client.post(
        endpoint, {"amount": "20.00", "currency": "USD"}, format="json", HTTP_IDEMPOTENCY_KEY="unknown-field"
    )
    assert response.status_code == 400
    assert response.json() == {
        "error": "invalid_request",
        "detail": "currency: Unknown field 'currency': this request takes only amount, amount_cents.",
    }
    assert not CashierTransaction.objects.exists()
    assert balance_of(player_cash_account(alice)) == 10_000


def test_the_same_request_without_the_field_goes_through(alice: User) -> None:
    client = APIClient()
    client.force_authenticate(alice)
    response = client.post("/api/wallet/deposits/", {"amount": "20.00"}, format="json", HTTP_IDEMPOTENCY_KEY="known")
    assert response.status_code == 201
    assert balance_of(player_cash_account(alice)) == 12_000
