"""A form refused by the CSRF check (a tab left open while the player logged out and in again elsewhere) shows the
site's own page, in the player's language, saying to reload and try again; never Django's bare page (QA report i,
finding 6). Nothing is done."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from poker_site.accounts.models import User
from wallet.models import CashierTransaction

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "This page was open too long or you logged in elsewhere; reload it and try again."),
        ("et", "See leht oli liiga kaua avatud või logisid mujal sisse; laadi see uuesti ja proovi uuesti."),
    ],
)
def test_the_sites_page_says_to_reload(make_player: Callable[..., User], language: str, words: str) -> None:
    user = make_player("stale", 10_000)
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["django_language"] = language
    client.force_login(user)
    response = client.post(reverse("wallet:deposit"), {"deposit-amount": "20", "deposit-idempotency_key": "stale-1"})
    assert response.status_code == 403
    body = response.content.decode()
    assert words in body
    assert 'data-testid="csrf-failure"' in body
    assert "CSRF verification failed" not in body
    assert not CashierTransaction.objects.exists()
