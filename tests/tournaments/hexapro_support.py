"""Helpers for the HexaPro service tests: a draw source that draws a chosen multiplier, registering players, and the
game's accounts."""

from __future__ import annotations

import random
from typing import Any

from tests.tournaments.support import START, player
from tournaments.hexapro.models import HexaProGame
from tournaments.hexapro.registration import Registered, hexapro_register
from tournaments.rules.hexapro import HEXAPRO, HexaProProduct, multiplier_row
from wallet.models import Account, AccountKind


class ChosenMultiplier:
    """A draw source whose ticket falls on ``multiplier_tenths`` of ``product`` (the first ticket of its row)."""

    def __init__(self, multiplier_tenths: int, product: HexaProProduct = HEXAPRO) -> None:
        multiplier_row(product, multiplier_tenths)
        self.ticket = 0
        for row in product.multipliers:
            if row.multiplier_tenths == multiplier_tenths:
                break
            self.ticket += row.weight

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        return self.ticket


def register(
    user: Any,
    buy_in: int = 1_000,
    games: int = 1,
    *,
    product: str = "hexapro",
    multiplier: int | None = None,
    draw_product: HexaProProduct = HEXAPRO,
    now: Any = START,
) -> Registered:
    source = ChosenMultiplier(multiplier, draw_product) if multiplier is not None else random.Random(7)
    return hexapro_register(
        user, product, buy_in, games, now=now, draw_source=source, randomness=random.Random(user.pk)
    )


def three_players_register(
    buy_in: int = 1_000, *, multiplier: int = 30, product: str = "hexapro", cash_each: int = 100_000, **options: Any
) -> tuple[list[Any], HexaProGame]:
    """Three players register one game each at ``buy_in``; the third registration forms the game."""
    users = [player(cash=cash_each) for _ in range(3)]
    draw_product = options.pop("draw_product", HEXAPRO)
    for user in users[:2]:
        register(user, buy_in, product=product, multiplier=multiplier, draw_product=draw_product, **options)
    result = register(users[2], buy_in, product=product, multiplier=multiplier, draw_product=draw_product, **options)
    (game,) = result.games
    return users, game


def pool_balance(game: HexaProGame) -> int:
    return Account.objects.get(kind=AccountKind.TOURNAMENT_PRIZE_POOL, reference=f"tournament:{game.pk}").balance


def holding_balance(product: str, buy_in: int) -> int:
    account = Account.objects.filter(
        kind=AccountKind.TOURNAMENT_PRIZE_POOL, reference=f"hexapro-waiting:{product}:{buy_in}"
    ).first()
    return account.balance if account is not None else 0
