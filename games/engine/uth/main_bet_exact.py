"""The exact return of the Ante, Blind and Play bets under the basic strategy (UTH-21), by complete enumeration.

Every deal is counted: the five community cards, each of the C(5, 3) = 10 ways they split into flop and turn/river,
the player's two cards and the dealer's two cards — C(52, 5) × 10 × C(47, 2) × C(45, 2) = 27,813,810,024,000 equally
likely cases (:data:`CASES`). Each is played with the basic strategy of games.engine.uth.strategy and settled by the
outcome table of games.engine.uth.settlement. The result is a set of integer counts (:class:`MainBetTotals`), so the
return is an exact fraction: no sampling error, no confidence interval.

How that fits in about half a minute of CPU in pure Python (:func:`basic_strategy_totals` can use several processes):

1. **Boards up to suit symmetry.** A board is four rank sets, one per suit; relabelling the suits changes no
   outcome, so only the 134,459 multisets of four rank sets are visited (:func:`board_classes`), each weighted by how
   many boards it stands for (4 to 24).
2. **Card types instead of cards.** Only a suit with three or more board cards — the *flush suit* — can make a flush
   (any other suit has at most two board cards plus two hole cards). So for strength an unseen card is just its rank
   and whether it is of the flush suit: at most 26 types, and the seven-card strength of a two-card holding depends on
   its two types only. For each type, the strengths of the holdings that contain one given card of it are listed and
   sorted; the dealer's wins, ties and losses against a player holding are then the counts over all holdings minus
   those sharing one of the player's two cards (inclusion–exclusion), read off by bisection.
3. **Board first.** All 1,081 player holdings and 990 dealer holdings of a board are settled together from those
   tables. Boards with the same ranks and the same flush-suit ranks (a *key*; 42,783 of them) differ only in which
   other suits hold the other board cards; that matters to suited player hands alone (whether they exist, and four to a
   flush on the flop), so they are first counted as offsuit and then corrected per board.

The decisions are those of games.engine.uth.strategy. The pre-flop table is read from :func:`raises_preflop`; the
rank part of the flop rule (hidden pair, two pair or better made with the player's cards) from :func:`raises_on_flop`,
called on cards whose suits cannot make a flush; the flush part of the flop rule (four to a flush with a ten or better
of the suit, a flush on the flop) and the river rule (a pair or better above the board's own category, else fewer than
:data:`DEALER_OUTS_LIMIT` dealer outs) are counted by card type here, so a change to those clauses of the strategy must
be made here too: tests/uth/test_main_bet_exact.py settles whole boards (flush draws and made flushes among them) by
brute force with the strategy and settlement functions themselves and requires the same counts.

Standard library only.
"""

from __future__ import annotations

import multiprocessing
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations, combinations_with_replacement, product, repeat
from math import comb, factorial
from operator import mul
from types import MappingProxyType
from typing import Final

from games.engine._evaluation_tables import FLUSH_BY_RANK_MASK, NON_FLUSH_BY_RANK_KEY
from games.engine.cards import Card
from games.engine.evaluation import HandCategory
from games.engine.uth.paytables import ANTE_ODDS, BLIND_PAYTABLE, PLAY_ODDS, HandClass, Odds
from games.engine.uth.strategy import DEALER_OUTS_LIMIT, raises_on_flop, raises_preflop

RANKS: Final[tuple[int, ...]] = tuple(range(2, 15))
BOARDS: Final[int] = comb(52, 5)
FLOP_SPLITS: Final[int] = comb(5, 3)
PLAYER_HOLDINGS: Final[int] = comb(47, 2)
DEALER_HOLDINGS: Final[int] = comb(45, 2)
CASES_PER_BOARD: Final[int] = FLOP_SPLITS * PLAYER_HOLDINGS * DEALER_HOLDINGS
CASES: Final[int] = BOARDS * CASES_PER_BOARD
"""Every equally likely case: board, its split into flop and turn/river, player cards, dealer cards."""

_CATEGORY_SHIFT: Final[int] = 20
_QUALIFYING: Final[int] = int(HandCategory.PAIR) << _CATEGORY_SHIFT
"""The weakest strength that qualifies the dealer (a pair, UTH-14): every smaller strength is a high card."""
_TEN: Final[int] = 10
_ACE: Final[int] = 14
_RANK_KEY: Final[dict[int, int]] = {rank: Card(rank, "c").rank_key for rank in RANKS}
_RANK_BIT: Final[dict[int, int]] = {rank: 1 << (rank - 2) for rank in RANKS}
_FLOPS: Final[tuple[tuple[int, int, int], ...]] = tuple(combinations(range(5), 3))
"""The ten ways to pick the flop among five board positions; flop ``i`` is bit ``1 << i`` of a flop mask."""
_POPCOUNT: Final[tuple[int, ...]] = tuple(bin(mask).count("1") for mask in range(1 << len(_FLOPS)))

