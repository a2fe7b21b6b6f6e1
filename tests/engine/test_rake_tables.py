"""RAKE-02 and RAKE-06 tables as data: every row of the catalog with its blinds, rate, cap and 2-3-player cap."""

from __future__ import annotations

import pytest

from games.engine.rake import (
    BANZAI_HOLDEM_RAKE_ROWS,
    HOLDEM_RAKE_ROWS,
    OMAHA_RAKE_ROWS,
    RAKE_TABLE,
    RakeRow,
    compute_rake,
    find_rake_row,
    reduced_cap_for_blinds,
)

# (game, table type, stake, small blind, big blind, rate in basis points, cap, 2-3-player cap, enabled), in cents.
CATALOG_ROWS = [
    ("holdem", "regular", "NL4", 2, 4, 200, 50, 50, True),
    ("holdem", "regular", "NL10", 5, 10, 350, 100, 100, True),
    ("holdem", "deepstack", "NL100", 5, 10, 350, 200, 100, True),
    ("holdem", "regular", "NL25", 10, 25, 450, 200, 150, True),
    ("holdem", "regular", "NL50", 25, 50, 550, 200, 150, True),
    ("holdem", "regular", "NL100", 50, 100, 600, 300, 150, True),
    ("holdem", "regular", "NL200", 100, 200, 600, 300, 150, True),
    ("holdem", "regular", "NL400", 200, 400, 600, 300, 150, True),
    ("omaha", "regular", "PL4", 2, 4, 200, 50, 50, True),
    ("omaha", "regular", "PL10", 5, 10, 300, 150, 100, True),
    ("omaha", "regular", "PL25", 10, 25, 300, 250, 150, True),
    ("omaha", "shortstack", "PL10", 25, 50, 300, 150, 150, True),
    ("omaha", "regular", "PL50", 25, 50, 350, 300, 150, True),
    ("omaha", "regular", "PL100", 50, 100, 600, 300, 150, True),
    ("omaha", "regular", "PL200", 100, 200, 600, 300, 150, True),
    ("omaha", "regular", "PL400", 200, 400, 600, 300, 150, True),
    ("holdem", "banzai", "NL1", 5, 10, 100, 300, 100, True),
    ("holdem", "banzai", "NL5", 25, 50, 100, 300, 150, True),
    ("holdem", "banzai", "NL20", 100, 200, 100, 300, 150, True),
    ("holdem", "banzai", "NL50", 250, 500, 250, 150, 150, True),
    ("holdem", "banzai", "NL100", 500, 1000, 250, 200, 150, False),
]


def row_id(row: tuple[object, ...]) -> str:
    return f"{row[0]}-{row[1]}-{row[2]}"


@pytest.mark.parametrize("expected", CATALOG_ROWS, ids=row_id)
def test_rake_02_rake_06_each_catalog_row_is_exported_with_its_numbers(expected: tuple[object, ...]) -> None:
    game, table_type, stake, small_blind, big_blind, rate, cap, small_hand_cap, enabled = expected
    row = find_rake_row(str(game), str(table_type), str(stake))
    assert (row.small_blind, row.big_blind, row.rate_basis_points, row.cap, row.small_hand_cap, row.enabled) == (
        small_blind,
        big_blind,
        rate,
        cap,
        small_hand_cap,
        enabled,
    )


def test_rake_02_the_exported_table_holds_exactly_the_catalog_rows_grouped_by_game() -> None:
    assert len(RAKE_TABLE) == len(CATALOG_ROWS) == 21
    assert len(HOLDEM_RAKE_ROWS) == 8
    assert len(OMAHA_RAKE_ROWS) == 8
    assert len(BANZAI_HOLDEM_RAKE_ROWS) == 5
    keys = [(row.game, row.table_type, row.stake) for row in RAKE_TABLE]
    assert len(set(keys)) == len(keys)


def test_amb_01_nl100_exists_twice_as_regular_0_5_1_and_as_texas_deepstack_0_05_0_10() -> None:
    assert find_rake_row("holdem", "regular", "NL100").big_blind == 100
    assert find_rake_row("holdem", "deepstack", "NL100").big_blind == 10


def test_amb_02_pl10_at_0_25_0_50_is_omaha_shortstack() -> None:
    assert find_rake_row("omaha", "shortstack", "PL10").big_blind == 50
    assert find_rake_row("omaha", "regular", "PL10").big_blind == 10


def test_amb_03_nl25_blinds_are_0_10_0_25() -> None:
    assert find_rake_row("holdem", "regular", "NL25").small_blind == 10


def test_amb_06_banzai_nl100_is_stored_but_disabled() -> None:
    assert [row.stake for row in BANZAI_HOLDEM_RAKE_ROWS if not row.enabled] == ["NL100"]
    assert all(row.enabled for row in HOLDEM_RAKE_ROWS + OMAHA_RAKE_ROWS)


@pytest.mark.parametrize(
    ("big_blind", "regular_cap", "expected"),
    [(4, 50, 50), (10, 100, 100), (10, 200, 100), (10, 300, 100), (25, 200, 150), (50, 300, 150), (500, 150, 150)],
)
def test_rake_06_amb_07_the_reduced_cap_is_the_blind_level_amount_but_never_above_the_regular_cap(
    big_blind: int, regular_cap: int, expected: int
) -> None:
    assert reduced_cap_for_blinds(big_blind, regular_cap) == expected


@pytest.mark.parametrize("row", RAKE_TABLE, ids=lambda row: f"{row.game}-{row.table_type}-{row.stake}")
def test_rake_06_every_row_caps_a_huge_heads_up_pot_at_its_reduced_cap_and_a_full_ring_pot_at_its_cap(
    row: RakeRow,
) -> None:
    huge_pot = 1_000_000
    assert compute_rake(row, [huge_pot], flop_dealt=True, players_dealt_in=2).total == row.small_hand_cap
    assert compute_rake(row, [huge_pot], flop_dealt=True, players_dealt_in=3).total == row.small_hand_cap
    assert compute_rake(row, [huge_pot], flop_dealt=True, players_dealt_in=6).total == row.cap


@pytest.mark.parametrize("row", RAKE_TABLE, ids=lambda row: f"{row.game}-{row.table_type}-{row.stake}")
def test_rake_02_every_row_takes_its_percentage_of_a_pot_below_the_cap(row: RakeRow) -> None:
    pot = 1000  # €10: rate x €10 is at most €0.60, under every cap
    expected = row.rate_basis_points * pot // 10_000
    assert compute_rake(row, [pot], flop_dealt=True, players_dealt_in=6).total == expected
