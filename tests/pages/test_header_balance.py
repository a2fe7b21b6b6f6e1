"""The header shows the player's cash balance from the ledger, in the page's language, without creating anything."""

from __future__ import annotations

import re
from typing import Any

from django.test import Client

from wallet.models import Account


def test_the_header_shows_the_ledger_balance_in_both_languages(make_player: Any) -> None:
    client = Client()
    client.force_login(make_player("alice", cash_cents=123456))
    english = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert re.search(r'id="header-balance" data-cents="123456"[^>]*>€1,234.56<', english)
    estonian = client.get("/", HTTP_ACCEPT_LANGUAGE="et").content.decode()
    assert re.search(r'id="header-balance" data-cents="123456"[^>]*>1\u00a0234,56\u00a0€<', estonian)


def test_a_new_player_sees_zero_and_no_account_is_created_by_looking(make_player: Any) -> None:
    client = Client()
    client.force_login(make_player("bob", cash_cents=0))
    assert re.search(r'id="header-balance" data-cents="0"[^>]*>€0.00<', client.get("/").content.decode())
    assert not Account.objects.filter(owner__username="bob").exists()
