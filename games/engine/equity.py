"""All-in and showdown equity: each player's expected share of the pot over the board still to come (FRD-19).

:func:`all_in_equity` takes the players' hole cards (every hand is known: this is the view of a compliance review or an
all-in run-out, not a player's guess) and the board dealt so far, and counts, over the run-outs of the missing board
cards, how often each player wins alone or shares the pot. A split pot counts ``1/k`` to each of its ``k`` winners, so
the equities of one result add up to 1.

* **Exact** when the remaining deck has at most ``exact_limit`` run-outs (heads-up on the flop: C(45, 2) = 990; on the
  turn: 44). Every run-out is enumerated; :attr:`PlayerEquity.exact_equity` holds the exact fraction and the standard
  error is 0.
* **Monte-Carlo** otherwise (preflop: C(48, 5) = 1,712,304 boards heads-up): ``samples`` run-outs drawn without
  replacement from the remaining deck by ``random.Random(seed)``, so the same inputs and seed always give the same
  result. :attr:`PlayerEquity.standard_error` is the standard error of the estimate (sample standard deviation of the
  per-run-out share over the square root of the sample size): the true equity lies within two standard errors about
  95 % of the time.

Hands are ranked with the engine's fast evaluator (:func:`games.engine.evaluation.holdem_strength` for Hold'em,
:func:`games.engine.evaluation.omaha_strength` for Omaha: exactly two hole cards and three board cards). Equity is for
one pot contested by all the given players; side pots between fewer players are a separate call with those players.

:func:`equity_by_street` gives the equities at each street of a hand (preflop, flop, turn, river) for the review
replayer; :func:`equity_against_random_hands` the strength of a holding against hands dealt at random (what its owner
could know), which tells a weak holding from an unlucky one.

Standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from random import Random
from typing import Any, Final

from games.engine._evaluation_tables import NON_FLUSH_BY_RANK_KEY
from games.engine.cards import FULL_DECK, Card
from games.engine.config import Variant
from games.engine.evaluation import FLUSH_MASK, FLUSH_PROBE, RANK_KEY_MASK, holdem_strength, omaha_strength

BOARD_SIZE: Final[int] = 5
DEFAULT_EXACT_LIMIT: Final[int] = 10_000
"""Enumerate every run-out when there are at most this many (heads-up from the flop on, three players from the turn)."""
DEFAULT_SAMPLES: Final[int] = 2_000
"""Monte-Carlo run-outs otherwise: a standard error of at most 1.1 percentage points (0.5 / sqrt(2000))."""
STREET_BOARD_SIZES: Final[tuple[tuple[str, int], ...]] = (("preflop", 0), ("flop", 3), ("turn", 4), ("river", 5))


class EquityInputError(ValueError):
    """The hands or the board cannot be evaluated (wrong card counts, a card given twice, a bad option)."""


@dataclass(frozen=True, slots=True)
class PlayerEquity:
    """One player's share of the pot over the run-outs.

    ``equity``: expected share (wins count 1, a pot split ``k`` ways counts ``1/k``); ``win``: probability of winning
    alone; ``tie``: probability of sharing the pot. ``standard_error`` is that of ``equity`` (0.0 when exact);
    ``exact_equity`` the exact fraction when every run-out was enumerated, else ``None``.
    """

    equity: float
    win: float
    tie: float
    standard_error: float
    exact_equity: Fraction | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; the exact fraction as ``"numerator/denominator"``."""
        return {
            "equity": self.equity,
            "win": self.win,
            "tie": self.tie,
            "standard_error": self.standard_error,
            "exact_equity": None if self.exact_equity is None else str(self.exact_equity),
        }


@dataclass(frozen=True, slots=True)
class EquityResult:
    """The equities of the players, in the order their hands were given.

    ``exact``: every run-out was enumerated; ``runouts``: how many run-outs were evaluated (all of them, or the sample
    size); ``possible_runouts``: how many distinct run-outs the remaining deck has.
    """

    players: tuple[PlayerEquity, ...]
    exact: bool
    runouts: int
    possible_runouts: int

    @property
    def equities(self) -> tuple[float, ...]:
        return tuple(player.equity for player in self.players)

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": [player.to_dict() for player in self.players],
            "exact": self.exact,
            "runouts": self.runouts,
            "possible_runouts": self.possible_runouts,
        }


