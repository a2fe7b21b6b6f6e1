"""GEN-09: on an Estonian page the cashier's amount and limit errors, its balance figures, its success message and
the "not enough money" refusal of a tournament registration are Estonian, with amounts written as the site writes
them in Estonian ("547,50 €"), not "€547.50" (QA report i, finding 4)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from poker_site.accounts.models import User
from tests.tournaments.support import player, scheduled

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

NBSP = "\u00a0"


def estonian(user: User) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="et")
    client.cookies["django_language"] = "et"
    client.force_login(user)
    return client


def test_gen_09_the_balance_cards_use_the_estonian_money_format(make_player: Callable[..., User]) -> None:
    body = estonian(make_player("raha", 54_750)).get(reverse("wallet:cashier")).content.decode()
    assert f'data-testid="cash-balance" data-cents="54750">547,50{NBSP}€</dd>' in body
    assert f'data-testid="at-tables" data-cents="0">0,00{NBSP}€</dd>' in body


@pytest.mark.parametrize(
    ("amount", "words"),
    [
        ("abc", "ei ole summa eurodes"),
        ("5", f"Väikseim sissemakse on 10,00{NBSP}€."),
        ("100000", f"Suurim sissemakse on 5{NBSP}000,00{NBSP}€."),
        ("0.001", "Kasuta kõige rohkem kahte kümnendkohta"),
    ],
)
def test_gen_09_a_refused_deposit_says_why_in_estonian(
    make_player: Callable[..., User], amount: str, words: str
) -> None:
    client = estonian(make_player("raha", 0))
    response = client.post(
        reverse("wallet:deposit"), {"deposit-amount": amount, "deposit-idempotency_key": "estonian-1"}
    )
    assert response.status_code == 400
    assert words in response.content.decode()


def test_gen_09_a_withdrawal_over_the_balance_is_refused_in_estonian(make_player: Callable[..., User]) -> None:
    client = estonian(make_player("raha", 50_000))
    response = client.post(
        reverse("wallet:withdraw"), {"withdraw-amount": "5000", "withdraw-idempotency_key": "estonian-2"}
    )
    assert f"Välja saad võtta kõige rohkem oma rahajäägi 500,00{NBSP}€" in response.content.decode()


def test_gen_09_the_success_message_writes_the_amount_in_estonian(make_player: Callable[..., User]) -> None:
    client = estonian(make_player("raha", 50_000))
    response = client.post(
        reverse("wallet:withdraw"),
        {"withdraw-amount": "12,50", "withdraw-idempotency_key": "estonian-3"},
        follow=True,
    )
    assert f"Väljamakse 12,50{NBSP}€: " in response.content.decode()


def test_gen_09_a_tournament_registration_without_enough_money_is_refused_in_estonian() -> None:
    tournament = scheduled(buy_in=1_000, fee=100)
    client = estonian(player(cash=500))
    response = client.post(f"/api/tournaments/{tournament.pk}/registration/", {}, content_type="application/json")
    message = response.json()["message"]
    assert message == f"Scheduled maksab 10,00{NBSP}€ + 1,00{NBSP}€ tasu; sinu saldo on 5,00{NBSP}€."
