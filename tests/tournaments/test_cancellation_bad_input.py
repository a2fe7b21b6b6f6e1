"""Bad or inconsistent input to the cancellation calculation (CXL-01) is refused with a ValueError naming it."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from tests.tournaments.cancellation_builders import cxl07_final_table, entry, hexapro_at_25x, still_in
from tournaments.rules.cancellation import RemainingPlayer, cancel

FINAL_TABLE = cxl07_final_table()
HEXAPRO = hexapro_at_25x(700, 500)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"purchases": (entry("p1", -1_000, 100),)}, "prize_contribution_cents of purchase p1-entry-1 is -1000"),
        ({"purchases": (entry("p1", 1_000, 1.5),)}, "fee_cents of purchase p1-entry-1 is 1.5: amounts are whole"),
        ({"purchases": (entry("p1", 1_000, 100),) * 2}, "purchase reference p1-entry-1 appears twice"),
        ({"added_money_cents": -5}, "added_money_cents is -5"),
        ({"remaining": ()}, "a started tournament has at least one remaining player"),
        ({"remaining": still_in(5_000, 0, 2_000)}, "remaining player p2 has 0 chips"),
        ({"remaining": (*still_in(5_000, 3_000), RemainingPlayer("p1", 10, 9))}, "remaining player p1 appears twice"),
        ({"remaining": (*still_in(5_000, 3_000), RemainingPlayer("p3", 10, 2))}, "seat 2 appears twice"),
        ({"remaining": (RemainingPlayer("zed", 10, 1),)}, "remaining player zed has no purchase"),
        ({"prizes": (5_000, 3_000, 1_000)}, "the prize table adds up to 9000 cents, but .* come to 10000"),
        ({"prizes": (3_000, 5_000, 2_000)}, "list prizes from first place down"),
        ({"prizes": (10_000, 0, 0)}, "every place of the prize table pays a whole, positive number of cents"),
        ({"non_monetary_places": frozenset({4})}, r"non-monetary places \[4\] are not places of the prize table"),
        ({"bounties_paid_cents": 100}, "bounties add up to 0 cents, but the bounty money held is -100"),
    ],
)
def test_cxl01_inconsistent_tournaments_are_refused(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        cancel(dataclasses.replace(FINAL_TABLE, **changes))


def test_cxl02_players_with_chips_or_bounties_won_before_the_start_are_refused() -> None:
    with pytest.raises(ValueError, match="before the start no player has chips"):
        cancel(dataclasses.replace(FINAL_TABLE, started=False))
    with pytest.raises(ValueError, match="before the start no bounty has been won"):
        cancel(dataclasses.replace(FINAL_TABLE, started=False, remaining=(), bounties_paid_cents=100))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"remaining": ()}, "at least one remaining player"),
        ({"eliminated": ("anna",)}, "player anna appears twice"),
        ({"payout_percentages": (80, 12)}, "must be non-negative and add up to 100"),
        ({"payout_percentages": (80, 30, -10)}, "must be non-negative and add up to 100"),
        ({"payout_percentages": ()}, "payout percentages are numbers"),
        ({"payout_percentages": (8, 12, 80)}, "must be listed from first place down"),
        ({"payout_percentages": (70, 12, 10, 8)}, "4 payout percentages for a game of 3 players"),
        ({"prize_pool_cents": -1}, "prize_pool_cents is -1"),
        ({"fee_component_cents": 0.69}, "fee_component_cents is 0.69"),
        ({"remaining": (RemainingPlayer("anna", 700, 1, bounty_cents=5),)}, "HexaPro games have no bounties"),
        ({"prize_pool_cents": 25_001}, "the prizes below place 2 come to 50002/25 cents, not whole cents"),
    ],
)
def test_cxl09_inconsistent_hexapro_games_are_refused(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        cancel(dataclasses.replace(HEXAPRO, **changes))