# Layout of the integer accumulators behind :class:`MainBetTotals` (counts in cases).
_ANTE_WINS, _ANTE_LOSSES, _LOSSES, _PLAY_UNITS_WON, _PLAY_UNITS_LOST, _FOLDS, _PLAY_UNITS = range(7)
_WINS_BY_CLASS: Final[int] = 7
"""``_WINS_BY_CLASS + hand class`` (1..10) holds the wins of that player hand class."""
_ACCUMULATOR_SIZE: Final[int] = _WINS_BY_CLASS + len(HandClass) + 1


@dataclass(frozen=True, slots=True)
class MainBetTotals:
    """Counts over ``cases`` equally likely cases (all of :data:`CASES` for the whole game), per unit of Ante.

    * ``ante_wins`` — the player played, won, and the dealer qualified (the ANTE wins);
    * ``ante_losses`` — the player played, lost, and the dealer qualified (the ANTE loses);
    * ``losses`` — the player played and lost (BLIND and PLAY lose);
    * ``wins_by_class`` — the player played and won, by the player's hand class (the BLIND pays by its paytable);
    * ``play_units_won`` / ``play_units_lost`` — Σ PLAY multiple (4, 2 or 1) over the wins / losses;
    * ``folds`` — the player folded (ANTE and BLIND lose);
    * ``play_units`` — Σ PLAY multiple over every case (0 after a fold).

    Ties push every bet and are in none of the counts. The strategy's decisions do not depend on the paytables, so
    the return of any Blind paytable and Ante / Play odds follows from the same counts (:meth:`return_per_ante`).
    """

    cases: int
    ante_wins: int
    ante_losses: int
    losses: int
    wins_by_class: Mapping[HandClass, int]
    play_units_won: int
    play_units_lost: int
    folds: int
    play_units: int

    def net_per_ante(
        self,
        blind_paytable: Mapping[HandClass, Odds] = BLIND_PAYTABLE,
        ante_odds: Odds = ANTE_ODDS,
        play_odds: Odds = PLAY_ODDS,
    ) -> Fraction:
        """The player's average net result of the Ante, Blind and Play bets per unit of Ante (exact)."""
        blind_wins = sum(
            (_ratio(odds) * self.wins_by_class.get(hand, 0) for hand, odds in blind_paytable.items()), Fraction(0)
        )
        net = (
            _ratio(ante_odds) * self.ante_wins
            - self.ante_losses
            + blind_wins
            - self.losses
            + _ratio(play_odds) * self.play_units_won
            - self.play_units_lost
            - 2 * self.folds
        )
        return net / self.cases

    def return_per_ante(
        self,
        blind_paytable: Mapping[HandClass, Odds] = BLIND_PAYTABLE,
        ante_odds: Odds = ANTE_ODDS,
        play_odds: Odds = PLAY_ODDS,
    ) -> Fraction:
        """Return per initial main bet (the Ante): 1 + average net / Ante, as the published 97.82 % counts it."""
        return 1 + self.net_per_ante(blind_paytable, ante_odds, play_odds)

    def average_wager(self) -> Fraction:
        """The average total main bet per unit of Ante: Ante + Blind + the average PLAY bet."""
        return 2 + Fraction(self.play_units, self.cases)

    def return_per_total_bet(
        self,
        blind_paytable: Mapping[HandClass, Odds] = BLIND_PAYTABLE,
        ante_odds: Odds = ANTE_ODDS,
        play_odds: Odds = PLAY_ODDS,
    ) -> Fraction:
        """Return per total main bet (Ante + Blind + Play), as the published 99.47 % counts it."""
        return 1 + self.net_per_ante(blind_paytable, ante_odds, play_odds) / self.average_wager()

    def __add__(self, other: MainBetTotals) -> MainBetTotals:
        return MainBetTotals(
            self.cases + other.cases,
            self.ante_wins + other.ante_wins,
            self.ante_losses + other.ante_losses,
            self.losses + other.losses,
            {hand: self.wins_by_class.get(hand, 0) + other.wins_by_class.get(hand, 0) for hand in HandClass},
            self.play_units_won + other.play_units_won,
            self.play_units_lost + other.play_units_lost,
            self.folds + other.folds,
            self.play_units + other.play_units,
        )

    @classmethod
    def _from_accumulator(cls, cases: int, accumulator: Sequence[int]) -> MainBetTotals:
        return cls(
            cases,
            accumulator[_ANTE_WINS],
            accumulator[_ANTE_LOSSES],
            accumulator[_LOSSES],
            {hand: accumulator[_WINS_BY_CLASS + int(hand)] for hand in HandClass},
            accumulator[_PLAY_UNITS_WON],
            accumulator[_PLAY_UNITS_LOST],
            accumulator[_FOLDS],
            accumulator[_PLAY_UNITS],
        )


