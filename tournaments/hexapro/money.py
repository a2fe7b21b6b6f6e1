"""HexaPro money, only through the wallet ledger, each movement one idempotent transfer (HEX-03, HEX-07, HEX-21,
FEE-06, AMB-16).

* Registration: one transfer of the total (buy-in × games) from the player's cash into the holding account of the
  product and buy-in (a ``tournament_prize_pool`` account ``hexapro-waiting:<code>:<buy-in cents>``: the buy-ins of
  waiting registrations, players' money that is in no game yet). Withdrawing a waiting registration refunds its
  buy-in from there.
* Forming a game: one transfer moves the seats' buy-ins out of the holding account into the game's prize pool (the
  tournament's pool account), books the fee components in the house fees (FEE-06: reported as fee revenue and the
  part CXL-09 refunds), and the house funds — or keeps — the difference between the seats' buy-ins net of fee
  components and the drawn prize pool, multiplier × buy-in, in its guarantee account (which may go negative).
* Prizes: the tournament's :func:`tournaments.services.money.prize_credit`, from the game's pool, at game end.
"""

from __future__ import annotations

import uuid
from typing import Any

from games.engine.uth.money import format_cents
from tournaments.models import Tournament
from tournaments.rules.hexapro import GameMoney
from tournaments.services.money import prize_pool_account
from wallet.models import Account, AccountKind, Transfer
from wallet.services import TransferKind, TransferLeg, reference_account, system_account, transfer_create

GAME_TRANSFER_KIND = "hexapro_game"
"""The kind of the transfer that funds a formed game (the fee report reads its fee leg, FEE-06)."""


def holding_account(product_code: str, buy_in_cents: int) -> Account:
    """Where the buy-ins of registrations waiting at ``buy_in_cents`` of the product are held."""
    return reference_account(AccountKind.TOURNAMENT_PRIZE_POOL, f"hexapro-waiting:{product_code}:{buy_in_cents}")


def registration_debit(
    cash: Account, holding: Account, request: uuid.UUID, *, games: int, total_cents: int, product_name: str
) -> Transfer:
    """HEX-03: the total buy-in of one PLAY, debited once."""
    return transfer_create(
        kind=TransferKind.TOURNAMENT_BUY_IN,
        legs=[TransferLeg(cash, -total_cents), TransferLeg(holding, total_cents)],
        idempotency_key=f"hexapro-registration:{request}",
        reference=f"hexapro-registration:{request}",
        description=f"{product_name}: {games} game(s), total buy-in {format_cents(total_cents)}",
    )


def registration_refund(registration: Any, cash: Account, holding: Account) -> Transfer:
    """A withdrawn waiting registration's buy-in back to the player's cash."""
    return transfer_create(
        kind=TransferKind.TOURNAMENT_REFUND,
        legs=[TransferLeg(holding, -registration.buy_in_cents), TransferLeg(cash, registration.buy_in_cents)],
        idempotency_key=f"hexapro-registration:{registration.pk}:withdrawn",
        reference=f"hexapro-registration:{registration.request}",
        description="HexaPro registration withdrawn before a game formed: buy-in refunded",
    )


def game_fund(tournament: Tournament, holding: Account, game_money: GameMoney, *, multiplier_label: str) -> Transfer:
    """The one transfer of a formed game's money (see the module docstring)."""
    house_result = game_money.buy_ins_cents - game_money.fee_components_cents - game_money.prize_pool_cents
    legs = [
        TransferLeg(holding, -game_money.buy_ins_cents),
        TransferLeg(prize_pool_account(tournament), game_money.prize_pool_cents),
    ]
    if game_money.fee_components_cents:
        legs.append(TransferLeg(system_account(AccountKind.HOUSE_FEES), game_money.fee_components_cents))
    if house_result:
        legs.append(TransferLeg(system_account(AccountKind.HOUSE_GUARANTEE), house_result))
    return transfer_create(
        kind=GAME_TRANSFER_KIND,
        legs=legs,
        idempotency_key=f"hexapro-game:{tournament.pk}:formation",
        reference=f"tournament:{tournament.pk}",
        description=(
            f"{tournament.name}: {multiplier_label} drawn, prize pool {format_cents(game_money.prize_pool_cents)} "
            f"from buy-ins {format_cents(game_money.buy_ins_cents)} (fee components "
            f"{format_cents(game_money.fee_components_cents)}; the house "
            f"{'keeps' if house_result >= 0 else 'funds'} {format_cents(abs(house_result))})"
        ),
    )
