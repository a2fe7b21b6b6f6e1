"""FRD-19: the engine's all-in equity agrees with pokerkit's ``calculate_equities`` (a separate implementation) on
Hold'em and Omaha spots, within the Monte-Carlo errors of both."""

from __future__ import annotations

import pytest
from pokerkit import Card as PokerkitCard
from pokerkit import Deck, OmahaHoldemHand, StandardHighHand, calculate_equities

from games.engine.cards import parse_cards
from games.engine.config import Variant
from games.engine.equity import all_in_equity
from tests.engine.pokerkit_bridge import pokerkit_lookup_keys_remembered

SPOTS = [
    (Variant.NO_LIMIT_HOLDEM, ["AsKs", "QhQd"], "", StandardHighHand, 2),
    (Variant.NO_LIMIT_HOLDEM, ["AhAd", "KsQs", "7c7d"], "", StandardHighHand, 2),
    (Variant.NO_LIMIT_HOLDEM, ["AhKh", "QsQd"], "Qh7h2c", StandardHighHand, 2),
    (Variant.POT_LIMIT_OMAHA, ["AsAhKsKh", "Jd Td 9c 8c"], "", OmahaHoldemHand, 4),
    (Variant.POT_LIMIT_OMAHA, ["AsAhKsKh", "JdTd9c8c"], "QdJs2c", OmahaHoldemHand, 4),
]


@pytest.mark.parametrize(("variant", "holes", "board", "hand_type", "hole_count"), SPOTS)
def test_equities_agree_with_pokerkit(
    variant: Variant, holes: list[str], board: str, hand_type: type, hole_count: int
) -> None:
    ours = all_in_equity(variant, [parse_cards(hole) for hole in holes], parse_cards(board), samples=4_000, seed=5)
    with pokerkit_lookup_keys_remembered():  # pokerkit's own evaluation, nine tenths of the test's time (issue 26)
        theirs = calculate_equities(
            [[list(PokerkitCard.parse(hole.replace(" ", "")))] for hole in holes],
            list(PokerkitCard.parse(board)),
            hole_count,
            5,
            Deck.STANDARD,
            (hand_type,),
            sample_count=5_000,
        )
    for player, their_equity in zip(ours.players, theirs, strict=True):
        # pokerkit's own sampling error is at most 0.5 / sqrt(samples): about 0.008 at 4,000.
        tolerance = 4 * (max(player.standard_error, 0.004) + 0.008)
        assert player.equity == pytest.approx(their_equity, abs=tolerance)
