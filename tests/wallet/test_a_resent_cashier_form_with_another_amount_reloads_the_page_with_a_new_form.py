"""A cashier form sent again with its used key and another amount (the browser's Back after a withdrawal, a new amount
typed) moves nothing, says in plain words that the form was already sent, and the page comes back with a fresh key,
so the next submit works (QA report i, finding 5). Before, the technical idempotency message was shown and the
re-rendered form kept the used key, so every further submit failed the same way."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from poker_site.accounts.models import User
from wallet.models import CashierTransaction
from wallet.services import balance_of, player_cash_account

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]


def test_the_page_is_reloaded_with_a_new_form(make_player: Callable[..., User], client: Client) -> None:
    user = make_player("backer", 10_000)
    client.force_login(user)
    url = reverse("wallet:withdraw")
    client.post(url, {"withdraw-amount": "20", "withdraw-idempotency_key": "used-key"})
    response = client.post(url, {"withdraw-amount": "30", "withdraw-idempotency_key": "used-key"}, follow=True)
    body = response.content.decode()
    assert "This form was already sent; the page has been reloaded with a new form." in body
    assert "idempotency key" not in body
    keys = re.findall(r'name="withdraw-idempotency_key" value="([^"]+)"', body)
    assert keys
    assert "used-key" not in keys
    assert CashierTransaction.objects.filter(player=user).count() == 1
    assert balance_of(player_cash_account(user)) == 8_000
    client.post(url, {"withdraw-amount": "30", "withdraw-idempotency_key": keys[0]})
    assert balance_of(player_cash_account(user)) == 5_000
