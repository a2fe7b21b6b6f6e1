"""A JSON body whose object has the same key twice (``{"amount_cents": -5, "amount_cents": 1000}``) is refused with a
400 that names the key, by every REST endpoint, and nothing changes. Python's decoder keeps the last value, so that
body deposited €10 while a reader keeping the first one (a log, a proxy, a person) saw -5 (QA finding). The parser is
``poker_site.core.json_parser.StrictJSONParser``."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from poker_site.accounts.models import User
from wallet.models import CashierTransaction
from wallet.services import balance_of, player_cash_account

pytestmark = pytest.mark.django_db

REPEATED_AMOUNT = '{"amount_cents": -5, "amount_cents": 1000}'


def post(user: User, path: str, body: str) -> Any:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client.post(path, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="repeated-key-test")


@pytest.mark.parametrize("path", ["/api/wallet/deposits/", "/api/wallet/withdrawals/"])
def test_a_cashier_body_with_amount_cents_twice_moves_no_money(path: str) -> None:
    alice = User.objects.create_user("alice", password=None)
    before = balance_of(player_cash_account(alice))

    response = post(alice, path, REPEATED_AMOUNT)

    assert response.status_code == 400, response.content[:300]
    detail = response.json()["detail"]
    assert "'amount_cents' appears more than once" in detail
    assert not CashierTransaction.objects.exists()
    assert balance_of(player_cash_account(alice)) == before


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/tournaments/hexapro/registrations/", '{"tier": 1, "tier": 2}'),
        ("/api/games/stakes/1/queue/", '{"buy_in": 1000, "buy_in": 400}'),
        ("/api/compliance/program-reports/", '{"a": {"b": 1, "b": 1}}'),
    ],
)
def test_every_rest_endpoint_refuses_a_repeated_key_even_in_a_nested_object(path: str, body: str) -> None:
    response = post(User.objects.create_user("mallory", password=None), path, body)

    assert response.status_code == 400, response.content[:300]
    assert "appears more than once in one object" in response.content.decode()
