"""A cash-table queue refused because the buy-in is more than the balance says so with the amounts in the player's
money format: "0,00 €" on an Estonian page, not "€0.00" (QA report i, finding 4, GEN-09). The sentence is gettext,
so the Estonian catalogue translates it."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.services import InsufficientBalance, table_join_queue
from tests.tables.support import START, player, stake

pytestmark = pytest.mark.django_db

NBSP = "\u00a0"


def test_gen_09_the_refusal_writes_the_amounts_in_the_players_language() -> None:
    user = player(cash=700)
    with translation.override("et"), pytest.raises(InsufficientBalance) as refusal:
        table_join_queue(user, stake("holdem", "NL10"), 800, now=START)
    message = str(refusal.value)
    assert f"7,00{NBSP}€" in message
    assert f"8,00{NBSP}€" in message


def test_the_english_sentence_is_unchanged() -> None:
    user = player(cash=700)
    with translation.override("en"), pytest.raises(InsufficientBalance) as refusal:
        table_join_queue(user, stake("holdem", "NL10"), 800, now=START)
    assert str(refusal.value) == "Your balance (€7.00) does not cover a buy-in of €8.00."