def _ratio(odds: Odds) -> Fraction:
    return Fraction(odds.numerator, odds.denominator)


# ---------------------------------------------------------------------------------------------------------------------
# Boards up to suit symmetry


@dataclass(frozen=True, slots=True)
class BoardClass:
    """The boards that differ only by a relabelling of suits, and how many there are (``boards``).

    ``ranks`` are the board's ranks, sorted; ``flush_ranks`` those of the suit with three or more cards (empty when
    there is none); ``other_suits`` the rank sets of the remaining suits (three with a flush suit, four without; empty
    sets included).
    """

    ranks: tuple[int, ...]
    flush_ranks: tuple[int, ...]
    other_suits: tuple[tuple[int, ...], ...]
    boards: int

    def cards(self) -> tuple[Card, ...]:
        """One board of the class (the flush suit is spades, the other rank sets take clubs, diamonds, hearts...)."""
        if self.flush_ranks:
            suits, rank_sets = "scdh", (self.flush_ranks, *self.other_suits)
        else:
            suits, rank_sets = "cdhs", self.other_suits
        return tuple(Card(rank, suit) for suit, rank_set in zip(suits, rank_sets, strict=True) for rank in rank_set)


_SUIT_SIZE_PATTERNS: Final[tuple[tuple[int, ...], ...]] = (
    (5, 0, 0, 0),
    (4, 1, 0, 0),
    (3, 2, 0, 0),
    (3, 1, 1, 0),
    (2, 2, 1, 0),
    (2, 1, 1, 1),
)


def board_classes() -> Iterator[BoardClass]:
    """Every five-card board up to suit relabelling: 134,459 classes whose ``boards`` add up to C(52, 5).

    For each pattern of suit sizes, rank sets of equal size are chosen as a multiset (so each class comes once); a
    class stands for 4! relabellings divided by the relabellings that swap identical rank sets (empty ones included).
    """
    for pattern in _SUIT_SIZE_PATTERNS:
        sizes = sorted(set(pattern), reverse=True)
        choices_per_size = [
            list(combinations_with_replacement(list(combinations(RANKS, size)), pattern.count(size))) for size in sizes
        ]
        for choice in product(*choices_per_size):
            rank_sets = [rank_set for same_size in choice for rank_set in same_size]
            relabellings = factorial(4)
            for same_size in choice:
                for rank_set in set(same_size):
                    relabellings //= factorial(same_size.count(rank_set))
            ranks = tuple(sorted(rank for rank_set in rank_sets for rank in rank_set))
            if pattern[0] >= 3:
                yield BoardClass(ranks, rank_sets[0], tuple(rank_sets[1:]), relabellings)
            else:
                yield BoardClass(ranks, (), tuple(rank_sets), relabellings)


# ---------------------------------------------------------------------------------------------------------------------
# Decision tables read from games.engine.uth.strategy


def _preflop_table() -> dict[tuple[int, int, bool], bool]:
    """PLAY 4x?, by (low rank, high rank, suited): :func:`raises_preflop` on each starting hand."""
    table = {}
    for low, high in combinations_with_replacement(RANKS, 2):
        table[(low, high, False)] = raises_preflop((Card(low, "c"), Card(high, "d")))
        if low != high:
            table[(low, high, True)] = raises_preflop((Card(low, "c"), Card(high, "c")))
    return table


def _spread_suits(ranks: Sequence[int], taken: dict[int, set[str]], counts: dict[str, int]) -> list[Card] | None:
    """Cards of these ranks, none already ``taken``, with no suit used more than twice in all (``counts``)."""
    if not ranks:
        return []
    rank = ranks[0]
    for suit in "hscd":
        if suit not in taken[rank] and counts[suit] < 2:
            taken[rank].add(suit)
            counts[suit] += 1
            rest = _spread_suits(ranks[1:], taken, counts)
            if rest is not None:
                return [Card(rank, suit), *rest]
            taken[rank].discard(suit)
            counts[suit] -= 1
    return None


def _flop_rank_rule() -> dict[tuple[int, int, int], tuple[tuple[int, int], ...]]:
    """For each flop (its ranks, sorted), the hole rank pairs (low, high) that PLAY 2x on it: :func:`raises_on_flop`
    on cards with no suit more than twice among the five (no flush, no four to a flush), i.e. the rank part of its
    rule (a hidden pair, two pair or better made with the hole cards)."""
    raisers: dict[tuple[int, int, int], list[tuple[int, int]]] = defaultdict(list)
    for low, high in combinations_with_replacement(RANKS, 2):
        hole = (Card(low, "c"), Card(high, "d"))
        for flop_ranks in combinations_with_replacement(RANKS, 3):
            everything = (low, high, *flop_ranks)
            if any(everything.count(rank) > 4 for rank in flop_ranks):
                continue
            taken: dict[int, set[str]] = defaultdict(set)
            taken[low].add("c")
            taken[high].add("d")
            flop = _spread_suits(flop_ranks, taken, {"c": 1, "d": 1, "h": 0, "s": 0})
            if flop is None:
                raise AssertionError(f"no flush-free suits for {everything}")
            if raises_on_flop(hole, flop):
                raisers[flop_ranks].append((low, high))
    return {flop_ranks: tuple(pairs) for flop_ranks, pairs in raisers.items()}