def all_in_equity(
    variant: Variant,
    holes: Sequence[Sequence[Card]],
    board: Sequence[Card] = (),
    *,
    dead: Sequence[Card] = (),
    exact_limit: int = DEFAULT_EXACT_LIMIT,
    samples: int = DEFAULT_SAMPLES,
    seed: int | str = 0,
) -> EquityResult:
    """Each player's equity in one pot contested by the hands ``holes`` on ``board`` (0 to 5 cards dealt so far).

    ``dead`` cards are out of the deck (e.g. a folded player's known cards, if the review wants them removed). Raises
    :class:`EquityInputError` for a hand with the wrong number of cards for ``variant``, a card given twice, more
    than five board cards, no player, or non-positive ``samples``.
    """
    hands = tuple(tuple(hole) for hole in holes)
    dealt = tuple(board)
    _validate(variant, hands, dealt, tuple(dead), exact_limit, samples)
    used = {card for hole in hands for card in hole} | set(dealt) | set(dead)
    deck = [card for card in FULL_DECK if card not in used]
    missing = BOARD_SIZE - len(dealt)
    if missing > len(deck):
        raise EquityInputError(f"the deck has {len(deck)} cards left, the board needs {missing} more")
    possible = math.comb(len(deck), missing)
    tally = _Tally(len(hands))
    if possible <= exact_limit:
        runouts: Iterable[tuple[Card, ...]] = combinations(deck, missing)
        _count(variant, hands, dealt, deck, runouts, tally)
        return tally.result(exact=True, runouts=possible, possible=possible)
    _count(variant, hands, dealt, deck, _sampled_runouts(deck, missing, samples, seed), tally)
    return tally.result(exact=False, runouts=samples, possible=possible)


def _sampled_runouts(deck: list[Card], missing: int, samples: int, seed: int | str) -> Iterator[tuple[Card, ...]]:
    """``samples`` uniform draws of ``missing`` cards from ``deck`` (a partial Fisher-Yates shuffle of a copy)."""
    cards = list(deck)
    random = Random(seed).random
    size = len(cards)
    for _ in range(samples):
        for position in range(missing):
            chosen = position + int(random() * (size - position))
            cards[position], cards[chosen] = cards[chosen], cards[position]
        yield tuple(cards[:missing])


def equity_by_street(
    variant: Variant,
    holes: Sequence[Sequence[Card]],
    board: Sequence[Card],
    *,
    exact_limit: int = DEFAULT_EXACT_LIMIT,
    samples: int = DEFAULT_SAMPLES,
    seed: int | str = 0,
) -> dict[str, EquityResult]:
    """The equities of the same hands before the flop and on each street of ``board`` dealt so far.

    Keys are ``"preflop"``, ``"flop"``, ``"turn"``, ``"river"`` (as far as the board goes; on the river every
    equity is 0, 1 or a split share). Each street's Monte-Carlo draw is seeded with ``f"{seed}:{street}"``.
    """
    dealt = tuple(board)
    results: dict[str, EquityResult] = {}
    for street, size in STREET_BOARD_SIZES:
        if size > len(dealt):
            break
        results[street] = all_in_equity(
            variant, holes, dealt[:size], exact_limit=exact_limit, samples=samples, seed=f"{seed}:{street}"
        )
    return results


def equity_against_random_hands(
    variant: Variant,
    hole: Sequence[Card],
    board: Sequence[Card] = (),
    *,
    opponents: int = 1,
    samples: int = DEFAULT_SAMPLES,
    seed: int | str = 0,
) -> PlayerEquity:
    """The strength of a holding as such: its equity on ``board`` against ``opponents`` hands dealt at random from
    the cards it cannot see (what a player could judge, whatever the others actually hold).

    Always Monte-Carlo (``samples`` deals of the opponents' hands and the rest of the board, seeded by ``seed``); the
    result's ``standard_error`` states the precision. Raises :class:`EquityInputError` like :func:`all_in_equity`.
    """
    hand = tuple(hole)
    dealt = tuple(board)
    _validate(variant, (hand,), dealt, (), 0, samples)
    if type(opponents) is not int or not 1 <= opponents <= 9:
        raise EquityInputError(f"opponents must be 1 to 9, not {opponents!r}")
    used = set(hand) | set(dealt)
    deck = [card for card in FULL_DECK if card not in used]
    per_player = variant.hole_card_count
    missing = BOARD_SIZE - len(dealt)
    needed = opponents * per_player + missing
    if needed > len(deck):
        raise EquityInputError(f"the deck has {len(deck)} cards left, the deal needs {needed}")
    random = Random(seed).random
    size = len(deck)
    omaha = variant is Variant.POT_LIMIT_OMAHA
    tally = _Tally(opponents + 1)
    for _ in range(samples):
        for position in range(needed):
            chosen = position + int(random() * (size - position))
            deck[position], deck[chosen] = deck[chosen], deck[position]
        full_board = dealt + tuple(deck[opponents * per_player : needed])
        holes = [hand] + [tuple(deck[index * per_player : (index + 1) * per_player]) for index in range(opponents)]
        if omaha:
            tally.add([omaha_strength(cards, full_board) for cards in holes])
        else:
            tally.add([holdem_strength(cards + full_board) for cards in holes])
    return tally.result(exact=False, runouts=samples, possible=samples).players[0]


