"""A formed game's money (HEX-05, HEX-07, HEX-21, HEX-23, FEE-06, AMB-16): the three buy-ins leave the holding
account in one idempotent transfer into the prize pool (multiplier × buy-in) and the house fees (the fee components),
the house keeping or funding the difference; the draw is logged on the game (GEN-08)."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tests.tournaments.hexapro_support import holding_balance, pool_balance, three_players_register
from tournaments.hexapro.models import HexaProGame
from tournaments.hexapro.money import GAME_TRANSFER_KIND
from tournaments.rules.hexapro import HEXAPRO, HEXAPRO_EXTREME
from wallet.models import AccountKind

pytestmark = pytest.mark.django_db


def legs(game: HexaProGame) -> dict[str, int]:
    assert game.formation_transfer is not None
    assert game.formation_transfer.kind == GAME_TRANSFER_KIND
    return {
        leg.account.reference if leg.account.kind == AccountKind.TOURNAMENT_PRIZE_POOL else leg.account.kind: leg.amount
        for leg in game.formation_transfer.legs.select_related("account")
    }


def test_hex_07_fee_06_a_1_5x_game_at_10_euros_keeps_the_house_its_share() -> None:
    """Buy-ins €30, pool 1.5 × €10 = €15, fee components 3 × €0.69: the house keeps €15 − €2.07 = €12.93 besides."""
    _users, game = three_players_register(1_000, multiplier=15)
    assert game.prize_pool_cents == 1_500
    assert game.fee_component_cents == 69
    assert legs(game) == {
        "hexapro-waiting:hexapro:1000": -3_000,
        f"tournament:{game.pk}": 1_500,
        AccountKind.HOUSE_FEES: 207,
        AccountKind.HOUSE_GUARANTEE: 3_000 - 207 - 1_500,
    }
    assert pool_balance(game) == 1_500
    assert holding_balance("hexapro", 1_000) == 0


def test_hex_07_a_1000x_game_at_100_euros_is_funded_by_the_house() -> None:
    _users, game = three_players_register(10_000, multiplier=10_000, cash_each=1_000_000)
    assert game.prize_pool_cents == 10_000_000  # €100,000
    moved = legs(game)
    assert moved[AccountKind.HOUSE_FEES] == 3 * 685
    assert moved[AccountKind.HOUSE_GUARANTEE] == 30_000 - 3 * 685 - 10_000_000
    assert pool_balance(game) == 10_000_000
    call_command("wallet_reconcile")


def test_hex_21_the_extreme_seed_example_10_euros_at_20x_is_a_200_euro_pool() -> None:
    _users, game = three_players_register(
        1_000, multiplier=200, product="hexapro_extreme", draw_product=HEXAPRO_EXTREME
    )
    assert game.prize_pool_cents == 20_000
    assert pool_balance(game) == 20_000


def test_hex_05_gen_08_the_draw_is_logged_with_its_ticket_and_the_tables_played_with() -> None:
    _users, game = three_players_register(500, multiplier=50)
    assert game.draw_total_weight == HEXAPRO.total_weight
    assert game.draw_ticket == 1 + 5 + 100 + 4_600  # the first ticket of the 5x row, largest multiplier first
    assert game.multiplier_label == "5x"
    assert game.version.code == "hexapro"
    assert game.payout_percentages == [100]
    assert game.tournament.prizes == [2_500]