@cache
def _decision_tables() -> tuple[
    dict[tuple[int, int, bool], bool], dict[tuple[int, int, int], tuple[tuple[int, int], ...]]
]:
    """(pre-flop table, flop rank rule), built once per process (the flop rule takes a few tenths of a second)."""
    return _preflop_table(), _flop_rank_rule()


def _suit_sensitive_pairs() -> tuple[tuple[int, int], ...]:
    """Rank pairs whose suited holding may be played differently from the offsuit one: the pre-flop table tells them
    apart, or the suited hand does not raise pre-flop and holds a ten or better (four to a flush on the flop)."""
    preflop = _preflop_table()
    return tuple(
        (low, high)
        for low, high in combinations(RANKS, 2)
        if preflop[(low, high, True)] != preflop[(low, high, False)]
        or (not preflop[(low, high, True)] and high >= _TEN)
    )


_SUIT_SENSITIVE_PAIRS: Final[tuple[tuple[int, int], ...]] = _suit_sensitive_pairs()


def _flops_meeting(positions: Iterable[int], cards_in_flop: int) -> int:
    """Mask of the flops holding exactly ``cards_in_flop`` of the board ``positions``."""
    wanted = set(positions)
    mask = 0
    for index, flop in enumerate(_FLOPS):
        if len(wanted.intersection(flop)) == cards_in_flop:
            mask |= 1 << index
    return mask


def _blind_class(strength: int) -> int:
    """The :class:`HandClass` value of a strength (the Royal Flush told apart from other straight flushes)."""
    category = strength >> _CATEGORY_SHIFT
    if category == HandCategory.STRAIGHT_FLUSH and (strength >> 16) & 15 == _ACE:
        return int(HandClass.ROYAL_FLUSH)
    return category


# ---------------------------------------------------------------------------------------------------------------------
# Counting one key: the board's ranks and its flush-suit ranks


class _RankTables:
    """What the boards of one rank multiset share, whatever their suits: seven-card strengths of two-card holdings
    when no flush is possible, the same for six cards (board + one card) and for the board alone, each rank's board
    position, the flop rule's rank masks, and per rank the sorted strengths of the holdings containing one given card
    of that rank when no flush is possible. Holdings of two cards outside the flush suit are also kept as columns
    (``pair_*``), one entry per possible rank pair."""

    def __init__(self, ranks: tuple[int, ...]) -> None:
        preflop, flop_rule = _decision_tables()
        board_key = sum(_RANK_KEY[rank] for rank in ranks)
        non_flush = NON_FLUSH_BY_RANK_KEY
        unseen = {rank: 4 - ranks.count(rank) for rank in RANKS}
        self.unseen = unseen
        self.pair_strength: dict[tuple[int, int], int] = {}
        for low, high in combinations_with_replacement(RANKS, 2):
            if (unseen[low] >= 2) if low == high else (unseen[low] and unseen[high]):
                strength = non_flush[board_key + _RANK_KEY[low] + _RANK_KEY[high]]
                self.pair_strength[(low, high)] = self.pair_strength[(high, low)] = strength
        self.groups: dict[int, list[int]] = {}
        for rank in RANKS:
            if unseen[rank]:
                group: list[int] = []
                for partner in RANKS:
                    available = unseen[partner] - (partner == rank)
                    if available:
                        group += [self.pair_strength[(rank, partner)]] * available
                group.sort()
                self.groups[rank] = group
        self.six_card = {rank: non_flush[board_key + _RANK_KEY[rank]] for rank in RANKS if unseen[rank]}
        self.board_strength = non_flush[board_key]
        self.first_position = {rank: ranks.index(rank) for rank in set(ranks)}
        flop_ranks = [(ranks[first], ranks[second], ranks[third]) for first, second, third in _FLOPS]
        self.rank_masks: dict[tuple[int, int], int] = dict.fromkeys(combinations_with_replacement(RANKS, 2), 0)
        for index, three in enumerate(flop_ranks):
            for pair in flop_rule.get(three, ()):
                self.rank_masks[pair] |= 1 << index
        pairs = [pair for pair in combinations_with_replacement(RANKS, 2) if pair in self.pair_strength]
        self.pair_index = {pair: index for index, pair in enumerate(pairs)}
        self.pair_index.update({(high, low): index for (low, high), index in self.pair_index.items()})
        self.pair_lows = [2 * low for low, _ in pairs]
        self.pair_highs = [2 * high for _, high in pairs]
        self.pair_values = [self.pair_strength[pair] for pair in pairs]
        self.pair_raises = [preflop[(low, high, False)] for low, high in pairs]
        self.pair_masks = [self.rank_masks[pair] for pair in pairs]


