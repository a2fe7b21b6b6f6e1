"""The demo players start with a €500.00 sandbox deposit, once however often the demo data is seeded."""

from __future__ import annotations

from poker_site.accounts.demo import DEMO_PLAYERS
from poker_site.accounts.demo import seed_demo as seed_accounts
from poker_site.accounts.models import User
from wallet.demo import seed_demo
from wallet.models import CashierTransaction
from wallet.services import balance_of, ledger_reconcile, player_cash_account


def test_seeding_twice_deposits_once_per_demo_player(db: None) -> None:
    lines: list[str] = []
    seed_accounts(lines.append)
    seed_demo(lines.append)
    seed_demo(lines.append)

    for username in DEMO_PLAYERS:
        player = User.objects.get(username=username)
        assert balance_of(player_cash_account(player)) == 50_000
    assert CashierTransaction.objects.count() == len(DEMO_PLAYERS)
    assert "alice €500.00" in lines[-1]
    assert ledger_reconcile() == []
