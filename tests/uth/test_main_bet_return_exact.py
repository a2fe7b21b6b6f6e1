"""UTH-21: the main bets' return of the strategy the product plays is known exactly, and sits just below the published
perfect-play figures; changing any one line that pays the main bets moves it beyond the tolerance of ±0.05 % of the
Ante that the published 97.82 % is checked against.

The figures come from the recorded totals of the full enumeration (games.engine.uth.main_bet_exact;
tests/uth/test_main_bet_exact.py recounts them and checks the counting against brute-force play and settlement).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import pytest

from games.engine.uth.main_bet_exact import RECORDED_BASIC_STRATEGY_TOTALS
from games.engine.uth.paytables import ANTE_ODDS, BLIND_PAYTABLE, PLAY_ODDS, HandClass, Odds
from games.engine.uth.rtp import PUBLISHED_INITIAL_MAIN_BET_RTP, PUBLISHED_TOTAL_MAIN_BET_RTP

TOLERANCE = Fraction(5, 10_000)
"""±0.05 % of the Ante: the precision the published 97.82 % is checked to."""

BASIC_STRATEGY_COST_LIMIT = Fraction(3, 1_000)
"""The basic strategy gives up a little against perfect play (a quarter of a percent of the Ante by its author's
account); more than 0.3 % would mean a wrong rule, not a simplified strategy."""


def test_uth_21_the_basic_strategy_returns_exactly_97_6186_percent_per_ante() -> None:
    exact = RECORDED_BASIC_STRATEGY_TOTALS.return_per_ante()
    # No error bar: an exact fraction of the 27,813,810,024,000 cases.
    assert exact == Fraction(2_244_663_686, 2_299_422_125)
    assert round(exact * 100, 4) == Fraction(976_186, 10_000)


def test_uth_21_the_basic_strategy_stays_just_below_the_published_perfect_play_returns() -> None:
    per_ante = RECORDED_BASIC_STRATEGY_TOTALS.return_per_ante()
    per_total_bet = RECORDED_BASIC_STRATEGY_TOTALS.return_per_total_bet()
    assert 0 < PUBLISHED_INITIAL_MAIN_BET_RTP - per_ante < BASIC_STRATEGY_COST_LIMIT
    assert 0 < PUBLISHED_TOTAL_MAIN_BET_RTP - per_total_bet < BASIC_STRATEGY_COST_LIMIT
    assert round(per_total_bet * 100, 4) == Fraction(994_280, 10_000)


def scaled(odds: Odds, factor: Fraction) -> Odds:
    ratio = Fraction(odds.numerator, odds.denominator) * factor
    return Odds(ratio.numerator, ratio.denominator)


ONE_LINE_CHANGES: list[tuple[str, Mapping[HandClass, Odds], Odds, Odds]] = []
for hand in sorted(BLIND_PAYTABLE, reverse=True):
    for factor in (Fraction(9, 10), Fraction(11, 10)):
        changed = {**BLIND_PAYTABLE, hand: scaled(BLIND_PAYTABLE[hand], factor)}
        ONE_LINE_CHANGES.append((f"Blind {hand.display_name} {changed[hand]}", changed, ANTE_ODDS, PLAY_ODDS))
    without = {line: odds for line, odds in BLIND_PAYTABLE.items() if line is not hand}
    ONE_LINE_CHANGES.append((f"Blind {hand.display_name} pushes", without, ANTE_ODDS, PLAY_ODDS))
for factor in (Fraction(9, 10), Fraction(11, 10)):
    ONE_LINE_CHANGES.append((f"Ante {scaled(ANTE_ODDS, factor)}", BLIND_PAYTABLE, scaled(ANTE_ODDS, factor), PLAY_ODDS))
    ONE_LINE_CHANGES.append((f"Play {scaled(PLAY_ODDS, factor)}", BLIND_PAYTABLE, ANTE_ODDS, scaled(PLAY_ODDS, factor)))


@pytest.mark.parametrize(
    ("blind_paytable", "ante_odds", "play_odds"),
    [change[1:] for change in ONE_LINE_CHANGES],
    ids=[change[0] for change in ONE_LINE_CHANGES],
)
def test_uth_21_changing_one_main_bet_line_by_a_tenth_moves_the_return_beyond_the_tolerance(
    blind_paytable: Mapping[HandClass, Odds], ante_odds: Odds, play_odds: Odds
) -> None:
    exact = RECORDED_BASIC_STRATEGY_TOTALS.return_per_ante()
    changed = RECORDED_BASIC_STRATEGY_TOTALS.return_per_ante(blind_paytable, ante_odds, play_odds)
    assert abs(changed - exact) > TOLERANCE


def test_uth_21_the_smallest_line_change_the_tolerance_sees_is_a_few_percent_of_its_odds() -> None:
    """How far each Blind line may be off before the return moves by the tolerance: the line's share of the return
    (its wins per case) sets it. Even the Royal Flush (wins in 1 of 32,000 cases) is seen at ±16:1 of its 500:1."""
    totals = RECORDED_BASIC_STRATEGY_TOTALS
    for hand, odds in BLIND_PAYTABLE.items():
        share = Fraction(totals.wins_by_class[hand], totals.cases)
        smallest_visible_change = TOLERANCE / share
        assert smallest_visible_change < Fraction(odds.numerator, odds.denominator) / 25
