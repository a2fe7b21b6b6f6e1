"""The status of a pending cashier transaction is named by its kind: a pending deposit (the cashier's reservation while
the payment provider is asked to charge) is "waiting for the payment provider", not "pending payout", which is a
pending withdrawal's; in the back office's list and page and in Estonian too.

Requirement IDs: none (the cashier's provider flow is the product's own; GEN-09 for Estonian).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.utils import translation

from poker_site.accounts.models import User
from tests.tables.back_office import logged_in
from wallet.models import CashierDirection, CashierStatus, CashierTransaction
from wallet.services import deposit_create, withdrawal_request
from wallet.services.cashier import cashier_status_label

pytestmark = pytest.mark.django_db

CASHIER_TRANSACTIONS = "/admin/wallet/cashiertransaction/"


@pytest.fixture
def pending_both(make_player: Callable[..., User]) -> tuple[CashierTransaction, CashierTransaction]:
    player = make_player("waiting", 5_000)
    deposit = CashierTransaction.objects.create(
        player=player,
        direction=CashierDirection.DEPOSIT,
        amount=2_000,
        status=CashierStatus.PENDING,
        provider="sandbox",
        idempotency_key="reserved",
    )
    withdrawal = withdrawal_request(player, 1_000, "payout")
    return deposit, withdrawal


def test_the_label_is_by_kind(
    pending_both: tuple[CashierTransaction, CashierTransaction], make_player: Callable[..., User]
) -> None:
    deposit, withdrawal = pending_both
    assert cashier_status_label(deposit) == "waiting for the payment provider"
    assert cashier_status_label(withdrawal) == "pending payout"
    assert cashier_status_label(deposit_create(make_player("done"), 1_000, "bank-1", "done")) == "completed"
    with translation.override("et"):
        assert cashier_status_label(deposit) == "ootab makseteenuse pakkujat"
        assert cashier_status_label(withdrawal) == "väljamakse ootel"


def test_the_back_office_shows_a_pending_deposit_waiting_for_the_provider(
    pending_both: tuple[CashierTransaction, CashierTransaction], support: User
) -> None:
    deposit, withdrawal = pending_both
    client = logged_in(support)
    listing = client.get(CASHIER_TRANSACTIONS).content.decode()
    assert listing.count('class="field-status_display">waiting for the payment provider<') == 1
    assert listing.count('class="field-status_display">pending payout<') == 1
    assert listing.count("pending payout") == 1  # the withdrawal's row only: the status filter does not say it
    filtered = client.get(CASHIER_TRANSACTIONS, {"status": "pending", "direction__exact": "deposit"})
    assert filtered.status_code == 200
    assert f"{CASHIER_TRANSACTIONS}{deposit.pk}/change/" in filtered.content.decode()
    assert f"{CASHIER_TRANSACTIONS}{withdrawal.pk}/change/" not in filtered.content.decode()
    page = client.get(f"{CASHIER_TRANSACTIONS}{deposit.pk}/change/").content.decode()
    assert "waiting for the payment provider" in page
    assert "pending payout" not in page
