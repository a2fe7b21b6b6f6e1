"""The exact enumeration of the main bets (UTH-21) counts like the product plays and settles, board by board.

Each board's totals are compared with a brute-force count that decides with the strategy functions themselves
(:func:`raises_preflop`, :func:`raises_on_flop`, :func:`plays_on_river`) for every player holding and every flop split,
and settles every dealer holding with :func:`main_bet_returns`. The boards cover every suit pattern, flush-suit boards
with three, four and five cards, paired boards, a straight flush and a royal flush on the board. The enumeration
visits every board exactly once (up to suit relabelling, with the right weights), and the full count equals the
totals recorded in games.engine.uth.main_bet_exact.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations, permutations
from math import comb

import pytest

from games.engine.cards import FULL_DECK, Card, parse_cards
from games.engine.evaluation import holdem_strength
from games.engine.uth import settlement
from games.engine.uth.main_bet_exact import (
    CASES,
    CASES_PER_BOARD,
    RECORDED_BASIC_STRATEGY_TOTALS,
    BoardClass,
    MainBetTotals,
    basic_strategy_totals,
    board_classes,
    board_totals,
    totals_of_board_classes,
)
from games.engine.uth.paytables import ANTE_ODDS, BLIND_PAYTABLE, PLAY_ODDS, HandClass, Odds, hand_class
from games.engine.uth.strategy import plays_on_river, raises_on_flop, raises_preflop

ANTE = 20
"""Cents: the Blind's 1.5:1 and a tenth of any line still pay whole cents on it."""

BOARDS = (
    "Kh 9s 6c 3d 2h",  # two suits twice, one once
    "Qc 8d 5h 4s 2c",  # one suit twice, three once
    "Ts 9s 7s 4d 4h",  # three of a suit, a pair
    "Jh 8h 3h Kd 6d",  # three of a suit and two of another
    "As Qs 9s 5s 2d",  # four of a suit
    "9c 7c 5c 3c 2c",  # a flush on the board
    "Ah Kh Qh Jh Th",  # a royal flush on the board
    "6d 5d 4d 3d 2d",  # a straight flush on the board
    "8c 8d 8h 8s Ac",  # four of a kind on the board
    "Kc Kd 5h 5s 9c",  # two pair on the board
    "Ts Js Qd Kc Ah",  # a straight on the board
    "2c 2d 3h Qs Qh",  # deuces and a pair of queens
)


def brute_force_totals(board: Sequence[Card], ante: int = ANTE) -> tuple[MainBetTotals, int]:
    """(totals of the board, the player's net result in cents summed over every case) by playing every case."""
    unseen = [card for card in FULL_DECK if card not in board]
    holdings = list(combinations(unseen, 2))
    strength = {holding: holdem_strength((*holding, *board)) for holding in holdings}
    every_dealer_strength = Counter(strength.values())
    containing: dict[Card, list[tuple[Card, Card]]] = {card: [] for card in unseen}
    for holding in holdings:
        for card in holding:
            containing[card].append(holding)
    flops = list(combinations(board, 3))
    counts = Counter[str]()
    wins_by_class = Counter[HandClass]()
    net = 0
    for holding in holdings:
        first, second = holding
        sharing = Counter(strength[other] for other in containing[first])
        sharing.update(strength[other] for other in containing[second] if first not in other)
        dealer_strengths = every_dealer_strength - sharing
        assert dealer_strengths.total() == 990
        multiples = Counter[int]()
        for flop in flops:
            if raises_preflop(holding):
                multiples[4] += 1
            elif raises_on_flop(holding, flop):
                multiples[2] += 1
            elif plays_on_river(holding, board):
                multiples[1] += 1
            else:
                multiples[0] += 1
        player = strength[holding]
        for multiple, splits in multiples.items():
            if multiple == 0:
                counts["folds"] += splits * 990
                net -= splits * 990 * 2 * ante
                continue
            play = multiple * ante
            counts["play_units"] += splits * 990 * multiple
            for dealer, dealers in dealer_strengths.items():
                returned = settlement.main_bet_returns(ante, play, False, player, dealer)
                ante_return, blind_return, play_return = returned
                cases = splits * dealers
                net += cases * (sum(returned) - 2 * ante - play)
                if ante_return > ante:
                    counts["ante_wins"] += cases
                elif ante_return == 0:
                    counts["ante_losses"] += cases
                if play_return > play:
                    wins_by_class[hand_class(player)] += cases
                    counts["play_units_won"] += cases * multiple
                elif play_return == 0:
                    assert blind_return == 0
                    counts["losses"] += cases
                    counts["play_units_lost"] += cases * multiple
    totals = MainBetTotals(
        cases=CASES_PER_BOARD,
        ante_wins=counts["ante_wins"],
        ante_losses=counts["ante_losses"],
        losses=counts["losses"],
        wins_by_class={hand: wins_by_class[hand] for hand in HandClass},
        play_units_won=counts["play_units_won"],
        play_units_lost=counts["play_units_lost"],
        folds=counts["folds"],
        play_units=counts["play_units"],
    )
    return totals, net


