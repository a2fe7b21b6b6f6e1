"""A deposit's or withdrawal's status is given twice by the cashier API: ``status``, the stable code programs compare
(``pending``, ``completed``, ``failed``), and ``status_label``, the words people read, in the request's language, from
the one function the cashier page and the back office use too (``wallet.services.cashier_status_label``). Every state
a cashier row can be in has its words.

Requirement IDs: none (the cashier's API is the product's own; GEN-09 for Estonian).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from poker_site.accounts.models import User
from wallet.errors import PaymentProviderError
from wallet.models import CashierDirection, CashierStatus, CashierTransaction
from wallet.serializers import CashierTransactionSerializer
from wallet.services import (
    cashier_status_label,
    deposit_create,
    deposit_reserve,
    deposit_through_provider,
    withdrawal_create,
    withdrawal_request,
)
from wallet.services.providers import SandboxPaymentProvider

pytestmark = pytest.mark.django_db

REFUSED_AMOUNT = 1_234
REFUSING_PROVIDER = SandboxPaymentProvider(declined_amounts=frozenset({REFUSED_AMOUNT}))

# Each state a cashier row can be in, and its words in English.
LABELS = {
    (CashierDirection.DEPOSIT, CashierStatus.PENDING): "waiting for the payment provider",
    (CashierDirection.DEPOSIT, CashierStatus.COMPLETED): "completed",
    (CashierDirection.WITHDRAWAL, CashierStatus.PENDING): "pending payout",
    (CashierDirection.WITHDRAWAL, CashierStatus.COMPLETED): "completed",
    (CashierDirection.WITHDRAWAL, CashierStatus.FAILED): "failed and returned",
}


def a_row_in_every_state(player: User) -> list[CashierTransaction]:
    """One row per state, each made by the service that puts a row in that state."""
    return [
        deposit_reserve(player, 2_000, "reserved"),
        deposit_create(player, 1_000, "bank-1", "credited"),
        withdrawal_request(player, 1_000, "awaiting-payout"),
        withdrawal_create(player, 1_500, "paid"),
        withdrawal_create(player, REFUSED_AMOUNT, "refused", provider=REFUSING_PROVIDER),
    ]


def api_client_of(player: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(player)
    return client


def test_every_state_a_cashier_row_can_be_in_has_words(make_player: Callable[..., User]) -> None:
    rows = a_row_in_every_state(make_player("every-state", 10_000))

    labels = {(row.direction, row.status): cashier_status_label(row) for row in rows}

    assert labels == LABELS
    assert {status for _direction, status in labels} == set(CashierStatus.values)
    assert {direction for direction, _status in labels} == set(CashierDirection.values)


def test_a_declined_deposit_leaves_no_row_so_a_deposit_is_never_failed(make_player: Callable[..., User]) -> None:
    with pytest.raises(PaymentProviderError):
        deposit_through_provider(make_player("declined"), REFUSED_AMOUNT, "declined", provider=REFUSING_PROVIDER)
    assert not CashierTransaction.objects.filter(direction=CashierDirection.DEPOSIT).exists()


def test_the_deposit_and_withdrawal_answers_carry_the_status_code_and_its_words(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    client = api_client_of(make_player("api", 10_000))
    monkeypatch.setattr("wallet.services.cashier.default_payment_provider", lambda: REFUSING_PROVIDER)

    deposit = client.post("/api/wallet/deposits/", {"amount_cents": 2_000}, format="json", HTTP_IDEMPOTENCY_KEY="d")
    paid = client.post("/api/wallet/withdrawals/", {"amount_cents": 1_500}, format="json", HTTP_IDEMPOTENCY_KEY="w")
    refused = client.post(
        "/api/wallet/withdrawals/", {"amount_cents": REFUSED_AMOUNT}, format="json", HTTP_IDEMPOTENCY_KEY="r"
    )

    answers = [response.json() for response in (deposit, paid, refused)]
    assert [response.status_code for response in (deposit, paid, refused)] == [201, 201, 201]
    assert [(answer["direction"], answer["status"], answer["status_label"]) for answer in answers] == [
        ("deposit", "completed", "completed"),
        ("withdrawal", "completed", "completed"),
        ("withdrawal", "failed", "failed and returned"),
    ]
    for answer in answers:
        assert answer["status_label"] == cashier_status_label(CashierTransaction.objects.get(pk=answer["id"]))


def test_the_words_are_in_the_language_of_the_request_the_code_is_not(make_player: Callable[..., User]) -> None:
    player = make_player("estonian", 10_000)
    reserved = deposit_reserve(player, 2_000, "reserved")
    awaiting_payout = withdrawal_request(player, 1_000, "awaiting-payout")

    with translation.override("et"):
        answers = [CashierTransactionSerializer(row).data for row in (reserved, awaiting_payout)]

    assert [(answer["status"], answer["status_label"]) for answer in answers] == [
        ("pending", "ootab makseteenuse pakkujat"),
        ("pending", "väljamakse ootel"),
    ]


def test_the_api_schema_lists_the_status_codes_and_documents_the_words(make_player: Callable[..., User]) -> None:
    response = api_client_of(make_player("schema")).get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    schema = response.json()

    components = schema["components"]["schemas"]
    answer = schema["paths"]["/api/wallet/deposits/"]["post"]["responses"]["201"]["content"]["application/json"]
    properties = components[answer["schema"]["$ref"].rsplit("/", 1)[-1]]["properties"]
    status_codes = components[properties["status"]["allOf"][0]["$ref"].rsplit("/", 1)[-1]]["enum"]
    assert status_codes == CashierStatus.values
    assert "pending payout" not in properties["status"]["description"]  # a code's meaning depends on the direction
    assert properties["status_label"]["type"] == "string"
    assert "in the request's language" in properties["status_label"]["description"]
