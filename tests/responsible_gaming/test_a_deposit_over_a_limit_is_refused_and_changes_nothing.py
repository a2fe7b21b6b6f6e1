"""The cashier's deposit service refuses a deposit over any of the player's own limits in force (daily, weekly,
monthly: the last 24 hours, 7 days, 30 days), naming the limit and what remains; nothing is written and the payment
provider is not asked. A raise not yet in force does not help."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from poker_site.accounts.models import User
from poker_site.responsible_gaming.services import deposit_limit_set
from tests.wallet.conftest import ledger_row_counts, new_key
from wallet.errors import DepositRefused
from wallet.models import AuditEntry, CashierTransaction
from wallet.services import deposit_create, deposit_through_provider, player_cash_account, providers

pytestmark = pytest.mark.django_db


@pytest.fixture
def player() -> User:
    return User.objects.create_user("careful", "careful@example.com", "x-unused-password")


def state(user: User) -> tuple[object, ...]:
    balance = player_cash_account(user).balance  # first: the cash account is made on the first look
    return (*ledger_row_counts(), CashierTransaction.objects.count(), balance)


def test_a_deposit_over_the_daily_limit_names_the_limit_and_what_remains(player: User) -> None:
    deposit_limit_set(player, "day", 5_000)
    deposit_create(player, 3_000, "bank-1", new_key())
    before = state(player)
    with pytest.raises(DepositRefused) as refused:
        deposit_create(player, 2_500, "bank-2", new_key())
    assert str(refused.value) == (
        "Your daily deposit limit is €50.00; you have deposited €30.00 in the last 24 hours, so you can deposit at "
        "most €20.00 more now."
    )
    assert state(player) == before
    assert AuditEntry.objects.filter(action="deposit").count() == 1
    deposit_create(player, 2_000, "bank-3", new_key())  # exactly what remains
    assert player_cash_account(player).balance == 5_000


def test_the_weekly_and_monthly_limits_count_their_whole_window(player: User) -> None:
    deposit_limit_set(player, "week", 10_000)
    deposit_limit_set(player, "month", 15_000)
    old = deposit_create(player, 6_000, "bank-1", new_key())
    CashierTransaction.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=3))
    with pytest.raises(DepositRefused, match=r"weekly deposit limit is €100\.00; .* €60\.00 in the last 7 days"):
        deposit_create(player, 4_100, "bank-2", new_key())
    CashierTransaction.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=8))
    deposit_create(player, 4_100, "bank-3", new_key())  # the old deposit left the week, not the month
    with pytest.raises(DepositRefused, match=r"monthly deposit limit is €150\.00; .* at most €49\.00 more"):
        deposit_create(player, 5_000, "bank-4", new_key())


def test_a_refused_deposit_never_reaches_the_payment_provider(player: User, monkeypatch: pytest.MonkeyPatch) -> None:
    deposit_limit_set(player, "day", 1_000)
    asked: list[int] = []
    provider = type(providers.default_payment_provider())
    monkeypatch.setattr(provider, "start_deposit", lambda self, **kwargs: asked.append(kwargs["amount"]))
    before = state(player)
    with pytest.raises(DepositRefused, match=r"at most €10\.00 more"):
        deposit_through_provider(player, 1_500, new_key())
    assert asked == []
    assert state(player) == before


def test_a_raise_does_not_help_before_its_24_hours(player: User) -> None:
    deposit_limit_set(player, "day", 1_000)
    deposit_limit_set(player, "day", 100_000)
    with pytest.raises(DepositRefused, match=r"daily deposit limit is €10\.00"):
        deposit_create(player, 2_000, "bank-1", new_key())


def test_the_cashier_page_shows_the_refusal_and_nothing_moves(player: User, client: Client) -> None:
    deposit_limit_set(player, "day", 1_000)
    client.force_login(player)
    before = state(player)
    response = client.post(
        reverse("wallet:deposit"), {"deposit-amount": "15", "deposit-idempotency_key": new_key("page")}
    )
    assert response.status_code == 400
    assert "Your daily deposit limit is €10.00" in response.content.decode()
    assert state(player) == before


def test_the_deposit_api_answers_the_refusal_with_its_code(player: User, client: Client) -> None:
    deposit_limit_set(player, "day", 1_000)
    client.force_login(player)
    response = client.post(
        reverse("wallet-api:deposits"),
        {"amount_cents": 1_500},
        content_type="application/json",
        headers={"Idempotency-Key": new_key("api")},
    )
    assert response.status_code == 400, response.content
    assert response.json()["error"] == "deposit_refused"
