"""A game plays with its drawn multiplier's tables: the starting stack (HEX-11, HEX-26), the blind structure with antes
from level 2 for HexaPro and none for Extreme (HEX-12, HEX-27), the level length (HEX-13, HEX-28), the last level held
until the game ends (HEX-14, AMB-52), the timebank row (HEX-15, HEX-29, TB-02, TB-06), no hand-for-hand and no
breaks, and the prize pool revealed on the table before the first hand (HEX-05)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.services import table_snapshot
from tests.tournaments.hexapro_support import three_players_register
from tests.tournaments.support import START, open_tables
from tournaments.definitions import blind_structure, level_clock
from tournaments.models import HandForHandMode, TournamentLevel
from tournaments.rules.hexapro import HEXAPRO_EXTREME

pytestmark = pytest.mark.django_db


def test_hex_11_hex_12_hex_13_hex_15_a_3x_hexapro_game() -> None:
    _users, game = three_players_register(1_000, multiplier=30)
    tournament = game.tournament
    assert tournament.starting_stack == 500
    levels = list(TournamentLevel.objects.filter(tournament=tournament).order_by("number"))
    assert len(levels) == 28
    assert (levels[0].small_blind, levels[0].big_blind, levels[0].ante) == (10, 20, 0)
    assert (levels[1].small_blind, levels[1].big_blind, levels[1].ante) == (15, 30, 4)
    assert (levels[27].small_blind, levels[27].big_blind, levels[27].ante) == (2_000, 4_000, 500)
    assert {level.duration_seconds for level in levels} == {120}  # 3x: 2 minutes
    timebank = (
        tournament.timebank_first_hand_seconds,
        tournament.timebank_replenish_seconds,
        tournament.timebank_replenish_every_hands,
        tournament.timebank_cap_seconds,
    )
    assert timebank == (10, 5, 5, 20)  # below 25x
    assert tournament.hand_for_hand_mode == HandForHandMode.OFF
    assert tournament.break_every_levels is None
    assert not tournament.synchronized_breaks


def test_hex_15_tb_02_a_25x_game_has_the_30_60_timebank_and_4_minute_levels() -> None:
    _users, game = three_players_register(1_000, multiplier=250)
    tournament = game.tournament
    assert (tournament.timebank_first_hand_seconds, tournament.timebank_cap_seconds) == (30, 60)
    assert set(TournamentLevel.objects.filter(tournament=tournament).values_list("duration_seconds", flat=True)) == {
        240
    }


@pytest.mark.parametrize(
    ("multiplier", "stack", "minutes", "timebank_cap"),
    [(10, 100, 1, 20), (30, 200, 1, 20), (40, 200, 1, 20), (100, 300, 2, 20), (200, 300, 2, 20), (1_250, 500, 3, 60)],
)
def test_hex_26_hex_27_hex_28_hex_29_tb_06_extreme_games(
    multiplier: int, stack: int, minutes: int, timebank_cap: int
) -> None:
    _users, game = three_players_register(
        100, multiplier=multiplier, product="hexapro_extreme", draw_product=HEXAPRO_EXTREME
    )
    tournament = game.tournament
    assert tournament.starting_stack == stack
    levels = list(TournamentLevel.objects.filter(tournament=tournament).order_by("number"))
    assert len(levels) == 19
    assert all(level.ante == 0 for level in levels)
    assert (levels[-1].small_blind, levels[-1].big_blind) == (700, 1_400)
    assert {level.duration_seconds for level in levels} == {minutes * 60}
    assert tournament.timebank_cap_seconds == timebank_cap
    (table,) = open_tables(tournament)
    assert sorted(seat.chips for seat in table.seats.filter(user__isnull=False)) == [stack] * 3


def test_hex_14_amb_52_the_last_level_stays_in_force_until_the_game_ends() -> None:
    _users, game = three_players_register(1_000, multiplier=15)  # 1-minute levels
    tournament = game.tournament
    clock = level_clock(tournament, blind_structure(tournament))
    late = clock.reading(START + timedelta(hours=5))
    assert late.number == 28
    assert (late.level.small_blind, late.level.big_blind, late.level.ante) == (2_000, 4_000, 500)
    assert late.ends_at is None


def test_hex_05_the_table_shows_the_drawn_prize_pool_before_the_first_hand() -> None:
    users, game = three_players_register(2_500, multiplier=1_000)
    (table,) = open_tables(game.tournament)
    assert table.hands_played == 0
    snapshot = table_snapshot(table, users[0])
    hexapro = snapshot["table"]["hexapro"]
    assert hexapro == {
        "game_id": game.pk,
        "product": "HexaPro",
        "buy_in": 2_500,
        "multiplier": "100x",
        "multiplier_tenths": 1_000,
        "prize_pool": 250_000,
        "prizes": [200_000, 30_000, 20_000],
        "reel": ["1000x", "100x", "25x", "10x", "5x", "3x", "1.5x"] * 3 + ["100x"],
    }


def test_hex_01_hex_19_a_game_is_a_3_handed_no_limit_holdem_sit_and_go_with_a_drawn_pool() -> None:
    for product, draw_product, multiplier in (("hexapro", None, 15), ("hexapro_extreme", HEXAPRO_EXTREME, 10)):
        options = {"draw_product": draw_product} if draw_product else {}
        _users, game = three_players_register(10_000, multiplier=multiplier, product=product, **options)
        tournament = game.tournament
        assert (tournament.variant, tournament.table_size, tournament.seats_to_start) == ("NT", 3, 3)
        (table,) = open_tables(tournament)
        assert table.seat_count == 3
        assert game.prize_pool_cents == 10_000 * multiplier // 10  # 1.5x or 1x of €100; up to €100,000 at 1000x
