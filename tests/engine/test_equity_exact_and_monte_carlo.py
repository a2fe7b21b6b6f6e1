"""FRD-19: all-in equity per player — exact enumeration of the remaining board when it is small, seeded Monte-Carlo
with a stated standard error otherwise, with the engine's evaluator."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

from games.engine.cards import FULL_DECK, parse_cards
from games.engine.config import Variant
from games.engine.equity import all_in_equity, equity_against_random_hands, equity_by_street
from games.engine.evaluation import evaluate_holdem

HOLDEM = Variant.NO_LIMIT_HOLDEM
ACES, KINGS = parse_cards("AsAh"), parse_cards("KdKc")
# Exhaustive enumeration of the 1,712,304 boards with treys' evaluator (a separate implementation): aces win 1,388,072
# boards and tie 6,538, so aces' equity is (1,388,072 + 6,538 / 2) / 1,712,304 = 29603/36432 (81.26 %).
ACES_AGAINST_KINGS = Fraction(29603, 36432)


def test_aces_against_kings_preflop_is_estimated_within_the_stated_error_of_the_exact_value() -> None:
    result = all_in_equity(HOLDEM, [ACES, KINGS], samples=20_000, seed=7)
    aces, kings = result.players
    assert not result.exact
    assert (result.runouts, result.possible_runouts) == (20_000, 1_712_304)
    assert aces.exact_equity is None
    assert 0.002 < aces.standard_error < 0.004  # sqrt(0.81 * 0.19 / 20,000) = 0.0028
    assert abs(aces.equity - float(ACES_AGAINST_KINGS)) < 4 * aces.standard_error
    assert aces.equity + kings.equity == pytest.approx(1.0)
    assert aces.tie == kings.tie


@pytest.mark.slow
def test_aces_against_kings_preflop_enumerated_exactly_matches_treys() -> None:
    result = all_in_equity(HOLDEM, [ACES, KINGS], exact_limit=2_000_000)
    assert result.exact
    assert result.players[0].exact_equity == ACES_AGAINST_KINGS
    assert result.players[1].exact_equity == 1 - ACES_AGAINST_KINGS


def brute_force(holes: list[tuple[object, ...]], board: tuple[object, ...]) -> list[Fraction]:
    """Every run-out, compared with the display evaluator (which validates and builds the five cards)."""
    used = {card for hole in holes for card in hole} | set(board)
    deck = [card for card in FULL_DECK if card not in used]
    shares = [Fraction(0)] * len(holes)
    runouts = list(combinations(deck, 5 - len(board)))
    for runout in runouts:
        values = [evaluate_holdem(hole, board + runout) for hole in holes]  # type: ignore[operator,arg-type]
        best = max(values)
        winners = [index for index, value in enumerate(values) if value == best]
        for index in winners:
            shares[index] += Fraction(1, len(winners))
    return [share / len(runouts) for share in shares]


def test_a_flop_spot_is_enumerated_exactly_and_matches_brute_force() -> None:
    holes = [parse_cards("AhKh"), parse_cards("QsQd"), parse_cards("Jc9c")]
    board = parse_cards("Qh7h2c")
    result = all_in_equity(HOLDEM, holes, board)
    assert result.exact
    assert result.runouts == result.possible_runouts == 903  # C(43, 2)
    expected = brute_force(holes, board)  # type: ignore[arg-type]
    assert [player.exact_equity for player in result.players] == expected
    assert [player.standard_error for player in result.players] == [0.0, 0.0, 0.0]
    assert sum(player.equity for player in result.players) == pytest.approx(1.0)


def test_split_pots_count_a_share_to_each_winner() -> None:
    # Both hold ace-king on a board that gives both a straight: every run-out is a tie (or a flush for hearts).
    result = all_in_equity(HOLDEM, [parse_cards("AcKd"), parse_cards("AdKc")], parse_cards("QsJsTh"))
    assert result.players[0].exact_equity == result.players[1].exact_equity == Fraction(1, 2)
    assert result.players[0].tie == 1.0


def test_monte_carlo_is_reproducible_with_its_seed_and_varies_without_it() -> None:
    holes = [parse_cards("AsKs"), parse_cards("7d7c")]
    first = all_in_equity(HOLDEM, holes, samples=500, seed="hand:12:3")
    again = all_in_equity(HOLDEM, holes, samples=500, seed="hand:12:3")
    other = all_in_equity(HOLDEM, holes, samples=500, seed="hand:12:4")
    assert first == again
    assert first != other


def test_equity_by_street_follows_the_board_to_the_river() -> None:
    holes = [parse_cards("AsAd"), parse_cards("8h9h")]
    streets = equity_by_street(HOLDEM, holes, parse_cards("2h5hTc6d7s"), samples=3_000, seed=1)
    assert list(streets) == ["preflop", "flop", "turn", "river"]
    assert not streets["preflop"].exact
    assert 0.75 < streets["preflop"].players[0].equity < 0.83
    assert streets["flop"].exact
    assert streets["turn"].exact
    assert streets["river"].exact
    assert streets["river"].equities == (0.0, 1.0)  # the ten-high straight
    assert equity_by_street(HOLDEM, holes, parse_cards("2h5hTc")).keys() == {"preflop", "flop"}


def test_omaha_uses_exactly_two_hole_cards_on_the_turn() -> None:
    # Four aces on board would give a Hold'em player quads; in Omaha the hand must use two of its own cards.
    holes = [parse_cards("KsKdQc2h"), parse_cards("9h8h7c6c")]
    result = all_in_equity(Variant.POT_LIMIT_OMAHA, holes, parse_cards("AsAhAdAc"))
    assert result.exact
    assert result.runouts == 40
    assert result.players[0].equity > 0.5


def test_a_holding_against_random_hands_matches_known_preflop_values() -> None:
    aces = equity_against_random_hands(HOLDEM, ACES, samples=6_000, seed=2)
    seven_deuce = equity_against_random_hands(HOLDEM, parse_cards("7c2d"), samples=6_000, seed=2)
    assert abs(aces.equity - 0.852) < 4 * aces.standard_error  # aces against one random hand: 85.2 %
    assert abs(seven_deuce.equity - 0.346) < 4 * seven_deuce.standard_error  # seven-deuce offsuit: 34.6 %
    assert equity_against_random_hands(HOLDEM, ACES, opponents=3, samples=3_000, seed=2).equity < aces.equity