def _validate(
    variant: Variant,
    hands: tuple[tuple[Card, ...], ...],
    board: tuple[Card, ...],
    dead: tuple[Card, ...],
    exact_limit: int,
    samples: int,
) -> None:
    if not isinstance(variant, Variant):
        raise EquityInputError(f"unknown variant {variant!r}")
    if not hands:
        raise EquityInputError("equity needs at least one hand")
    per_player = variant.hole_card_count
    for position, hole in enumerate(hands, start=1):
        if len(hole) != per_player:
            raise EquityInputError(f"hand {position} has {len(hole)} cards, {variant.name} deals {per_player}")
    if len(board) > BOARD_SIZE:
        raise EquityInputError(f"a board has at most five cards, got {len(board)}")
    cards = [card for hole in hands for card in hole] + list(board) + list(dead)
    for card in cards:
        if not isinstance(card, Card):
            raise EquityInputError(f"not a card: {card!r}")
    if len(set(cards)) != len(cards):
        repeated = sorted({str(card) for card in cards if cards.count(card) > 1})
        raise EquityInputError(f"a card is given twice: {', '.join(repeated)}")
    if type(samples) is not int or samples < 1:
        raise EquityInputError(f"samples must be a positive whole number, not {samples!r}")
    if type(exact_limit) is not int or exact_limit < 0:
        raise EquityInputError(f"exact_limit must be a non-negative whole number, not {exact_limit!r}")


def _count(
    variant: Variant,
    hands: tuple[tuple[Card, ...], ...],
    board: tuple[Card, ...],
    deck: list[Card],
    runouts: Iterable[tuple[Card, ...]],
    tally: _Tally,
) -> None:
    """Add every run-out's showdown to ``tally``."""
    if variant is Variant.POT_LIMIT_OMAHA:
        for runout in runouts:
            full_board = board + runout
            tally.add([omaha_strength(hole, full_board) for hole in hands])
        return
    # Hold'em: the evaluator's key is the sum of the seven card codes (see games.engine.evaluation). Each hand's
    # hole-and-board sum is computed once and every run-out adds its own sum; only a possible flush needs the cards.
    bases = [sum(card.code for card in hole + board) for hole in hands]
    known = [hole + board for hole in hands]
    table = NON_FLUSH_BY_RANK_KEY
    probe, flush_mask, rank_mask = FLUSH_PROBE, FLUSH_MASK, RANK_KEY_MASK
    if len(hands) == 2:
        first_base, second_base = bases
        first_cards, second_cards = known
        for runout in runouts:
            added = sum([card.code for card in runout])
            total = first_base + added
            first = holdem_strength(first_cards + runout) if (total + probe) & flush_mask else table[total & rank_mask]
            total = second_base + added
            second = (
                holdem_strength(second_cards + runout) if (total + probe) & flush_mask else table[total & rank_mask]
            )
            tally.add_two(first, second)
        return
    for runout in runouts:
        added = sum([card.code for card in runout])
        strengths = []
        for base, cards in zip(bases, known, strict=True):
            total = base + added
            if (total + probe) & flush_mask:
                strengths.append(holdem_strength(cards + runout))
            else:
                strengths.append(table[total & rank_mask])
        tally.add(strengths)


class _Tally:
    """Wins and ties (by the number of players sharing) per player over the run-outs evaluated."""

    __slots__ = ("_count", "_ties", "_wins")

    def __init__(self, players: int) -> None:
        self._count = players
        self._wins = [0] * players
        self._ties: list[dict[int, int]] = [{} for _ in range(players)]

    def add_two(self, first: int, second: int) -> None:
        if first > second:
            self._wins[0] += 1
        elif second > first:
            self._wins[1] += 1
        else:
            for ties in self._ties:
                ties[2] = ties.get(2, 0) + 1

    def add(self, strengths: list[int]) -> None:
        best = max(strengths)
        sharing = strengths.count(best)
        if sharing == 1:
            self._wins[strengths.index(best)] += 1
            return
        for position, strength in enumerate(strengths):
            if strength == best:
                ties = self._ties[position]
                ties[sharing] = ties.get(sharing, 0) + 1

    def result(self, *, exact: bool, runouts: int, possible: int) -> EquityResult:
        players = []
        for position in range(self._count):
            wins = self._wins[position]
            ties = self._ties[position]
            share = Fraction(wins) + sum((Fraction(count, sharing) for sharing, count in ties.items()), Fraction(0))
            equity = share / runouts
            tied = sum(ties.values())
            standard_error = 0.0
            if not exact:
                # Per run-out share x is 1 (win), 1/k (a k-way split) or 0: Var = E[x^2] - E[x]^2.
                square = (wins + sum(count / (sharing * sharing) for sharing, count in ties.items())) / runouts
                variance = max(square - float(equity) ** 2, 0.0)
                standard_error = math.sqrt(variance / runouts)
            players.append(
                PlayerEquity(
                    equity=float(equity),
                    win=wins / runouts,
                    tie=tied / runouts,
                    standard_error=standard_error,
                    exact_equity=equity if exact else None,
                )
            )
        return EquityResult(tuple(players), exact, runouts, possible)


__all__ = [
    "DEFAULT_EXACT_LIMIT",
    "DEFAULT_SAMPLES",
    "EquityInputError",
    "EquityResult",
    "PlayerEquity",
    "all_in_equity",
    "equity_against_random_hands",
    "equity_by_street",
]
