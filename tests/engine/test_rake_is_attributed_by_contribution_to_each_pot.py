"""Rake attribution for rakeback and VIP reports (LOB-09, from RAKE-07): each pot's rake goes to the players who put
money into that pot, in proportion to what each put in; the players' parts layer exactly as the pots do (ENG-22)."""

from __future__ import annotations

from games.engine.pots import layer_contributions, layer_pots
from games.engine.rake import rake_by_contribution


def test_eng_22_the_seed_example_layers_each_players_part_of_each_pot() -> None:
    """A and B put in 1000 each, C is all-in for 100: main pot 300 (100 each), side pot 1800 (900 each of A and B)."""
    parts = layer_contributions({1: 1000, 2: 1000, 3: 100}, folded=[])

    assert parts == [{1: 100, 2: 100, 3: 100}, {1: 900, 2: 900}]
    assert [sum(pot.values()) for pot in parts] == [amount for amount, _ in layer_pots([1000, 1000, 100], [False] * 3)]


def test_a_folded_players_money_above_the_highest_level_joins_the_last_pot() -> None:
    parts = layer_contributions({1: 300, 2: 200, 3: 200}, folded=[1])

    assert parts == [{1: 300, 2: 200, 3: 200}]


def test_each_pots_rake_is_shared_by_contribution_and_every_cent_is_attributed() -> None:
    attributed = rake_by_contribution([{1: 500, 2: 500, 3: 500}, {2: 500, 3: 500}], [53, 35])

    assert attributed == {1: 18, 2: 36, 3: 34}


def test_a_player_who_paid_only_a_blind_pays_their_share_of_the_main_pot() -> None:
    attributed = rake_by_contribution([{1: 10, 2: 100, 3: 100}], [7])

    # 7 × 10/210 = 0.33, 7 × 100/210 = 3.33 twice: equal remainders, so the leftover cent goes to the lowest seat.
    assert attributed == {1: 1, 2: 3, 3: 3}
    assert rake_by_contribution([{1: 10, 2: 100}], [0]) == {1: 0, 2: 0}
