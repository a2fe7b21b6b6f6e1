"""A deposit or withdrawal takes ``amount_cents`` only as a JSON integer: the field was a JSONField, which reads a
form field's text as JSON, so a form body ``amount_cents=1000`` deposited €10 (QA finding). Text from a form, like
text in JSON, is refused with ``invalid_amount`` and no money moves; the same amount as a JSON integer goes through."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from rest_framework.test import APIClient

from poker_site.accounts.models import User
from wallet.models import CashierTransaction
from wallet.services import balance_of, player_cash_account


def client_of(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.parametrize("endpoint", ["/api/wallet/deposits/", "/api/wallet/withdrawals/"])
@pytest.mark.parametrize("body_format", ["urlencoded", "multipart"])
def test_amount_cents_sent_as_form_text_is_refused_and_nothing_moves(
    alice: User, endpoint: str, body_format: str
) -> None:
    client = client_of(alice)
    if body_format == "urlencoded":
        response = client.post(
            endpoint,
            urlencode({"amount_cents": "1000"}),
            content_type="application/x-www-form-urlencoded",
            HTTP_IDEMPOTENCY_KEY="form-cents",
        )
    else:
        response = client.post(
            endpoint, {"amount_cents": "1000"}, format="multipart", HTTP_IDEMPOTENCY_KEY="form-cents"
        )

    assert response.status_code == 400, response.content
    assert response.json()["error"] == "invalid_amount"
    assert "JSON integer" in response.json()["detail"]
    assert not CashierTransaction.objects.exists()
    assert balance_of(player_cash_account(alice)) == 10_000

    accepted = client.post(endpoint, {"amount_cents": 1000}, format="json", HTTP_IDEMPOTENCY_KEY="json-cents")
    assert accepted.status_code == 201, accepted.content
    assert accepted.json()["amount_cents"] == 1000
