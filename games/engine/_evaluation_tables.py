"""Lookup tables for games.engine.evaluation, built once (about a tenth of a second) and cached beside the bytecode.

Strength encoding (shared with evaluation.py): ``category << CATEGORY_SHIFT`` plus up to five tie-break ranks packed
four bits each, most significant first, e.g. two pair kings and sixes with an ace kicker is
``3 << 20 | 13 << 16 | 6 << 12 | 14 << 8``. Straights carry only their top card, 5 for 5-4-3-2-A (CARD-03, CARD-06).

* ``NON_FLUSH_BY_RANK_KEY[rank_key]`` — best hand ignoring suits for every multiset of 5, 6 or 7 ranks (no rank more
  than four times), keyed by the sum of the cards' ``rank_key`` (5 ** (rank - 2)).
* ``FLUSH_BY_RANK_MASK[mask]`` — best flush or straight flush for a 13-bit mask of ranks of one suit (5 to 7 bits set;
  other entries are 0).
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from itertools import combinations, combinations_with_replacement
from pathlib import Path
from typing import Final

from games.engine.cards import SUITS, Card

CATEGORY_SHIFT: Final[int] = 20

_HIGH_CARD: Final[int] = 1
_PAIR: Final[int] = 2
_TWO_PAIR: Final[int] = 3
_THREE_OF_A_KIND: Final[int] = 4
_STRAIGHT: Final[int] = 5
_FLUSH: Final[int] = 6
_FULL_HOUSE: Final[int] = 7
_FOUR_OF_A_KIND: Final[int] = 8
_STRAIGHT_FLUSH: Final[int] = 9

_ALL_RANKS: Final[tuple[int, ...]] = tuple(range(2, 15))
_RANK_KEY: Final[dict[int, int]] = {rank: Card(rank, SUITS[0]).rank_key for rank in _ALL_RANKS}

# (top card, rank set) of every straight, highest first; 5-4-3-2-A is the lowest and its ace plays low (CARD-03).
# No wrap-around (AMB-49): only A-K-Q-J-T and 5-4-3-2-A use the ace.
_STRAIGHTS: Final[tuple[tuple[int, frozenset[int]], ...]] = (
    *((top, frozenset(range(top - 4, top + 1))) for top in range(14, 5, -1)),
    (5, frozenset((14, 2, 3, 4, 5))),
)


def pack(category: int, ranks: tuple[int, ...]) -> int:
    """Encode a category and its tie-break ranks (most significant first, at most five) as one integer."""
    strength = category << CATEGORY_SHIFT
    shift = 16
    for rank in ranks:
        strength |= rank << shift
        shift -= 4
    return strength


def _straight_top(ranks: frozenset[int]) -> int:
    """Top card of the highest straight within ``ranks``, or 0."""
    for top, straight in _STRAIGHTS:
        if straight <= ranks:
            return top
    return 0


def five_card_strength_ignoring_suits(ranks: tuple[int, ...]) -> int:
    """Strength of five cards with these ranks when they are not all of one suit."""
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    shape = tuple(count for _, count in groups)
    group_ranks = tuple(rank for rank, _ in groups)
    if shape == (4, 1):
        return pack(_FOUR_OF_A_KIND, group_ranks)
    if shape == (3, 2):
        return pack(_FULL_HOUSE, group_ranks)
    if shape == (3, 1, 1):
        return pack(_THREE_OF_A_KIND, group_ranks)
    if shape == (2, 2, 1):
        return pack(_TWO_PAIR, group_ranks)
    if shape == (2, 1, 1, 1):
        return pack(_PAIR, group_ranks)
    if shape == (1, 1, 1, 1, 1):
        top = _straight_top(frozenset(group_ranks))
        if top:
            return pack(_STRAIGHT, (top,))
        return pack(_HIGH_CARD, group_ranks)
    raise ValueError(f"not five cards of a standard deck: {ranks}")


def flush_strength(ranks: frozenset[int]) -> int:
    """Best straight flush or flush among five or more distinct ranks of one suit."""
    top = _straight_top(ranks)
    if top:
        return pack(_STRAIGHT_FLUSH, (top,))
    return pack(_FLUSH, tuple(sorted(ranks, reverse=True)[:5]))


def _build_non_flush_table() -> dict[int, int]:
    table: dict[int, int] = {}
    for five in combinations_with_replacement(_ALL_RANKS, 5):
        if five[0] == five[4]:
            continue  # five of a kind does not exist in one deck
        table[sum(_RANK_KEY[rank] for rank in five)] = five_card_strength_ignoring_suits(five)
    # The best hand of n cards is the best hand of one of its (n - 1)-card subsets. Ranks are indexed 0..12 here
    # (rank - 2) so the weights are a list; sorted tuples with a rank five times are skipped.
    weights = [_RANK_KEY[rank] for rank in _ALL_RANKS]
    weight_of = weights.__getitem__
    for ranks in combinations_with_replacement(range(13), 6):
        if ranks[0] == ranks[4] or ranks[1] == ranks[5]:
            continue
        key = sum(map(weight_of, ranks))
        table[key] = max([table[key - weights[index]] for index in set(ranks)])
    for ranks in combinations_with_replacement(range(13), 7):
        if ranks[0] == ranks[4] or ranks[1] == ranks[5] or ranks[2] == ranks[6]:
            continue
        key = sum(map(weight_of, ranks))
        table[key] = max([table[key - weights[index]] for index in set(ranks)])
    return table


def _build_flush_table() -> list[int]:
    table = [0] * (1 << 13)
    for size in (5, 6, 7):
        for ranks in combinations(_ALL_RANKS, size):
            mask = 0
            for rank in ranks:
                mask |= 1 << (rank - 2)
            table[mask] = flush_strength(frozenset(ranks))
    return table


def tables_cached_or_built(directory: Path | None = None) -> tuple[dict[int, int], list[int]]:
    """Both tables, read from the cache beside this module's bytecode when one was written for the same source (this
    module and ``cards``, which gives the rank keys), else built and cached. Building costs about 0.15 s of CPU, paid
    by every process that sets the site up (the ticker, the table owners, Celery, commands, test workers: hundreds in
    a run of the test suite); reading the cache about a hundredth of that. No cache is written where Python writes no
    bytecode (``sys.dont_write_bytecode``) or the directory is read-only: the tables are then built at each start.
    ``directory``: where the cache is (default: this module's ``__pycache__``)."""
    from games.engine import cards

    digest = hashlib.sha256(Path(__file__).read_bytes() + Path(cards.__file__).read_bytes()).hexdigest()[:20]
    cache = (directory or Path(__file__).with_name("__pycache__")) / f"_evaluation_tables.{digest}.marshal"
    try:
        non_flush, flush = marshal.loads(cache.read_bytes())
        if isinstance(non_flush, dict) and isinstance(flush, list) and len(flush) == 1 << 13:
            return non_flush, flush
    except (OSError, EOFError, ValueError, TypeError):
        pass  # no cache yet, or an unreadable one: build
    non_flush, flush = _build_non_flush_table(), _build_flush_table()
    if not sys.dont_write_bytecode:
        temporary = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
        try:
            cache.parent.mkdir(exist_ok=True)
            temporary.write_bytes(marshal.dumps((non_flush, flush)))
            os.replace(temporary, cache)  # atomic: processes starting together never read half a file
        except OSError:
            temporary.unlink(missing_ok=True)
    return non_flush, flush


_TABLES = tables_cached_or_built()
NON_FLUSH_BY_RANK_KEY: Final[dict[int, int]] = _TABLES[0]
FLUSH_BY_RANK_MASK: Final[list[int]] = _TABLES[1]
