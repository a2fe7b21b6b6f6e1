"""Cash-game rake rules RAKE-01, RAKE-03..RAKE-08 and every RAKE-* acceptance example of the catalog."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.rake import (
    RAKE_TABLE,
    PokerGame,
    RakeRow,
    TableType,
    allocate_proportionally,
    compute_rake,
    find_rake_row,
)

NL4 = find_rake_row(PokerGame.HOLDEM, TableType.REGULAR, "NL4")
NL10 = find_rake_row(PokerGame.HOLDEM, TableType.REGULAR, "NL10")
NL50 = find_rake_row(PokerGame.HOLDEM, TableType.REGULAR, "NL50")
PL25 = find_rake_row(PokerGame.OMAHA, TableType.REGULAR, "PL25")
BANZAI_NL1 = find_rake_row(PokerGame.HOLDEM, TableType.BANZAI, "NL1")


def rake(row: RakeRow, pot: int, players: int, *, flop_dealt: bool = True) -> int:
    return compute_rake(row, [pot], flop_dealt=flop_dealt, players_dealt_in=players).total


# --- The catalog's acceptance examples [derived], by rule ---------------------------------------------------------


def test_rake_01_nl10_four_players_pot_20_euros_is_raked_3_5_percent_70_cents() -> None:
    assert rake(NL10, 2000, 4) == 70


def test_rake_02_nl10_four_players_pot_40_euros_is_capped_at_1_euro() -> None:
    result = compute_rake(NL10, [4000], flop_dealt=True, players_dealt_in=4)
    assert result.uncapped_amount == 140
    assert result.total == 100
    assert result.was_capped


def test_rake_06_nl50_three_players_pot_50_euros_is_capped_at_the_reduced_1_50() -> None:
    assert rake(NL50, 5000, 3) == 150


def test_rake_04_nl4_five_players_pot_20_cents_rounds_to_zero_then_the_one_cent_minimum_applies() -> None:
    assert rake(NL4, 20, 5) == 1


def test_rake_05_amb_24_nl4_four_players_pot_1_25_gives_2_5_cents_and_the_half_rounds_up_to_3() -> None:
    assert rake(NL4, 125, 4) == 3


def test_rake_06_pl25_heads_up_pot_100_euros_is_capped_at_the_reduced_1_50() -> None:
    assert rake(PL25, 10_000, 2) == 150


@pytest.mark.parametrize("row", RAKE_TABLE, ids=lambda row: f"{row.game}-{row.table_type}-{row.stake}")
def test_rake_03_everyone_folding_to_the_big_blind_preflop_is_not_raked_at_any_stake(row: RakeRow) -> None:
    result = compute_rake(row, [row.small_blind + row.big_blind], flop_dealt=False, players_dealt_in=6)
    assert result.total == 0
    assert result.per_pot == (0,)


def test_rake_02_banzai_nl1_five_players_pot_2_euros_is_raked_1_percent_2_cents() -> None:
    assert rake(BANZAI_NL1, 200, 5) == 2


# --- Further rule checks ---------------------------------------------------------------------------------------


def test_rake_03_a_preflop_all_in_whose_board_is_run_out_reached_the_flop_and_is_raked() -> None:
    assert rake(NL10, 2000, 2, flop_dealt=True) == 70
    assert rake(NL10, 2000, 2, flop_dealt=False) == 0


def test_rake_03_a_large_preflop_pot_is_still_not_raked() -> None:
    assert rake(NL50, 100_000, 9, flop_dealt=False) == 0


def test_rake_05_rounding_is_to_the_nearest_cent_below_a_half_down_above_a_half_up() -> None:
    assert rake(NL10, 1001, 4) == 35  # 35.035 cents
    assert rake(NL10, 1014, 4) == 35  # 35.49 cents
    assert rake(NL10, 1015, 4) == 36  # 35.525 cents
    assert rake(NL4, 75, 4) == 2  # exactly 1.5 cents rounds up


def test_rake_05_amb_24_the_minimum_is_applied_before_the_cap() -> None:
    zero_cap = RakeRow(PokerGame.HOLDEM, TableType.REGULAR, "X", 2, 4, 200, 0, 0)
    assert rake(zero_cap, 20, 5) == 0


def test_rake_06_the_reduced_cap_applies_to_exactly_two_or_three_players_dealt_in() -> None:
    nl100 = find_rake_row("holdem", "regular", "NL100")
    big_pot = 100_000
    assert rake(nl100, big_pot, 2) == 150
    assert rake(nl100, big_pot, 3) == 150
    assert rake(nl100, big_pot, 4) == 300
    assert rake(nl100, big_pot, 9) == 300


def test_rake_07_amb_25_side_pots_are_raked_on_their_total_and_pay_in_proportion() -> None:
    """Pots 20.00 + 10.00 + 5.00 at NL10 (4 players): 3.5 % of 35.00 = 1.225 -> capped 1.00; shares 57.1/28.6/14.3."""
    result = compute_rake(NL10, [2000, 1000, 500], flop_dealt=True, players_dealt_in=4)
    assert result.pot_total == 3500
    assert result.total == 100
    assert result.per_pot == (57, 29, 14)


def test_rake_07_amb_25_a_leftover_cent_on_equal_remainders_comes_from_the_main_pot() -> None:
    assert allocate_proportionally(1, [300, 300]) == (1, 0)
    assert allocate_proportionally(5, [100, 100, 100]) == (2, 2, 1)


def test_rake_07_an_empty_side_pot_pays_nothing() -> None:
    result = compute_rake(NL10, [2000, 0], flop_dealt=True, players_dealt_in=3)
    assert result.per_pot == (70, 0)


def test_rake_08_the_result_records_rate_cap_players_pot_total_and_amount() -> None:
    result = compute_rake(NL50, [5000], flop_dealt=True, players_dealt_in=3)
    assert (result.rate_basis_points, result.cap_applied, result.players_dealt_in, result.pot_total, result.total) == (
        550,
        150,
        3,
        5000,
        150,
    )


def test_rake_01_the_rate_is_an_exact_fraction_not_a_float() -> None:
    assert NL10.rate_basis_points == 350
    assert str(NL10.rate) == "7/200"


@pytest.mark.parametrize(
    ("pots", "players"),
    [([-1], 4), ([100.0], 4), ([100], 1), ([100], 0)],
)
def test_bad_rake_input_is_refused(pots: list[int], players: int) -> None:
    with pytest.raises(ValueError):
        compute_rake(NL10, pots, flop_dealt=True, players_dealt_in=players)


def test_a_rake_row_refuses_floats_negative_values_and_a_reduced_cap_above_the_cap() -> None:
    with pytest.raises(ValueError):
        RakeRow(PokerGame.HOLDEM, TableType.REGULAR, "X", 2, 4, 3.5, 50, 50)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        RakeRow(PokerGame.HOLDEM, TableType.REGULAR, "X", 2, 4, 200, -1, 0)
    with pytest.raises(ValueError):
        RakeRow(PokerGame.HOLDEM, TableType.REGULAR, "X", 2, 4, 200, 50, 100)
    with pytest.raises(ValueError):
        RakeRow(PokerGame.HOLDEM, TableType.REGULAR, "X", 2, 4, 10_001, 50, 50)


def test_an_unknown_stake_is_a_lookup_error() -> None:
    with pytest.raises(LookupError):
        find_rake_row("holdem", "regular", "NL1000")


@given(
    pots=st.lists(st.integers(min_value=0, max_value=10**7), min_size=1, max_size=8),
    players=st.integers(min_value=2, max_value=10),
    row=st.sampled_from(RAKE_TABLE),
)
def test_rake_never_exceeds_cap_or_pot_and_the_per_pot_shares_add_up(
    pots: list[int], players: int, row: RakeRow
) -> None:
    result = compute_rake(row, pots, flop_dealt=True, players_dealt_in=players)
    assert sum(result.per_pot) == result.total
    assert result.total <= result.cap_applied
    assert result.total <= sum(pots)
    assert all(0 <= share <= pot for share, pot in zip(result.per_pot, pots, strict=True))
    if sum(pots) > 0:
        assert result.total >= 1


@given(
    amount=st.integers(min_value=0, max_value=10**6),
    weights=st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=8),
)
def test_rake_07_proportional_allocation_is_within_one_cent_of_exact_shares(amount: int, weights: list[int]) -> None:
    total = sum(weights)
    if amount > total:
        with pytest.raises(ValueError):
            allocate_proportionally(amount, weights)
        return
    shares = allocate_proportionally(amount, weights)
    assert sum(shares) == amount
    for share, weight in zip(shares, weights, strict=True):
        exact = amount * weight / total if total else 0
        assert abs(share - exact) < 1
        assert share <= weight