_LAST_RANK_TABLES: dict[tuple[int, ...], _RankTables] = {}


def _rank_tables(ranks: tuple[int, ...]) -> _RankTables:
    """The tables of these ranks; only the last ones are kept, as keys are counted in order of their ranks."""
    tables = _LAST_RANK_TABLES.get(ranks)
    if tables is None:
        _LAST_RANK_TABLES.clear()
        tables = _LAST_RANK_TABLES[ranks] = _RankTables(ranks)
    return tables


def _key_totals(
    ranks: tuple[int, ...], flush_ranks: tuple[int, ...], arrangements: Iterable[tuple[Sequence[tuple[int, ...]], int]]
) -> list[int]:
    """The totals (accumulator layout) of the boards of one key: these sorted board ranks, with ``flush_ranks`` in the
    suit holding three or more of them (empty: no such suit). ``arrangements`` lists the rank sets of the other suits
    and how many boards have them.

    Player holdings whose two cards are outside the flush suit are first all counted as offsuit (their count, strength
    and dealer results depend on the ranks only); the suited ones are then corrected per arrangement, as they exist
    only where their suit leaves both ranks unseen and may be played differently (pre-flop table, four to a flush).
    """
    preflop, _ = _decision_tables()
    rank_tables = _rank_tables(ranks)
    pair_strength = rank_tables.pair_strength
    flush_count = len(flush_ranks)
    flush_mask = sum(_RANK_BIT[rank] for rank in flush_ranks)
    flush_table = FLUSH_BY_RANK_MASK
    # How many flush-suit cards a holding needs for a flush (3: there is no flush suit, so never).
    flushing = 5 - flush_count if flush_ranks else 3

    # Card types: rank * 2 + 1 for a card of the flush suit, rank * 2 for any other; with how many are unseen.
    multiplicity: dict[int, int] = {}
    for rank in RANKS:
        flush_card = 1 if flush_ranks and rank not in flush_ranks else 0
        others = rank_tables.unseen[rank] - flush_card
        if others:
            multiplicity[2 * rank] = others
        if flush_card:
            multiplicity[2 * rank + 1] = 1

    def strength_of(first: int, second: int) -> int:
        if (first & 1) + (second & 1) >= flushing:
            mask = flush_mask
            if first & 1:
                mask |= _RANK_BIT[first >> 1]
            if second & 1:
                mask |= _RANK_BIT[second >> 1]
            return flush_table[mask]
        return pair_strength[(first >> 1, second >> 1)]

    # For each card type, the strengths of the holdings containing one given card of it (one entry per holding);
    # for a card outside the flush suit, when no holding with it can make a flush, the ranks' table has them.
    flush_available = [rank for rank in RANKS if 2 * rank + 1 in multiplicity]
    groups: dict[int, list[int]] = {}
    everything: list[int] = []
    for card_type, count in multiplicity.items():
        if flushing >= 2 and not card_type & 1:
            group = rank_tables.groups[card_type >> 1]
        elif flushing == 2:
            # A flush-suit card: as any card of its rank, except that with another flush-suit card it makes a flush.
            rank = card_type >> 1
            group = list(rank_tables.groups[rank])
            for partner_rank in flush_available:
                if partner_rank != rank:
                    group.remove(pair_strength[(rank, partner_rank)])
                    group.append(flush_table[flush_mask | _RANK_BIT[rank] | _RANK_BIT[partner_rank]])
            group.sort()
        else:
            group = []
            for partner, partner_count in multiplicity.items():
                available = partner_count - (partner == card_type)
                if available:
                    group += [strength_of(card_type, partner)] * available
            group.sort()
        groups[card_type] = group
        everything += group * count
    everything.sort()  # every holding twice, once from each of its cards

    board_strength = flush_table[flush_mask] if flush_count == 5 else rank_tables.board_strength
    board_category = board_strength >> _CATEGORY_SHIFT
    six_card: dict[int, int] = {}
    for card_type in multiplicity:
        if (card_type & 1) >= flushing:
            six_card[card_type] = flush_table[flush_mask | (_RANK_BIT[card_type >> 1] if card_type & 1 else 0)]
        else:
            six_card[card_type] = rank_tables.six_card[card_type >> 1]
    six_sorted = sorted(six_card[card_type] for card_type, count in multiplicity.items() for _ in range(count))
    unseen = len(six_sorted)
    not_qualifying = bisect_left(everything, _QUALIFYING) // 2
    group_not_qualifying = {card_type: bisect_left(group, _QUALIFYING) for card_type, group in groups.items()}

    flush_positions = [rank_tables.first_position[rank] for rank in flush_ranks]
    three_in_flop = _flops_meeting(flush_positions, 3) if flush_count >= 3 else 0
    two_in_flop = _flops_meeting(flush_positions, 2) if flush_count >= 3 else 0

    # Every kind of player holding, as columns: first type, second type, holdings, strength, pre-flop raise, flop
    # mask. First the rank pairs with both cards outside the flush suit (counted offsuit; none may be left of some).
    firsts = list(rank_tables.pair_lows)
    seconds = list(rank_tables.pair_highs)
    left = [0] * (2 * _ACE + 2)  # multiplicity by card type, 0 for types with no card left
    for card_type, count in multiplicity.items():
        left[card_type] = count
    holdings_of = [
        left[low] * (left[low] - 1) // 2 if low == high else left[low] * left[high]
        for low, high in zip(firsts, seconds, strict=True)
    ]
    values = list(rank_tables.pair_values) if flushing else [flush_table[flush_mask]] * len(firsts)
    preflop_raises = list(rank_tables.pair_raises)
    flop_masks = list(rank_tables.pair_masks)
    # Then the holdings with one flush-suit card (the other outside it), then those with two.
    pair_index = rank_tables.pair_index
    pair_raises = rank_tables.pair_raises
    pair_masks = rank_tables.pair_masks
    other_types = [card_type for card_type in multiplicity if not card_type & 1]
    other_counts = [multiplicity[card_type] for card_type in other_types]
    other_ranks = [card_type >> 1 for card_type in other_types]
    for flush_rank in flush_available:
        indexes = [pair_index[(flush_rank, rank)] for rank in other_ranks]
        # Four to a flush when the three flop cards are of the flush suit, with a ten or better of it.
        extra = three_in_flop if flush_rank >= _TEN else 0
        firsts += [2 * flush_rank + 1] * len(other_types)
        seconds += other_types
        holdings_of += other_counts
        if flushing >= 2:
            values += [pair_strength[(flush_rank, rank)] for rank in other_ranks]
        else:
            values += [flush_table[flush_mask | _RANK_BIT[flush_rank]]] * len(other_types)
        preflop_raises += [pair_raises[index] for index in indexes]
        flop_masks += [pair_masks[index] | extra for index in indexes]
    for low, high in combinations(flush_available, 2):
        # Three flush-suit cards on the flop make a flush (PLAY 2x); two make four to a flush.
        extra = three_in_flop | (two_in_flop if high >= _TEN else 0)
        firsts.append(2 * low + 1)
        seconds.append(2 * high + 1)
        holdings_of.append(1)
        values.append(flush_table[flush_mask | _RANK_BIT[low] | _RANK_BIT[high]])
        preflop_raises.append(preflop[(low, high, True)])
        flop_masks.append(pair_masks[pair_index[(low, high)]] | extra)

    # Settle every kind against the 990 dealer holdings left, column by column (the loops run in C where they can).
    # (Every rank with a card left has one outside the flush suit: three of a rank outside it and three in it would
    # be six board cards.)
    first_groups = [groups[first] for first in firsts]
    second_groups = [groups[second] for second in seconds]
    kinds = len(firsts)
    wins = [
        (all_below >> 1) - first_below - second_below
        for all_below, first_below, second_below in zip(
            map(bisect_left, repeat(everything, kinds), values),
            map(bisect_left, first_groups, values),
            map(bisect_left, second_groups, values),
            strict=True,
        )
    ]
    at_most = [
        (all_up_to >> 1) - first_up_to - second_up_to + 1
        for all_up_to, first_up_to, second_up_to in zip(
            map(bisect_right, repeat(everything, kinds), values),
            map(bisect_right, first_groups, values),
            map(bisect_right, second_groups, values),
            strict=True,
        )
    ]
    losses = [DEALER_HOLDINGS - up_to for up_to in at_most]
    dealer_not_qualifying = [
        not_qualifying - group_not_qualifying[first] - group_not_qualifying[second]
        for first, second in zip(firsts, seconds, strict=True)
    ]
    ante_wins = [
        won - not_qualified if value >= _QUALIFYING else 0
        for value, won, not_qualified in zip(values, wins, dealer_not_qualifying, strict=True)
    ]
    # A high-card player: the non-qualifying dealer hands above it do not win the Ante (the player's own holding was
    # taken twice from the non-qualifying ones above, hence the + 1).
    ante_losses = [
        lost if value >= _QUALIFYING else lost - (not_qualified + 1 - up_to)
        for value, lost, not_qualified, up_to in zip(values, losses, dealer_not_qualifying, at_most, strict=True)
    ]
    # The river rule: a hand of a higher category than the board with a pair or better, or few dealer outs.
    plays_river = [
        (value >> _CATEGORY_SHIFT >= HandCategory.PAIR and value >> _CATEGORY_SHIFT > board_category)
        or unseen - bisect_right(six_sorted, value) - (six_card[first] > value) - (six_card[second] > value)
        < DEALER_OUTS_LIMIT
        for value, first, second in zip(values, firsts, seconds, strict=True)
    ]
    plays = [raises or river for raises, river in zip(preflop_raises, plays_river, strict=True)]
    on_flop = [_POPCOUNT[mask] for mask in flop_masks]
    # Over the ten flop splits: PLAY 4x on all after a pre-flop raise; otherwise PLAY 2x on the flops the flop rule
    # takes, and on the others PLAY 1x or fold by the river rule.
    played = [
        FLOP_SPLITS * holdings if play_later else flop_count * holdings
        for play_later, flop_count, holdings in zip(plays, on_flop, holdings_of, strict=True)
    ]
    units = [
        (4 * FLOP_SPLITS if raises else (FLOP_SPLITS + flop_count if play_later else 2 * flop_count)) * holdings
        for raises, play_later, flop_count, holdings in zip(preflop_raises, plays, on_flop, holdings_of, strict=True)
    ]
    totals = [0] * _ACCUMULATOR_SIZE
    totals[_ANTE_WINS] = sum(map(mul, played, ante_wins))
    totals[_ANTE_LOSSES] = sum(map(mul, played, ante_losses))
    totals[_LOSSES] = sum(map(mul, played, losses))
    totals[_PLAY_UNITS_WON] = sum(map(mul, units, wins))
    totals[_PLAY_UNITS_LOST] = sum(map(mul, units, losses))
    totals[_FOLDS] = DEALER_HOLDINGS * (FLOP_SPLITS * sum(holdings_of) - sum(played))
    totals[_PLAY_UNITS] = DEALER_HOLDINGS * sum(units)
    for value, won in zip(values, map(mul, played, wins), strict=True):
        category = value >> _CATEGORY_SHIFT
        if category == HandCategory.STRAIGHT_FLUSH and (value >> 16) & 15 == _ACE:
            category = HandClass.ROYAL_FLUSH
        totals[_WINS_BY_CLASS + category] += won

    # Suited holdings outside the flush suit: what changes against the same ranks offsuit, per suit of the board.
    sensitive = [
        (low, high, pair_index[(low, high)])
        for low, high in _SUIT_SENSITIVE_PAIRS
        if (low, high) in pair_index and holdings_of[pair_index[(low, high)]]
    ]
    corrections: dict[tuple[int, ...], list[int]] = {}

    def suited_correction(suit_ranks: tuple[int, ...]) -> list[int]:
        found = corrections.get(suit_ranks)
        if found is not None:
            return found
        change = [0] * _ACCUMULATOR_SIZE
        if len(suit_ranks) == 2:
            four_to_flush = _flops_meeting([rank_tables.first_position[rank] for rank in suit_ranks], 2)
        else:
            four_to_flush = 0
        for low, high, index in sensitive:
            if low in suit_ranks or high in suit_ranks:
                continue  # no such suited holding: a card of it is on the board
            if preflop[(low, high, True)]:
                suited_played, suited_units = FLOP_SPLITS, 4 * FLOP_SPLITS
            else:
                flop_count = _POPCOUNT[flop_masks[index] | (four_to_flush if high >= _TEN else 0)]
                if plays_river[index]:
                    suited_played, suited_units = FLOP_SPLITS, FLOP_SPLITS + flop_count
                else:
                    suited_played, suited_units = flop_count, 2 * flop_count
            holdings = holdings_of[index]
            more_played = suited_played - played[index] // holdings
            more_units = suited_units - units[index] // holdings
            if more_played or more_units:
                change[_ANTE_WINS] += more_played * ante_wins[index]
                change[_ANTE_LOSSES] += more_played * ante_losses[index]
                change[_LOSSES] += more_played * losses[index]
                change[_WINS_BY_CLASS + _blind_class(values[index])] += more_played * wins[index]
                change[_PLAY_UNITS_WON] += more_units * wins[index]
                change[_PLAY_UNITS_LOST] += more_units * losses[index]
                change[_FOLDS] -= more_played * DEALER_HOLDINGS
                change[_PLAY_UNITS] += more_units * DEALER_HOLDINGS
        corrections[suit_ranks] = change
        return change

    accumulator = [0] * _ACCUMULATOR_SIZE
    boards = 0
    for other_suits, count in arrangements:
        boards += count
        for suit_ranks in other_suits:
            for index, amount in enumerate(suited_correction(suit_ranks)):
                if amount:
                    accumulator[index] += count * amount
    return [boards * amount + correction for amount, correction in zip(totals, accumulator, strict=True)]


