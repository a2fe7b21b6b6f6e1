"""The catalogue is data: five table types, their stakes from the rake tables, clocks and limits, each with an
effective-from time (CASH-01, CASH-02, CASH-03, CASH-10, TB-02, TB-05, RAKE-02, RAKE-06, section 0.3)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.engine.rake import RAKE_TABLE
from games.models import GameRules, GameType, Hand, Stake, StakeTerms
from games.services import seed_stakes
from tests.tables.support import START, check_or_call_down, deal, open_table, player, seat_players

pytestmark = pytest.mark.django_db


def test_the_five_cash_table_types_are_seeded_with_their_seats_cash_01_cash_03() -> None:
    games = {game.code: game for game in GameType.objects.all()}
    assert set(games) == {"holdem", "omaha", "banzai", "deepstack", "shortstack"}
    assert games["holdem"].variant == "NT"
    assert games["omaha"].variant == "PO"
    assert games["banzai"].variant == "NT"  # AMB-40: Banzai Hold'em only
    assert games["shortstack"].variant == "PO"
    for terms in StakeTerms.objects.select_related("stake__game_type"):
        expected_seats = 5 if terms.stake.game_type.code == "banzai" else 6
        assert terms.seats == expected_seats


def test_the_stakes_are_exactly_the_rake_table_rows_cash_02_rake_02() -> None:
    seeded = {
        (terms.stake.game_type.rake_table_type, terms.stake.label, terms.small_blind, terms.big_blind): (
            terms.rake_rate_basis_points,
            terms.rake_cap,
            terms.rake_small_hand_cap,
            terms.enabled,
        )
        for terms in StakeTerms.objects.select_related("stake__game_type")
    }
    expected = {
        (row.table_type.value, row.stake, row.small_blind, row.big_blind): (
            row.rate_basis_points,
            row.cap,
            row.small_hand_cap,
            row.enabled,
        )
        for row in RAKE_TABLE
    }
    assert seeded == expected
    assert Stake.objects.count() == len(RAKE_TABLE) == 21


@pytest.mark.parametrize(
    ("game", "label", "minimum", "maximum"),
    [
        ("holdem", "NL10", 500, 1000),  # CASH-10: 50-100 BB
        ("omaha", "PL400", 20_000, 40_000),
        ("banzai", "NL1", 100, 100),  # CASH-26: exactly 10 BB
        ("deepstack", "NL100", 5_000, 10_000),  # AMB-30: max = €100, min = half
        ("shortstack", "PL10", 500, 1_000),  # AMB-30: max = €10, min = half
    ],
)
def test_buy_in_ranges_follow_the_stake_label_cash_10_amb_64(game: str, label: str, minimum: int, maximum: int) -> None:
    terms = Stake.objects.get(game_type__code=game, label=label).terms_at(START)
    assert (terms.min_buy_in, terms.max_buy_in) == (minimum, maximum)


def test_the_reduced_caps_for_two_or_three_players_rake_06() -> None:
    caps = {
        (terms.stake.game_type.code, terms.stake.label): (terms.rake_cap, terms.rake_small_hand_cap)
        for terms in StakeTerms.objects.select_related("stake__game_type")
    }
    assert caps[("deepstack", "NL100")] == (200, 100)
    assert caps[("holdem", "NL100")] == (300, 150)
    assert caps[("omaha", "PL10")] == (150, 100)
    assert caps[("banzai", "NL1")] == (300, 100)
    assert caps[("holdem", "NL4")] == (50, 50)


def test_the_clock_rules_are_seeded_per_game_type_tb_02_tb_05_cash_17_20_22() -> None:
    for rules in GameRules.objects.all():
        assert rules.decision_seconds == 10
        assert (rules.timebank_first_hand_seconds, rules.timebank_replenish_seconds) == (15, 5)
        assert (rules.timebank_replenish_every_hands, rules.timebank_cap_seconds) == (10, 30)
        assert rules.reconnect_grace_seconds == 20
        assert rules.sit_out_removal_seconds == 600
        assert rules.global_sit_out_seconds == 500
    assert GameRules.objects.get(game_type__code="banzai").max_tables_per_stake == 4
    assert GameRules.objects.get(game_type__code="holdem").max_tables_per_stake is None


def test_seeding_again_changes_nothing() -> None:
    before = (GameType.objects.count(), GameRules.objects.count(), Stake.objects.count(), StakeTerms.objects.count())
    assert seed_stakes() == 0
    after = (GameType.objects.count(), GameRules.objects.count(), Stake.objects.count(), StakeTerms.objects.count())
    assert before == after


def test_a_new_terms_row_applies_from_its_effective_time_and_hands_record_the_row_they_were_dealt_under() -> None:
    """Section 0.3: the row in force is the latest effective_from not after now; history is never edited."""
    table = open_table("holdem", "NL10")
    stake = table.stake
    old = stake.terms_at(START)
    new = StakeTerms.objects.create(
        stake=stake,
        effective_from=START + timedelta(hours=1),
        small_blind=5,
        big_blind=10,
        min_buy_in_big_blinds=50,
        max_buy_in_big_blinds=100,
        seats=6,
        rake_rate_basis_points=500,
        rake_cap=100,
        rake_small_hand_cap=100,
    )
    assert stake.terms_at(START) == old
    assert stake.terms_at(START + timedelta(hours=1)) == new
    seat_players(table, [player() for _ in range(3)], 1000)
    deal(table, now=START)
    first = check_or_call_down(table)
    assert first.stake_terms == old
    assert first.rake == 1  # 3.5 % of 30 cents
    deal(table, now=START + timedelta(hours=2))
    second = check_or_call_down(table, now=START + timedelta(hours=2))
    assert Hand.objects.get(pk=second.pk).stake_terms == new
    assert Hand.objects.get(pk=second.pk).rake == 2  # 5 % of 30 cents, rounded half up (RAKE-05)
