"""A cashier or responsible-gaming form sent without a logged-in player (the session expired, or the player logged
out in another tab) is sent to log in with ``next`` the page holding the form, so after logging in the player lands
on that page (GET, 200), never on the POST-only URL, which answered a blank 405 (QA report i, finding 3). Nothing the
form asked for is done."""

from __future__ import annotations

import pytest
from django.test import Client

from poker_site.accounts.models import User
from poker_site.responsible_gaming.models import DepositLimitChange
from wallet.models import CashierTransaction

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

FORMS = [
    ("/wallet/deposit/", {"deposit-amount": "20", "deposit-idempotency_key": "k1"}, "/wallet/"),
    ("/wallet/withdraw/", {"withdraw-amount": "20", "withdraw-idempotency_key": "k2"}, "/wallet/"),
    ("/responsible-gaming/limits/", {"limit-period": "day", "limit-amount": "20"}, "/responsible-gaming/"),
    ("/responsible-gaming/limits/cancel/", {"period": "day"}, "/responsible-gaming/"),
    ("/responsible-gaming/reminder/", {"reminder-minutes": "30"}, "/responsible-gaming/"),
    ("/responsible-gaming/self-exclusion/", {"exclusion-period": "24h"}, "/responsible-gaming/"),
]


@pytest.mark.parametrize(("form_url", "data", "page"), FORMS)
def test_logging_in_lands_on_the_page_of_the_form(
    client: Client, form_url: str, data: dict[str, str], page: str
) -> None:
    User.objects.create_user("expired", "expired@example.com", "a-long-enough-password-1")
    sent = client.post(form_url, data)
    assert sent.status_code == 302
    assert sent["Location"] == f"/accounts/log-in/?next={page}"
    logged_in = client.post(sent["Location"], {"username": "expired", "password": "a-long-enough-password-1"})
    assert logged_in.status_code == 302
    assert logged_in["Location"] == page
    assert client.get(logged_in["Location"]).status_code == 200
    assert not CashierTransaction.objects.exists()
    assert not DepositLimitChange.objects.exists()