# ---------------------------------------------------------------------------------------------------------------------
# Public entry points


RECORDED_BASIC_STRATEGY_TOTALS: Final[MainBetTotals] = MainBetTotals(
    cases=27_813_810_024_000,
    ante_wins=9_200_817_696_108,
    ante_losses=8_693_776_158_324,
    losses=8_866_090_382_604,
    wins_by_class=MappingProxyType(
        {
            HandClass.HIGH_CARD: 588_554_075_400,
            HandClass.PAIR: 4_805_146_429_488,
            HandClass.TWO_PAIR: 4_189_225_529_592,
            HandClass.THREE_OF_A_KIND: 969_260_266_708,
            HandClass.STRAIGHT: 1_036_850_760_720,
            HandClass.FLUSH: 715_231_952_880,
            HandClass.FULL_HOUSE: 628_105_004_640,
            HandClass.FOUR_OF_A_KIND: 42_368_375_040,
            HandClass.STRAIGHT_FLUSH: 7_342_371_440,
            HandClass.ROYAL_FLUSH: 856_152_000,
        }
    ),
    play_units_won=35_356_218_008_880,
    play_units_lost=22_827_731_481_364,
    folds=5_022_343_893_600,
    play_units=60_170_176_333_080,
)
"""What :func:`basic_strategy_totals` counts with the current strategy and settlement (a slow test recounts it):
97.6186 % per Ante, 99.4280 % per total main bet. Kept so the figures can be shown without a minute of counting."""


