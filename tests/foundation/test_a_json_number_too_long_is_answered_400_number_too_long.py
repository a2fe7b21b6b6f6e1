"""A JSON body with a number of thousands of digits is a 400 that says "number too long", from every REST endpoint,
and nothing changes. A 4,503-digit integer was answered with Python's own words ("Exceeds the limit (4300 digits)
for integer string conversion ... sys.set_int_max_str_digits()", QA finding). The parser
(``poker_site.core.json_parser``) takes numbers of at most ``MAXIMUM_NUMBER_DIGITS`` characters: no field takes more
than PostgreSQL's bigint (19 digits)."""

from __future__ import annotations

import pytest
from django.test import Client

from poker_site.accounts.models import User
from poker_site.core.json_parser import MAXIMUM_NUMBER_DIGITS
from wallet.models import CashierTransaction

pytestmark = pytest.mark.django_db

HUGE_INTEGER = "1" + "0" * 4502
"""The QA finding's 4,503 digits."""


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/wallet/deposits/", f'{{"amount_cents": {HUGE_INTEGER}}}'),
        ("/api/wallet/withdrawals/", f'{{"amount_cents": -{HUGE_INTEGER}}}'),
        ("/api/games/stakes/1/queue/", f'{{"buy_in": {HUGE_INTEGER}}}'),
        ("/api/tournaments/hexapro/registrations/", f'{{"tier": {HUGE_INTEGER}}}'),
        ("/api/wallet/deposits/", f'{{"amount_cents": {"1" * (MAXIMUM_NUMBER_DIGITS + 1)}}}'),
        ("/api/wallet/deposits/", f'{{"amount_cents": 1.{"0" * 5000}}}'),
    ],
    ids=["deposit", "withdrawal", "stake-queue", "hexapro", "just-over-the-limit", "long-decimal"],
)
def test_a_number_too_long_is_a_400_in_words_and_changes_nothing(path: str, body: str) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(User.objects.create_user("mallory", password=None))

    response = client.post(path, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="number-too-long")

    assert response.status_code == 400, response.content[:300]
    text = response.content.decode()
    assert "number too long" in text
    assert "4300" not in text
    assert "set_int_max_str_digits" not in text
    assert not CashierTransaction.objects.exists()
