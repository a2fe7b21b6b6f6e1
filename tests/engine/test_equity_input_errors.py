"""FRD-19: equity refuses hands it cannot evaluate with a clear reason."""

from __future__ import annotations

import pytest

from games.engine.cards import parse_cards
from games.engine.config import Variant
from games.engine.equity import EquityInputError, all_in_equity, equity_against_random_hands

HOLDEM = Variant.NO_LIMIT_HOLDEM


@pytest.mark.parametrize(
    ("holes", "board", "options", "message"),
    [
        ([], "", {}, "at least one hand"),
        (["AsKs", "Qh"], "", {}, "hand 2 has 1 cards, NO_LIMIT_HOLDEM deals 2"),
        (["AsKs", "AsQh"], "", {}, "a card is given twice: As"),
        (["AsKs", "QhQd"], "2c3c4c5c6c7c", {}, "at most five cards"),
        (["AsKs", "QhQd"], "", {"samples": 0}, "samples must be a positive whole number"),
        (["AsKs", "QhQd"], "", {"exact_limit": -1}, "exact_limit must be a non-negative whole number"),
        (["AsKs", "QhQd"], "", {"dead": parse_cards("Qh")}, "a card is given twice: Qh"),
    ],
)
def test_bad_hands_or_options_are_refused(holes: list[str], board: str, options: dict, message: str) -> None:
    with pytest.raises(EquityInputError, match=message):
        all_in_equity(HOLDEM, [parse_cards(hole) for hole in holes], parse_cards(board), **options)


def test_a_single_hand_has_all_the_equity() -> None:
    result = all_in_equity(HOLDEM, [parse_cards("2c3d")], parse_cards("AsKsQs"))
    assert result.exact
    assert result.players[0].equity == 1.0


def test_random_opponents_must_be_one_to_nine() -> None:
    with pytest.raises(EquityInputError, match="opponents must be 1 to 9"):
        equity_against_random_hands(HOLDEM, parse_cards("AsKs"), opponents=0)
    with pytest.raises(EquityInputError, match="hand 1 has 2 cards, POT_LIMIT_OMAHA deals 4"):
        equity_against_random_hands(Variant.POT_LIMIT_OMAHA, parse_cards("AsKs"))
