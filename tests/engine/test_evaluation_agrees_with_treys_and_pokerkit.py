"""Cross-checks (CARD-03..CARD-09): our ordering of hands, ties included, agrees with two independent evaluators.

treys ranks 5..7-card Hold'em hands (1 = royal flush, 7462 = worst high card); pokerkit ranks Hold'em and Omaha hands
(``entry.index``, bigger is better). "Agrees" means: two hands compare the same way (better, worse or tied) under both.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement

import pytest
from pokerkit import OmahaHoldemHand, StandardHighHand
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from games.engine.cards import FULL_DECK, SUITS, Card, format_cards
from games.engine.evaluation import holdem_strength, omaha_strength

TREYS = TreysEvaluator()
TREYS_CARD = {card: TreysCard.new(str(card)) for card in FULL_DECK}


def treys_score(cards: Sequence[Card]) -> int:
    """treys' rank turned into bigger-is-better."""
    return -int(TREYS.evaluate([TREYS_CARD[card] for card in cards[:2]], [TREYS_CARD[card] for card in cards[2:]]))


def assert_same_ordering(hands: Sequence[Sequence[Card]], ours: Sequence[int], theirs: Sequence[int]) -> None:
    """Ours and theirs must be related by a strictly increasing function (same order, same ties)."""
    by_ours: dict[int, int] = {}
    by_theirs: dict[int, int] = {}
    for hand, our_score, their_score in zip(hands, ours, theirs, strict=True):
        if by_ours.setdefault(our_score, their_score) != their_score:
            raise AssertionError(f"we tie hands that the peer separates, e.g. {format_cards(hand)}")
        if by_theirs.setdefault(their_score, our_score) != our_score:
            raise AssertionError(f"we separate hands that the peer ties, e.g. {format_cards(hand)}")
    pairs = sorted(by_ours.items())
    their_in_our_order = [their for _, their in pairs]
    assert their_in_our_order == sorted(their_in_our_order), "the peer orders some hands differently"


def test_card_06_every_one_of_the_7462_five_card_hand_classes_is_ranked_exactly_like_treys() -> None:
    hands: list[tuple[Card, ...]] = []
    for ranks in combinations_with_replacement(range(2, 15), 5):
        if ranks[0] == ranks[4]:
            continue
        # Suits by position, never all alike, so the hand is not a flush.
        hands.append(tuple(Card(rank, SUITS[position % 4]) for position, rank in enumerate(ranks)))
    for ranks in combinations(range(2, 15), 5):
        hands.append(tuple(Card(rank, "h") for rank in ranks))
    assert len(hands) == 7462
    ours = [holdem_strength(hand) for hand in hands]
    theirs = [treys_score(hand) for hand in hands]
    assert len(set(ours)) == 7462
    assert_same_ordering(hands, ours, theirs)


@pytest.mark.slow
@pytest.mark.parametrize("size", [6, 7])
def test_card_08_every_rank_multiset_of_six_or_seven_cards_without_a_flush_agrees_with_treys(size: int) -> None:
    """All 18,395 six-card and 49,205 seven-card rank multisets (every entry of the non-flush table)."""
    hands: list[tuple[Card, ...]] = []
    for ranks in combinations_with_replacement(range(2, 15), size):
        if any(ranks[start] == ranks[start + 4] for start in range(size - 4)):
            continue
        # Cycling suits over the sorted ranks gives each suit at most two cards and never repeats a card.
        hands.append(tuple(Card(rank, SUITS[position % 4]) for position, rank in enumerate(ranks)))
    assert len(hands) == {6: 18_395, 7: 49_205}[size]
    assert_same_ordering(hands, [holdem_strength(hand) for hand in hands], [treys_score(hand) for hand in hands])


@pytest.mark.slow
def test_card_08_every_flush_rank_pattern_of_five_six_or_seven_suited_cards_agrees_with_treys() -> None:
    """Every entry of the flush table, with the remaining cards off-suit, plus the non-flush hands they must beat."""
    rng = random.Random(5)
    hands: list[tuple[Card, ...]] = []
    for suited_count in (5, 6, 7):
        for ranks in combinations(range(2, 15), suited_count):
            suited = [Card(rank, "s") for rank in ranks]
            others = [card for card in FULL_DECK if card.suit != "s"]
            hands.append((*suited, *rng.sample(others, 7 - suited_count)))
    assert_same_ordering(hands, [holdem_strength(hand) for hand in hands], [treys_score(hand) for hand in hands])


def test_card_08_random_seven_card_hands_order_like_treys_ties_included() -> None:
    rng = random.Random(20240730)
    hands = [tuple(rng.sample(FULL_DECK, 7)) for _ in range(40_000)]
    assert_same_ordering(hands, [holdem_strength(hand) for hand in hands], [treys_score(hand) for hand in hands])


def test_card_07_showdowns_on_shared_boards_split_exactly_when_treys_says_tie() -> None:
    """Many players on one board tie often (board plays); every pairwise comparison must match."""
    rng = random.Random(77)
    for _ in range(300):
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        board = deck[:5]
        players = [deck[5 + 2 * seat : 7 + 2 * seat] for seat in range(9)]
        ours = [holdem_strength((*hole, *board)) for hole in players]
        theirs = [treys_score((*hole, *board)) for hole in players]
        for first, second in combinations(range(9), 2):
            assert (ours[first] > ours[second]) == (theirs[first] > theirs[second])
            assert (ours[first] == ours[second]) == (theirs[first] == theirs[second])


def test_card_08_random_holdem_hands_of_five_six_and_seven_cards_order_like_pokerkit() -> None:
    rng = random.Random(8)
    hands = [tuple(rng.sample(FULL_DECK, rng.choice((5, 6, 7)))) for _ in range(1_500)]
    theirs = [StandardHighHand.from_game("".join(map(str, hand))).entry.index for hand in hands]
    assert_same_ordering(hands, [holdem_strength(hand) for hand in hands], theirs)


def test_card_09_random_omaha_hands_order_like_pokerkit() -> None:
    rng = random.Random(9)
    hands: list[tuple[Card, ...]] = []
    theirs: list[int] = []
    ours: list[int] = []
    for _ in range(1_500):
        cards = rng.sample(FULL_DECK, 9)
        hole, board = cards[:4], cards[4:]
        hands.append(tuple(cards))
        ours.append(omaha_strength(hole, board))
        pokerkit_hand = OmahaHoldemHand.from_game("".join(map(str, hole)), "".join(map(str, board)))
        theirs.append(pokerkit_hand.entry.index)
    assert_same_ordering(hands, ours, theirs)


def test_card_09_omaha_hands_rich_in_flushes_and_pairs_order_like_pokerkit() -> None:
    """Cards from two suits and few ranks, so flush and full-house choices between combinations are common."""
    rng = random.Random(10)
    small_deck = [card for card in FULL_DECK if card.suit in "hs" and card.rank >= 7]
    hands: list[tuple[Card, ...]] = []
    theirs: list[int] = []
    ours: list[int] = []
    for _ in range(800):
        cards = rng.sample(small_deck, 9)
        hole, board = cards[:4], cards[4:]
        hands.append(tuple(cards))
        ours.append(omaha_strength(hole, board))
        pokerkit_hand = OmahaHoldemHand.from_game("".join(map(str, hole)), "".join(map(str, board)))
        theirs.append(pokerkit_hand.entry.index)
    assert_same_ordering(hands, ours, theirs)
