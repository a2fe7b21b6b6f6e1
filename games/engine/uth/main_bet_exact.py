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
   its two types only. For each type, how many holdings containing one given card of it have each strength is
   counted; the dealer's wins, ties and losses against a player holding are then the counts over all holdings minus
   those sharing one of the player's two cards (inclusion–exclusion). They are read from count tables keyed by
   strength (how many holdings are weaker, how many not stronger; :func:`_count_tables`), not by bisecting sorted
   strengths: the player's holding is itself among the holdings counted, so its strength is always a key, and a
   dictionary lookup costs a fraction of a bisection. The table of all holdings is counted from the player's holdings
   themselves (the dealer's come from the same unseen cards).
3. **Board first.** All 1,081 player holdings and 990 dealer holdings of a board are settled together from those
   tables. Boards with the same ranks and the same flush-suit ranks (a *key*; 42,783 of them) differ only in which
   other suits hold the other board cards; that matters to suited player hands alone (whether they exist, and four to a
   flush on the flop), so they are first counted as offsuit and then corrected once per rank pair, weighted by the
   boards whose other suits leave its suited holdings possible (inclusion–exclusion over the suits' rank sets).
4. **Ranks first.** What depends on the board's ranks alone is kept across the keys of one rank multiset
   (:class:`_RankTables`): the per-rank count tables, and the columns of the rank pairs (strength, pre-flop raise, flop
   rule, river rule) that serve every holding that makes no flush. A key only adjusts them for its flush-suit cards.

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
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import accumulate, combinations, combinations_with_replacement, product, repeat
from math import comb, factorial
from operator import mul, rshift, sub
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


_WINS_INDEX_BY_TOP_BITS: Final[tuple[int, ...]] = tuple(
    _WINS_BY_CLASS + _blind_class(top_bits << 16) for top_bits in range((HandCategory.STRAIGHT_FLUSH + 1) << 4)
)
"""The accumulator index of the wins of a strength's hand class, by ``strength >> 16`` (category and top rank): one
tuple lookup instead of a call of :func:`_blind_class` for each kind of holding."""


def _count_tables(holdings_by_strength: Mapping[int, int]) -> tuple[dict[int, int], dict[int, int]]:
    """For each strength of ``holdings_by_strength`` (how many holdings have it), how many holdings are weaker and how
    many are not stronger.

    A dictionary lookup is several times cheaper than a bisection of the sorted strengths, but answers only for the
    strengths listed: every strength looked up must be a key (with a count of 0 if need be).
    """
    strengths = sorted(holdings_by_strength)
    in_order = [holdings_by_strength[strength] for strength in strengths]
    up_to = list(accumulate(in_order))
    below = dict(zip(strengths, map(sub, up_to, in_order), strict=True))
    return below, dict(zip(strengths, up_to, strict=True))


def _holdings_below(holdings_by_strength: Mapping[int, int], strength: int) -> int:
    """How many holdings of ``holdings_by_strength`` are weaker than ``strength``."""
    return sum(count for held, count in holdings_by_strength.items() if held < strength)


def _river_plays(
    values: Sequence[int],
    firsts: Sequence[int],
    seconds: Sequence[int],
    six_card: Mapping[int, int],
    six_sorted: Sequence[int],
    board_category: int,
) -> list[bool]:
    """The river rule for player holdings of these strengths and cards (``firsts`` and ``seconds`` are keys of
    ``six_card``, the strength of the board with one card of them): a pair or better of a higher category than the
    board, or fewer than :data:`DEALER_OUTS_LIMIT` unseen cards (``six_sorted``, the six-card strengths of every
    unseen card, sorted) that beat the holding with the board."""
    unseen = len(six_sorted)
    return [
        (value >> _CATEGORY_SHIFT >= HandCategory.PAIR and value >> _CATEGORY_SHIFT > board_category)
        or unseen - bisect_right(six_sorted, value) - (six_card[first] > value) - (six_card[second] > value)
        < DEALER_OUTS_LIMIT
        for value, first, second in zip(values, firsts, seconds, strict=True)
    ]


# ---------------------------------------------------------------------------------------------------------------------
# Counting one key: the board's ranks and its flush-suit ranks


class _RankTables:
    """What the boards of one rank multiset share, whatever their suits: seven-card strengths of two-card holdings
    when no flush is possible, the same for six cards (board + one card) and for the board alone, each rank's board
    position, the flop rule's rank masks, and per rank how many holdings containing one given card of that rank have
    each strength when no flush is possible (with the count tables of :func:`_count_tables`). Holdings of two cards
    outside the flush suit are also kept as columns (``pair_*``), one entry per possible rank pair, with the river rule
    when no flush is possible; and per rank the columns of its pairs with every rank that has a card left (``row_*``),
    which are the holdings of one flush-suit card of that rank and one card outside the flush suit."""

    def __init__(self, ranks: tuple[int, ...]) -> None:
        preflop, flop_rule = _decision_tables()
        board_key = sum(_RANK_KEY[rank] for rank in ranks)
        non_flush = NON_FLUSH_BY_RANK_KEY
        unseen = {rank: 4 - ranks.count(rank) for rank in RANKS}
        self.unseen = unseen
        ranks_left = [rank for rank in RANKS if unseen[rank]]
        self.pair_strength: dict[tuple[int, int], int] = {}
        for low, high in combinations_with_replacement(RANKS, 2):
            if (unseen[low] >= 2) if low == high else (unseen[low] and unseen[high]):
                strength = non_flush[board_key + _RANK_KEY[low] + _RANK_KEY[high]]
                self.pair_strength[(low, high)] = self.pair_strength[(high, low)] = strength
        # Every partner rank with a card left is listed, with 0 holdings if none is left beside the given card, so
        # that the strength of any holding of two unseen cards can be looked up in either card's tables.
        self.group_counts: dict[int, dict[int, int]] = {}
        self.group_below: dict[int, dict[int, int]] = {}
        self.group_up_to: dict[int, dict[int, int]] = {}
        self.group_not_qualifying: dict[int, int] = {}
        for rank in ranks_left:
            counts: dict[int, int] = {}
            for partner in ranks_left:
                if partner == rank and unseen[rank] < 2:
                    continue  # no pair of this rank is left
                strength = non_flush[board_key + _RANK_KEY[rank] + _RANK_KEY[partner]]
                counts[strength] = counts.get(strength, 0) + unseen[partner] - (partner == rank)
            self.group_counts[rank] = counts
            self.group_below[rank], self.group_up_to[rank] = _count_tables(counts)
            self.group_not_qualifying[rank] = _holdings_below(counts, _QUALIFYING)
        self.six_card = {rank: non_flush[board_key + _RANK_KEY[rank]] for rank in ranks_left}
        six_sorted = sorted(self.six_card[rank] for rank in ranks_left for _ in range(unseen[rank]))
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
        self.pair_river = _river_plays(
            self.pair_values,
            [low for low, _ in pairs],
            [high for _, high in pairs],
            self.six_card,
            six_sorted,
            self.board_strength >> _CATEGORY_SHIFT,
        )
        row_ranks = {rank: [other for other in ranks_left if (rank, other) in self.pair_index] for rank in ranks_left}
        self.row_seconds = {rank: [2 * other for other in row] for rank, row in row_ranks.items()}
        self.row_indexes = {rank: [self.pair_index[(rank, other)] for other in row] for rank, row in row_ranks.items()}
        self.row_values = {rank: [self.pair_values[index] for index in row] for rank, row in self.row_indexes.items()}
        self.row_raises = {rank: [self.pair_raises[index] for index in row] for rank, row in self.row_indexes.items()}
        self.row_masks = {rank: [self.pair_masks[index] for index in row] for rank, row in self.row_indexes.items()}
        self.row_river = {rank: [self.pair_river[index] for index in row] for rank, row in self.row_indexes.items()}


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

    # For each card type, how many holdings containing one given card of it have each strength, as count tables (every
    # partner type listed, see _RankTables); for a card outside the flush suit, when no holding with it can make a
    # flush, the ranks' tables have them.
    flush_available = [rank for rank in RANKS if 2 * rank + 1 in multiplicity]
    non_flush_cards = sum(count for card_type, count in multiplicity.items() if not card_type & 1)
    group_below: dict[int, dict[int, int]] = {}
    group_up_to: dict[int, dict[int, int]] = {}
    group_not_qualifying: dict[int, int] = {}
    for card_type in multiplicity:
        rank = card_type >> 1
        if flushing >= 2 and not card_type & 1:
            group_below[card_type] = rank_tables.group_below[rank]
            group_up_to[card_type] = rank_tables.group_up_to[rank]
            group_not_qualifying[card_type] = rank_tables.group_not_qualifying[rank]
            continue
        if flushing == 2:
            # A flush-suit card: as any card of its rank, except that with another flush-suit card it makes a flush.
            counts = dict(rank_tables.group_counts[rank])
            for partner_rank in flush_available:
                if partner_rank != rank:
                    counts[pair_strength[(rank, partner_rank)]] -= 1
                    flush = flush_table[flush_mask | _RANK_BIT[rank] | _RANK_BIT[partner_rank]]
                    counts[flush] = counts.get(flush, 0) + 1
        elif flushing == 1:
            if card_type & 1:
                # Every holding with it makes a flush, the same one with any card outside the flush suit.
                counts = {flush_table[flush_mask | _RANK_BIT[rank]]: non_flush_cards}
                for partner_rank in flush_available:
                    if partner_rank != rank:
                        flush = flush_table[flush_mask | _RANK_BIT[rank] | _RANK_BIT[partner_rank]]
                        counts[flush] = counts.get(flush, 0) + 1
            else:
                # As any card of its rank, except with a flush-suit card, which makes a flush.
                counts = dict(rank_tables.group_counts[rank])
                for partner_rank in flush_available:
                    counts[pair_strength[(rank, partner_rank)]] -= 1
                    flush = flush_table[flush_mask | _RANK_BIT[partner_rank]]
                    counts[flush] = counts.get(flush, 0) + 1
        else:
            counts = {}
            for partner, partner_count in multiplicity.items():
                strength = strength_of(card_type, partner)
                counts[strength] = counts.get(strength, 0) + partner_count - (partner == card_type)
        group_below[card_type], group_up_to[card_type] = _count_tables(counts)
        group_not_qualifying[card_type] = _holdings_below(counts, _QUALIFYING)

    board_strength = flush_table[flush_mask] if flush_count == 5 else rank_tables.board_strength
    board_category = board_strength >> _CATEGORY_SHIFT
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
    # When no holding outside the flush suit and no holding with one card of it makes a flush (flushing >= 2), the
    # unseen cards' six-card strengths and the board's are those of its ranks, so those holdings play the river as
    # their rank pair does.
    river_by_rank = flushing >= 2
    plays_river = list(rank_tables.pair_river) if river_by_rank else []
    # Then the holdings with one flush-suit card (the other outside it: a row of the ranks' tables), then those with
    # two.
    for flush_rank in flush_available:
        row_seconds = rank_tables.row_seconds[flush_rank]
        # Four to a flush when the three flop cards are of the flush suit, with a ten or better of it.
        extra = three_in_flop if flush_rank >= _TEN else 0
        firsts += [2 * flush_rank + 1] * len(row_seconds)
        seconds += row_seconds
        holdings_of += map(left.__getitem__, row_seconds)
        if flushing >= 2:
            values += rank_tables.row_values[flush_rank]
        else:
            values += [flush_table[flush_mask | _RANK_BIT[flush_rank]]] * len(row_seconds)
        preflop_raises += rank_tables.row_raises[flush_rank]
        flop_masks += [mask | extra for mask in rank_tables.row_masks[flush_rank]]
        if river_by_rank:
            plays_river += rank_tables.row_river[flush_rank]
    # Three flush-suit cards on the flop make a flush (PLAY 2x); two make four to a flush.
    flush_pairs = list(combinations(flush_available, 2))
    pair_index = rank_tables.pair_index
    pair_masks = rank_tables.pair_masks
    firsts += [2 * low + 1 for low, _ in flush_pairs]
    seconds += [2 * high + 1 for _, high in flush_pairs]
    holdings_of += [1] * len(flush_pairs)
    values += [flush_table[flush_mask | _RANK_BIT[low] | _RANK_BIT[high]] for low, high in flush_pairs]
    preflop_raises += [preflop[(low, high, True)] for low, high in flush_pairs]
    flop_masks += [
        pair_masks[pair_index[(low, high)]] | three_in_flop | (two_in_flop if high >= _TEN else 0)
        for low, high in flush_pairs
    ]
    kinds = len(firsts)
    if len(plays_river) < kinds:
        # The river rule of the holdings that may make a flush, from the six-card strengths of this key.
        six_card: dict[int, int] = {}
        for card_type in multiplicity:
            if (card_type & 1) >= flushing:
                six_card[card_type] = flush_table[flush_mask | (_RANK_BIT[card_type >> 1] if card_type & 1 else 0)]
            else:
                six_card[card_type] = rank_tables.six_card[card_type >> 1]
        six_sorted = sorted(six_card[card_type] for card_type, count in multiplicity.items() for _ in range(count))
        done = len(plays_river)
        plays_river += _river_plays(values[done:], firsts[done:], seconds[done:], six_card, six_sorted, board_category)

    # Settle every kind against the 990 dealer holdings left, column by column. The dealer's holdings are the
    # player's, so their strengths are counted from the kinds; those sharing a card with the player's holding are
    # taken off with the tables of its two card types (inclusion–exclusion: a holding shares at most one of them
    # unless it is the player's own, which is weaker than no strength and not stronger than its own, hence the + 1).
    holdings_by_strength: dict[int, int] = {}
    for value, holdings in zip(values, holdings_of, strict=True):
        holdings_by_strength[value] = holdings_by_strength.get(value, 0) + holdings
    all_below, all_up_to = _count_tables(holdings_by_strength)
    not_qualifying = _holdings_below(holdings_by_strength, _QUALIFYING)
    wins = [
        all_below[value] - group_below[first][value] - group_below[second][value]
        for value, first, second in zip(values, firsts, seconds, strict=True)
    ]
    at_most = [
        all_up_to[value] - group_up_to[first][value] - group_up_to[second][value] + 1
        for value, first, second in zip(values, firsts, seconds, strict=True)
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
    plays = [raises or river for raises, river in zip(preflop_raises, plays_river, strict=True)]
    on_flop = list(map(_POPCOUNT.__getitem__, flop_masks))
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
    wins_indexes = map(_WINS_INDEX_BY_TOP_BITS.__getitem__, map(rshift, values, repeat(16)))
    for wins_index, won in zip(wins_indexes, map(mul, played, wins), strict=True):
        totals[wins_index] += won

    # Suited holdings outside the flush suit: what changes against the same ranks offsuit. A suit of the other rank
    # sets allows the suited holdings of the ranks it does not hold; they play as offsuit but for the pre-flop table,
    # and four to a flush on the flops holding its two cards when it has two. So each rank set of a suit is weighed by
    # the boards that have it (once per suit holding it), and a rank pair's suited holdings by the weight of the rank
    # sets holding neither of its ranks (inclusion–exclusion over the rank sets holding one or both of them).
    boards = 0
    weight_of_suit_ranks: dict[tuple[int, ...], int] = defaultdict(int)
    for other_suits, count in arrangements:
        boards += count
        for suit_ranks in other_suits:
            weight_of_suit_ranks[suit_ranks] += count
    every_weight = 0
    weight_holding: dict[int, int] = defaultdict(int)
    weight_holding_both: dict[tuple[int, int], int] = defaultdict(int)
    two_card_suits: list[tuple[tuple[int, ...], int, int]] = []
    for suit_ranks, weight in weight_of_suit_ranks.items():
        every_weight += weight
        for rank in suit_ranks:
            weight_holding[rank] += weight
        for pair in combinations(suit_ranks, 2):  # a rank set is sorted
            weight_holding_both[pair] += weight
        if len(suit_ranks) == 2:
            four_to_flush = _flops_meeting([rank_tables.first_position[rank] for rank in suit_ranks], 2)
            two_card_suits.append((suit_ranks, weight, four_to_flush))

    def suited_play(flop_mask: int, plays_later: bool) -> tuple[int, int]:
        """(flop splits played, PLAY units) of a suited holding that does not raise pre-flop."""
        flop_count = _POPCOUNT[flop_mask]
        return (FLOP_SPLITS, FLOP_SPLITS + flop_count) if plays_later else (flop_count, 2 * flop_count)

    accumulator = [boards * amount for amount in totals]
    for low, high in _SUIT_SENSITIVE_PAIRS:
        index = pair_index.get((low, high))
        if index is None or not holdings_of[index]:
            continue
        allowed = every_weight - weight_holding[low] - weight_holding[high] + weight_holding_both[(low, high)]
        if not allowed:
            continue
        holdings = holdings_of[index]
        offsuit_played, offsuit_units = played[index] // holdings, units[index] // holdings
        if preflop[(low, high, True)]:
            more_played = allowed * (FLOP_SPLITS - offsuit_played)
            more_units = allowed * (4 * FLOP_SPLITS - offsuit_units)
        else:
            suited_played, suited_units = suited_play(flop_masks[index], plays_river[index])
            more_played = allowed * (suited_played - offsuit_played)
            more_units = allowed * (suited_units - offsuit_units)
            if high >= _TEN:
                for suit_ranks, weight, four_to_flush in two_card_suits:
                    if low not in suit_ranks and high not in suit_ranks:
                        drawing_played, drawing_units = suited_play(
                            flop_masks[index] | four_to_flush, plays_river[index]
                        )
                        more_played += weight * (drawing_played - suited_played)
                        more_units += weight * (drawing_units - suited_units)
        if more_played or more_units:
            accumulator[_ANTE_WINS] += more_played * ante_wins[index]
            accumulator[_ANTE_LOSSES] += more_played * ante_losses[index]
            accumulator[_LOSSES] += more_played * losses[index]
            accumulator[_WINS_BY_CLASS + _blind_class(values[index])] += more_played * wins[index]
            accumulator[_PLAY_UNITS_WON] += more_units * wins[index]
            accumulator[_PLAY_UNITS_LOST] += more_units * losses[index]
            accumulator[_FOLDS] -= more_played * DEALER_HOLDINGS
            accumulator[_PLAY_UNITS] += more_units * DEALER_HOLDINGS
    return accumulator


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