def board_totals(board: Sequence[Card]) -> MainBetTotals:
    """The totals of one board (five distinct cards, in any order) over its ten flop splits, every player holding and
    every dealer holding: :data:`CASES_PER_BOARD` cases."""
    by_suit: dict[str, list[int]] = {suit: [] for suit in "cdhs"}
    for card in board:
        by_suit[card.suit].append(card.rank)
    rank_sets = [tuple(sorted(ranks)) for ranks in by_suit.values()]
    flush_suit = next((index for index, rank_set in enumerate(rank_sets) if len(rank_set) >= 3), None)
    flush_ranks = rank_sets[flush_suit] if flush_suit is not None else ()
    others = [rank_set for index, rank_set in enumerate(rank_sets) if index != flush_suit]
    accumulator = _key_totals(tuple(sorted(card.rank for card in board)), flush_ranks, [(others, 1)])
    return MainBetTotals._from_accumulator(CASES_PER_BOARD, accumulator)


def totals_of_board_classes(classes: Iterable[BoardClass]) -> MainBetTotals:
    """The totals of all the boards of these classes (each class counts ``boards`` times)."""
    by_key: dict[tuple[tuple[int, ...], tuple[int, ...]], list[BoardClass]] = defaultdict(list)
    for board_class in classes:
        by_key[(board_class.ranks, board_class.flush_ranks)].append(board_class)
    accumulator = [0] * _ACCUMULATOR_SIZE
    boards = 0
    for (ranks, flush_ranks), same_key in sorted(by_key.items()):
        arrangements = [(board_class.other_suits, board_class.boards) for board_class in same_key]
        for index, amount in enumerate(_key_totals(ranks, flush_ranks, arrangements)):
            accumulator[index] += amount
        boards += sum(board_class.boards for board_class in same_key)
    return MainBetTotals._from_accumulator(boards * CASES_PER_BOARD, accumulator)


def basic_strategy_totals(workers: int = 1) -> MainBetTotals:
    """The exact totals of the main bets under the basic strategy over all :data:`CASES` cases (UTH-21).

    ``workers`` > 1 counts the boards in that many processes (same result). Takes about half a minute of CPU.
    """
    classes = sorted(board_classes(), key=lambda board_class: (board_class.ranks, board_class.flush_ranks))
    if workers <= 1:
        totals = totals_of_board_classes(classes)
    else:
        # Contiguous chunks keep the boards of one rank multiset together (their tables are shared).
        size = -(-len(classes) // (workers * 8))
        chunks = [classes[start : start + size] for start in range(0, len(classes), size)]
        # Spawned, not forked: a fork copies the caller's threads' locks in whatever state they are (a test process
        # runs the channel publisher's thread), and a worker that inherits a held lock never finishes. Each worker
        # builds its own decision tables (well under a second).
        spawn = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=spawn, initializer=_decision_tables) as pool:
            parts = list(pool.map(totals_of_board_classes, chunks))
        totals = parts[0]
        for part in parts[1:]:
            totals = totals + part
    if totals.cases != CASES:
        raise AssertionError("the board classes do not cover every board")
    return totals
