"""Demo data: each demo player starts with a €500.00 sandbox deposit (idempotent: one deposit, ever)."""

from __future__ import annotations

from collections.abc import Callable

from poker_site.accounts.demo import DEMO_PLAYERS
from poker_site.accounts.models import User
from wallet.services import deposit_create, player_cash_account

DEMO_DEPOSIT_CENTS = 50_000


def seed_demo(write: Callable[[str], None]) -> None:
    for user in User.objects.filter(username__in=DEMO_PLAYERS).order_by("username"):
        deposit_create(user, DEMO_DEPOSIT_CENTS, "sandbox-demo-seed", "demo-seed-deposit", provider_name="sandbox")
    balances = ", ".join(
        f"{user.username} €{player_cash_account(user).balance / 100:.2f}"
        for user in User.objects.filter(username__in=DEMO_PLAYERS).order_by("username")
    )
    write(f"Wallet: demo players' cash balances: {balances or '(no demo players)'}")
