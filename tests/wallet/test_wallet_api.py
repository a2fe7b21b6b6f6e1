"""The wallet API: balance, history, deposits and withdrawals, with clear JSON errors."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from poker_site.accounts.models import User
from wallet.models import AccountKind, CashierTransaction
from wallet.services import (
    TransferLeg,
    balance_of,
    ledger_reconcile,
    player_cash_account,
    reference_account,
    transfer_create,
)


@pytest.fixture
def client_of() -> object:
    def make(user: User) -> APIClient:
        client = APIClient()
        client.force_authenticate(user)
        return client

    return make


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("get", "/api/wallet/balance/"),
        ("get", "/api/wallet/transactions/"),
        ("post", "/api/wallet/deposits/"),
        ("post", "/api/wallet/withdrawals/"),
    ],
)
def test_every_endpoint_needs_a_logged_in_player(db: None, method: str, url: str) -> None:
    response = getattr(APIClient(), method)(url, {"amount": "10"}, format="json")
    assert response.status_code == 403


def test_the_balance_shows_cash_and_money_at_tables_in_cents_and_formatted(alice: User, client_of) -> None:  # type: ignore[no-untyped-def]
    session = reference_account(AccountKind.TABLE_SESSION, "table-session:3", owner=alice)
    transfer_create(
        kind="cash_buy_in",
        legs=[TransferLeg(player_cash_account(alice), -2_550), TransferLeg(session, 2_550)],
        idempotency_key="buy-in",
        reference="table-session:3",
    )

    body = client_of(alice).get("/api/wallet/balance/").json()

    assert body["currency"] == "EUR"
    assert (body["cash_cents"], body["cash"]) == (7_450, "€74.50")
    assert (body["at_tables_cents"], body["at_tables"]) == (2_550, "€25.50")
    assert body["withheld_cents"] == 0


def test_a_deposit_needs_an_idempotency_key_header(alice: User, client_of) -> None:  # type: ignore[no-untyped-def]
    response = client_of(alice).post("/api/wallet/deposits/", {"amount": "20.00"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == "idempotency_key_required"
    assert "Idempotency-Key" in response.json()["detail"]
    assert not CashierTransaction.objects.exists()


def test_a_deposit_is_created_once_per_key(alice: User, client_of) -> None:  # type: ignore[no-untyped-def]
    client = client_of(alice)
    first = client.post("/api/wallet/deposits/", {"amount": "20.50"}, format="json", HTTP_IDEMPOTENCY_KEY="dep-1")
    again = client.post("/api/wallet/deposits/", {"amount": "20.50"}, format="json", HTTP_IDEMPOTENCY_KEY="dep-1")
    conflict = client.post(
        "/api/wallet/deposits/", {"amount_cents": 999_00}, format="json", HTTP_IDEMPOTENCY_KEY="dep-1"
    )

    assert first.status_code == 201
    assert first.json()["amount_cents"] == 2_050
    assert first.json()["amount"] == "€20.50"
    assert first.json()["balance_cents"] == 12_050
    assert again.status_code == 201
    assert again.json()["id"] == first.json()["id"]
    assert conflict.status_code == 409
    assert conflict.json()["error"] == "idempotency_conflict"
    assert balance_of(player_cash_account(alice)) == 12_050


@pytest.mark.parametrize(
    ("payload", "error"),
    [
        ({"amount": "-5"}, "invalid_amount"),
        ({"amount": "1e3"}, "invalid_amount"),
        ({"amount": "12.345"}, "invalid_amount"),
        ({"amount": "NaN"}, "invalid_amount"),
        ({"amount": 12.5}, "invalid_amount"),
        ({"amount_cents": 12.5}, "invalid_amount"),
        ({"amount_cents": True}, "invalid_amount"),
        ({"amount_cents": "1000"}, "invalid_amount"),
        ({"amount_cents": -1000}, "invalid_amount"),
        ({"amount_cents": 10**13}, "invalid_amount"),
        ({}, "invalid_amount"),
        ({"amount": "10", "amount_cents": 1000}, "invalid_amount"),
        ({"amount": "5"}, "cashier_limit_exceeded"),
    ],
)
def test_bad_deposits_get_a_clear_json_error_and_change_nothing(
    alice: User,
    client_of,
    payload: dict[str, object],
    error: str,  # type: ignore[no-untyped-def]
) -> None:
    response = client_of(alice).post("/api/wallet/deposits/", payload, format="json", HTTP_IDEMPOTENCY_KEY="bad")
    assert response.status_code == 400, response.content
    assert response.json()["error"] == error
    assert response.json()["detail"]
    assert not CashierTransaction.objects.exists()
    assert balance_of(player_cash_account(alice)) == 10_000


def test_a_withdrawal_beyond_the_cash_balance_is_refused_clearly(alice: User, client_of) -> None:  # type: ignore[no-untyped-def]
    response = client_of(alice).post(
        "/api/wallet/withdrawals/", {"amount": "100.01"}, format="json", HTTP_IDEMPOTENCY_KEY="w-1"
    )
    assert response.status_code == 400
    assert response.json() == {
        "error": "insufficient_funds",
        "detail": "You can withdraw at most your cash balance of €100.00; this is €0.01 more.",
    }


def test_a_withdrawal_is_paid_out(alice: User, client_of) -> None:  # type: ignore[no-untyped-def]
    response = client_of(alice).post(
        "/api/wallet/withdrawals/", {"amount_cents": 2_500}, format="json", HTTP_IDEMPOTENCY_KEY="w-2"
    )
    assert response.status_code == 201
    assert response.json()["status"] == "completed"
    assert response.json()["balance_cents"] == 7_500
    assert ledger_reconcile() == []


def test_the_history_is_cursor_paginated_newest_first(alice: User, client_of) -> None:  # type: ignore[no-untyped-def]
    client = client_of(alice)
    for number in range(55):
        transfer_create(
            kind="cash_buy_in",
            legs=[
                TransferLeg(player_cash_account(alice), -10),
                TransferLeg(reference_account(AccountKind.TABLE_SESSION, "table-session:h", owner=alice), 10),
            ],
            idempotency_key=f"h-{number}",
            reference="table-session:h",
        )

    first_page = client.get("/api/wallet/transactions/").json()
    second_page = client.get(first_page["next"]).json()

    assert len(first_page["results"]) == 50
    assert len(second_page["results"]) == 6  # 55 buy-ins and the initial deposit
    newest = first_page["results"][0]
    assert newest["kind"] == "cash_buy_in"
    assert newest["reference"] == "table-session:h"
    assert (newest["amount_cents"], newest["amount"]) == (-10, "-€0.10")
    assert newest["balance_after_cents"] == 10_000 - 550
    assert second_page["results"][-1]["kind"] == "deposit"
    assert second_page["next"] is None


def test_a_player_sees_only_their_own_history(alice: User, bob: User, client_of) -> None:  # type: ignore[no-untyped-def]
    results = client_of(bob).get("/api/wallet/transactions/").json()["results"]
    assert [row["amount_cents"] for row in results] == [5_000]


def test_the_openapi_schema_documents_the_wallet_endpoints(alice: User, client_of) -> None:  # type: ignore[no-untyped-def]
    response = client_of(alice).get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    for endpoint in ("balance", "transactions", "deposits", "withdrawals"):
        assert f"/api/wallet/{endpoint}/" in schema["paths"]
    parameters = schema["paths"]["/api/wallet/deposits/"]["post"]["parameters"]
    assert {"in": "header", "name": "Idempotency-Key"}.items() <= parameters[0].items()
