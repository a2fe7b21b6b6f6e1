"""A top-up the player's balance cannot cover is refused in the player's words: their balance and the amount, never
the wallet's internal account number (the hardening issue, item 6: "alice's player cash account #3"), and no money
moves (CASH-10)."""

from __future__ import annotations

import pytest

from games.services import InsufficientBalance, seat_top_up
from tests.tables.support import START, cash, open_table, player, seat_players, stack
from wallet.errors import InsufficientFunds
from wallet.services import player_cash_account

pytestmark = pytest.mark.django_db


def test_a_top_up_beyond_the_balance_names_the_balance_and_the_amount_only() -> None:
    table = open_table()
    user = player(cash=700)
    seat_players(table, [user], 600)

    with pytest.raises(InsufficientBalance) as refused:
        seat_top_up(user, table, 300, now=START)

    assert str(refused.value) == "Your balance (€1.00) does not cover a top-up of €3.00."
    assert "#" not in str(refused.value)
    assert "account" not in str(refused.value)
    assert (cash(user), stack(table, user)) == (100, 600)


def test_the_wallets_own_refusal_names_the_account_without_its_number() -> None:
    user = player(cash=0)
    account = player_cash_account(user)
    message = str(InsufficientFunds(account, 250))
    assert message == f"Insufficient funds in {user.username}'s player cash account: €2.50 short (balance €0.00)."
    assert f"#{account.pk}" in account.label, "staff pages keep the number"
