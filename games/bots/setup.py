"""Server-side preparation for bots: bot accounts with sandbox money, tables to play at, sessions for load tests.

Runs in a Django process (``run_bots``, the benchmark); goes through the wallet's cashier and the table services.
Idempotent: bot users, deposits and tables are reused when they exist.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.sessions.backends.db import SessionStore
from django.utils import timezone

BOT_BACKEND = "poker_site.accounts.backends.RateLimitedModelBackend"


def ensure_bot_users(count: int, *, prefix: str = "bot", balance: int = 20_000) -> tuple[list[Any], str]:
    """``count`` bot users named ``<prefix>001``... with at least ``balance`` cents on their cash account.

    Returns the users and a fresh random password they all have for this run (hashed once and shared, so many bots
    stay cheap; no fixed bot password exists to guess). Money comes in as sandbox deposits through
    ``wallet.services.cashier.deposit_create``.
    """
    from wallet.services.accounts import balance_of, player_cash_account
    from wallet.services.cashier import cashier_limits, deposit_create

    user_model = get_user_model()
    names = [f"{prefix}{number:03d}" for number in range(1, count + 1)]
    existing = {user.username: user for user in user_model.objects.filter(username__in=names)}
    missing = [name for name in names if name not in existing]
    password = secrets.token_urlsafe(24)
    hashed = make_password(password)
    if missing:
        user_model.objects.bulk_create(user_model(username=name, password=hashed) for name in missing)
    user_model.objects.filter(username__in=names).update(password=hashed)
    existing = {user.username: user for user in user_model.objects.filter(username__in=names)}
    limits = cashier_limits()
    stamp = timezone.now().strftime("%Y%m%d%H%M%S%f")
    users = [existing[name] for name in names]
    for user in users:
        shortfall = balance - balance_of(player_cash_account(user))
        if shortfall > 0:
            amount = min(max(shortfall, limits.minimum_deposit), limits.maximum_deposit)
            deposit_create(user, amount, f"bot-{user.pk}-{stamp}", f"bot-seed-{user.pk}-{stamp}")
    return users, password


def ensure_tables(count: int, *, game: str = "holdem", stake: str = "NL10", prefix: str = "Bots") -> list[Any]:
    """``count`` open tables of the stake named ``<prefix> <stake> #n``, opened through ``table_open`` if missing."""
    from games.models import Stake, Table, TableStatus
    from games.services import table_open

    chosen = Stake.objects.select_related("game_type").get(game_type__code=game, label=stake)
    tables = []
    for number in range(1, count + 1):
        name = f"{prefix} {stake} #{number}"
        table = Table.objects.filter(stake=chosen, name=name, status=TableStatus.OPEN).first()
        tables.append(table or table_open(chosen, name=name))
    return tables


def session_for(user: Any) -> str:
    """A logged-in session key for ``user``, as the log-in form would create (load tests skip password hashing)."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = BOT_BACKEND
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    assert session.session_key is not None
    return session.session_key


def buy_in_for(table: Any) -> int:
    """The table's maximum buy-in in cents (CASH-10 limits from the stake terms in force)."""
    return int(table.stake.terms_at().max_buy_in)