@pytest.mark.parametrize("board", BOARDS)
def test_uth_21_a_board_is_counted_like_playing_and_settling_every_case_of_it(board: str) -> None:
    cards = parse_cards(board)
    expected, net = brute_force_totals(cards)
    counted = board_totals(cards)
    assert counted == expected
    assert counted.net_per_ante() * CASES_PER_BOARD == Fraction(net, ANTE)


def changed_by(odds: Odds, factor: Fraction) -> Odds:
    ratio = Fraction(odds.numerator, odds.denominator) * factor
    return Odds(ratio.numerator, ratio.denominator)


def test_uth_21_other_main_bet_odds_change_the_counted_return_as_the_settlement_pays_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The totals do not depend on the odds: with every Blind line, the Ante and the Play paying other odds, the return
    they give is what the settlement itself pays (on a board where every Blind line wins for some player holding)."""
    factors = iter(Fraction(numerator, 10) for numerator in (9, 11, 8, 12, 7, 13, 6, 14))
    blind = {hand: changed_by(odds, next(factors)) for hand, odds in BLIND_PAYTABLE.items()}
    ante_odds, play_odds = changed_by(ANTE_ODDS, next(factors)), changed_by(PLAY_ODDS, next(factors))
    monkeypatch.setattr(settlement, "BLIND_PAYTABLE", blind)
    monkeypatch.setattr(settlement, "ANTE_ODDS", ante_odds)
    monkeypatch.setattr(settlement, "PLAY_ODDS", play_odds)
    cards = parse_cards("Ts Js Qs 9d 9h")  # royal, straight flush, quads, full house, flush and straight all possible
    _, net = brute_force_totals(cards)
    counted = board_totals(cards)
    assert all(counted.wins_by_class[hand] > 0 for hand in BLIND_PAYTABLE)
    assert counted.net_per_ante(blind, ante_odds, play_odds) * CASES_PER_BOARD == Fraction(net, ANTE)
    assert counted.net_per_ante(blind, ante_odds, play_odds) != counted.net_per_ante()


@cache
def every_board_class() -> tuple[BoardClass, ...]:
    return tuple(board_classes())


def test_the_board_classes_stand_for_every_board_once() -> None:
    classes = every_board_class()
    assert len(classes) == 134_459
    assert sum(board_class.boards for board_class in classes) == comb(52, 5)
    # No two classes are relabellings of each other: the multiset of per-suit rank sets tells boards apart up to that.
    suit_rank_sets = {tuple(sorted((board_class.flush_ranks, *board_class.other_suits))) for board_class in classes}
    assert len(suit_rank_sets) == len(classes)
    # Each class stands for as many boards as relabelling its suits gives (checked on every 500th class).
    for board_class in classes[::500]:
        cards = board_class.cards()
        relabelled = {
            frozenset(Card(card.rank, suits["cdhs".index(card.suit)]) for card in cards)
            for suits in permutations("cdhs")
        }
        assert len(relabelled) == board_class.boards
        assert tuple(sorted(card.rank for card in cards)) == board_class.ranks


def scaled(totals: MainBetTotals, factor: int) -> MainBetTotals:
    return MainBetTotals(
        totals.cases * factor,
        totals.ante_wins * factor,
        totals.ante_losses * factor,
        totals.losses * factor,
        {hand: count * factor for hand, count in totals.wins_by_class.items()},
        totals.play_units_won * factor,
        totals.play_units_lost * factor,
        totals.folds * factor,
        totals.play_units * factor,
    )


@pytest.mark.parametrize("ranks", [(2, 5, 9, 11, 13), (4, 4, 7, 10, 14), (3, 6, 8, 12, 12)])
def test_the_boards_of_one_rank_multiset_count_together_as_one_by_one(ranks: tuple[int, ...]) -> None:
    """Boards sharing ranks and flush-suit ranks are counted together (suited hands corrected per board): the result
    is the sum of the boards counted one by one."""
    classes = [board_class for board_class in every_board_class() if board_class.ranks == ranks]
    assert len(classes) > 10
    one_by_one = scaled(board_totals(classes[0].cards()), classes[0].boards)
    for board_class in classes[1:]:
        one_by_one = one_by_one + scaled(board_totals(board_class.cards()), board_class.boards)
    assert totals_of_board_classes(classes) == one_by_one


@pytest.mark.slow
@pytest.mark.timeout(900)  # about 75 s of CPU on two processes; a loaded machine stretches it several times over
def test_uth_21_counting_every_case_gives_the_recorded_totals() -> None:
    """The whole enumeration (about 40 s of CPU, on two processes here): every one of the 27,813,810,024,000 cases."""
    totals = basic_strategy_totals(workers=2)
    assert totals.cases == CASES
    assert totals == RECORDED_BASIC_STRATEGY_TOTALS
