"""ICM chop (CXL-11, AMB-17): Malmuth–Harville equities in exact rational arithmetic, the same in fixed point with a
proven error bound (for bigger fields: the cents are still those of the exact shares), the cent rules, and a seeded
Monte-Carlo approximation for fields too big for both.

Model (Malmuth–Harville): a player finishes first with probability stack / total chips; given who finished above,
the next place goes to each player still in with probability stack / chips still in. A player's equity is
Σ over places of P(place) × prize(place).

Exact method (:func:`icm_equities`): a sum over the *sets* of players, not over finishing orders. Malmuth–Harville is
the exponential race (player i's finishing time exponential with rate s_i, the first to finish takes first place),
so P(j takes place k) = ∫ s_j e^(−s_j t) × P(exactly k − 1 others before t) dt; expanding the product and
integrating term by term gives P(j takes place k) = Σ over sets D of other players, |D| < k, of
(−1)^(k−1−|D|) × C(n−1−|D|, k−1−|D|) × s_j / R(D), with R(D) the chips outside D. So a player's equity is
E_j = s_j × Σ over sets D not holding j, |D| < places, of w(|D|) / R(D), where the whole number
w(d) = Σ_{k>d} prize_k × (−1)^(k−1−d) × C(n−1−d, k−1−d) depends only on the size of D. Only the sets smaller than the
number of paid places are visited (Σ_{d < places} C(n, d) of them); the weights of the sets with the same R are added
up in whole numbers, and the fractions w / R are then added exactly, pairwise up a product tree (a/b + c/d =
(ad + cb)/bd), over one common denominator: the product of the distinct values of R. (The exact equities are big
fractions — tens of thousands of digits for 14 players paid every place — and adding them is what costs the time.)
Stacks are first divided by their greatest common divisor (ICM does not change when every stack is scaled). With all
n places paid, the last place is folded in: every player is certain of the last prize, and the other places pay
their excess over it.

Fixed-point method (:func:`fixed_point_icm_equities`), the default for bigger fields (every field of up to 20
players, and bigger ones paying few places: :data:`FIXED_POINT_TERM_LIMIT`): the same sum over sets, each term
w(|D|) / R(D) taken in whole numbers as ⌊w(|D|) × 2^shift / R(D)⌋ instead of as a fraction. Each term is then at most
one unit below its exact value, so player j's sum of N terms (the sets without j) is less than N units below the exact
sum: s_j × N units, which ``shift`` makes less than 2^-64 cents. Every set of players is a bit mask, and every set's
chips and size are built by doubling lists (the sets with player k are the sets without k, plus k), so the 2^n terms
are computed in C loops (``map``); the sums over the sets without each player are read off by halving the list (the
sets without the highest player are its lower half; adding the two halves entry by entry leaves the sums for the
players below). For big fields paying few places, each player's sum runs over the sets of the others by size instead
(fewer terms than 2^n). The exact fractions for 18 players paid 9 places have 75,000 digits (457,000 over their
common denominator) and take 7 s of CPU to add up; these sums take about 0.06 s.

What a chop pays is decided exactly: :func:`icm_chop` reads each player's whole cents and the order of the remainders
off the proven bounds and, when they do not decide (a share within the bound of a whole cent, or two different
stacks' remainders within it of each other — exact ties happen with small stacks), computes the exact fractions
instead. Equal stacks have equal exact shares and equal fixed-point ones (a term depends only on its set's size and
chips), so their ties go by the cent rules. The cents are therefore always those of the exact method (AMB-17).

Cent rules (AMB-17, :func:`round_shares_to_cents`): each exact share is rounded down to the cent; the cents left over
go one each by largest remainder, ties to the larger stack, then to the lower seat number.

Approximation (:func:`approximate_icm_equities`), for fields too big for both (over 20 players paying many places):
places 1 and 2 exactly (P(j first) = s_j / T and P(j second) = s_j / T × Σ_{i≠j} s_i / (T − s_i), linear time), the
places from 3 down by sampling Malmuth–Harville finishing orders — sorting players by E_j / s_j with E_j independent
standard exponentials gives exactly the Malmuth–Harville order (the exponential race) — with conditional Monte Carlo: in
each sampled order every player still in when place k is decided is credited prize_k × stack / chips still in. Each
estimate is unbiased; its standard error (the sample standard deviation of the player's credits / √samples) is reported
per player. The documented bound: a player's error exceeds 4 standard errors with probability about 6 in 100,000 (normal
approximation). The sampled part is kept in millionths of a cent, adjusted by the float rounding (a few millionths) so
that the estimates add up to the prize total exactly and the cent rules apply to them unchanged. The sampler is seeded:
the same input, samples and seed give the same chop.

Bad input raises ValueError with a sentence saying what is wrong: stacks must be whole positive chip counts (a player
without chips is not in the chop); prizes are listed from first place down, never increasing, none negative, with a
positive total; there may be fewer prizes than players (the places below are unpaid) but not more — a chop is among
the players still in, and the places below them are already paid, so more prizes than players means the caller
passed places that no longer belong to the chop.
"""

from __future__ import annotations

import heapq
import math
import operator
import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cached_property, reduce
from itertools import accumulate, combinations, islice, repeat
from typing import Final

Amount = int | Fraction

# Up to this many (set, player) steps (exact_steps) the exact method is the default of icm_chop (and of manage.py
# icm): 12 players paid every place (24,564 steps), 18 players paid 4 places, 30 paid 3 — each well under 0.5 s on one
# core (docs/benchmarks.md, section bench_icm.py; beyond, the exact fractions grow to tens of thousands of digits and
# take seconds: 14 paid 14 1.5 s, 18 paid 6 2 s, 18 paid 9 about 40 s). Above it the fixed-point method is the default
# up to FIXED_POINT_TERM_LIMIT terms (fixed_point_terms: every field of up to 20 players, and bigger ones paying few
# places — 100 players paid 3, 30 paid 5); its cents are those of the exact shares (18 players paid 9 places in
# about 0.06 s of CPU). Beyond both, the approximation, unless told otherwise. A cancellation always asks for the
# exact method (at most 10 players at a final table, 3 in a HexaPro game).
EXACT_STEP_LIMIT: Final[int] = 2**15
# About 0.2-0.3 s of CPU and, for 20 players, 100 MB (one number per set of players).
FIXED_POINT_TERM_LIMIT: Final[int] = 2**20
_FIXED_POINT_MARGIN_BITS: Final[int] = 64  # a fixed-point share is less than 2^-64 cents below the exact share
_ONE_MORE: Final[bytes] = bytes(range(1, 256)) + b"\xff"  # bytes.translate table: each set size plus one
DEFAULT_SAMPLES: Final[int] = 10_000
DEFAULT_SEED: Final[int] = 0
ERROR_BOUND_IN_STANDARD_ERRORS: Final[int] = 4
_EXACTLY_COMPUTED_PLACES: Final[int] = 2
_UNITS: Final[int] = 1_000_000  # the sampled part of an estimate is kept in millionths of the prize unit


class IcmMethod(StrEnum):
    EXACT = "exact"
    FIXED_POINT = "fixed-point"
    MONTE_CARLO = "monte-carlo"


def checked_stacks(stacks: Sequence[int]) -> list[int]:
    """The stacks as a list, or ValueError: at least one player, every stack a whole number of chips above zero."""
    if len(stacks) == 0:
        raise ValueError("no stacks given: a chop needs at least one player")
    for position, stack in enumerate(stacks, start=1):
        if isinstance(stack, bool) or not isinstance(stack, int):
            raise ValueError(f"stack {position} is {stack!r}: stacks are whole numbers of chips")
        if stack <= 0:
            raise ValueError(f"stack {position} is {stack}: every player in the chop has at least one chip")
    return list(stacks)


def checked_prizes(prizes: Sequence[Amount], players: int) -> list[Amount]:
    """The prizes as a list, or ValueError (see the module docstring for the rules and why)."""
    if len(prizes) == 0:
        raise ValueError("no prizes given: list the unpaid prizes from first place down")
    if len(prizes) > players:
        raise ValueError(
            f"{len(prizes)} prizes for {players} players: a chop shares only the prizes of places 1 to {players},"
            " the places below are already paid"
        )
    for place, prize in enumerate(prizes, start=1):
        if isinstance(prize, bool) or not isinstance(prize, int | Fraction):
            raise ValueError(f"the prize for place {place} is {prize!r}: prizes are amounts in cents")
        if prize < 0:
            raise ValueError(f"the prize for place {place} is {prize}: prizes cannot be negative")
    for place in range(1, len(prizes)):
        if prizes[place] > prizes[place - 1]:
            raise ValueError(
                f"the prize for place {place + 1} ({prizes[place]}) is bigger than for place {place}"
                f" ({prizes[place - 1]}): list prizes from first place down"
            )
    if sum(prizes) == 0:
        raise ValueError("the prizes add up to zero: there is nothing to chop")
    return list(prizes)


def checked_seats(seats: Sequence[int] | None, players: int) -> list[int]:
    """The seat numbers (tie-break order of the cent rules), 1..n in the given order when none are given."""
    if seats is None:
        return list(range(1, players + 1))
    if len(seats) != players:
        raise ValueError(f"{len(seats)} seat numbers for {players} stacks: give one seat number per stack")
    if any(isinstance(seat, bool) or not isinstance(seat, int) for seat in seats):
        raise ValueError("seat numbers are whole numbers")
    if len(set(seats)) != players:
        raise ValueError("seat numbers must be different from each other")
    return list(seats)


def exact_steps(players: int, paid_places: int) -> int:
    """How many (set, player) steps :func:`icm_equities` takes for ``players`` with ``paid_places`` prizes."""
    depth = min(paid_places, players - 1)
    return sum(math.comb(players, size) * (players - size) for size in range(depth))


def exact_sets(players: int, paid_places: int) -> int:
    """How many sets of players :func:`icm_equities` visits for ``players`` with ``paid_places`` prizes (every place
    paid: the last is folded in, one place fewer)."""
    depth = min(paid_places, players - 1)
    return sum(math.comb(players, size) for size in range(depth))


def fixed_point_terms(players: int, paid_places: int) -> int:
    """How many terms the fixed-point method computes: one per set of players (2^n, the masks), or per player one per
    set of the others smaller than the paid places (by levels), whichever is fewer."""
    depth = min(paid_places, players - 1)
    by_levels = players * sum(math.comb(players - 1, size) for size in range(depth))
    return min(2**players, by_levels)


def icm_equities(stacks: Sequence[int], prizes: Sequence[Amount]) -> tuple[Fraction, ...]:
    """Every player's exact Malmuth–Harville equity, in the order of ``stacks``; they add up to ``sum(prizes)``.

    ``prizes[k]`` is the prize for place k + 1 (in cents, whole or rational). ValueError on bad input.
    """
    chips = checked_stacks(stacks)
    numerators, denominator = _exact_scaled(chips, checked_prizes(prizes, len(chips)))
    return tuple(Fraction(numerator, denominator) for numerator in numerators)


def _exact_scaled(chips: list[int], prizes: list[Amount]) -> tuple[list[int], int]:
    """The exact equities as numerators over one common denominator (not reduced)."""
    players = len(chips)
    certain, prize_numerators, prize_denominator = _folded_prizes(prizes, players)
    if not prize_numerators:
        return [certain] * players, prize_denominator
    divisor = reduce(math.gcd, chips)
    excess, denominator = _subset_programme([stack // divisor for stack in chips], prize_numerators)
    return [certain * denominator + share for share in excess], denominator * prize_denominator


def _folded_prizes(prizes: list[Amount], players: int) -> tuple[int, list[int], int]:
    """The prizes over their common denominator, as (certain, excess prizes, denominator): with every place paid,
    everyone is sure of the last prize (``certain``) and the places above pay their excess over it; unpaid places at
    the bottom (prize 0) are dropped."""
    prize_numerators, prize_denominator = _common_denominator(prizes)
    certain = 0
    if len(prize_numerators) == players:
        certain = prize_numerators[-1]
        prize_numerators = [prize - certain for prize in prize_numerators[:-1]]
    while prize_numerators and prize_numerators[-1] == 0:
        prize_numerators.pop()
    return certain, prize_numerators, prize_denominator


def _set_weights(players: int, prizes: list[int]) -> list[int]:
    """w(d) = Σ_{k>d} prize_k × (−1)^(k−1−d) × C(n−1−d, k−1−d) for d = 0 .. places − 1 (module docstring)."""
    places = len(prizes)
    return [
        sum(
            prizes[place - 1] * (-1) ** (place - 1 - size) * math.comb(players - 1 - size, place - 1 - size)
            for place in range(size + 1, places + 1)
        )
        for size in range(places)
    ]


def _subset_programme(chips: list[int], prizes: list[int]) -> tuple[list[int], int]:
    """Σ_j equities as ``numerators[j] / denominator`` by the sum over sets of the module docstring:
    E_j = s_j × Σ over sets D not holding j, |D| < places, of w(|D|) / R(D)."""
    players = len(chips)
    places = len(prizes)
    total_chips = sum(chips)
    weights = _set_weights(players, prizes)
    # Per value r of R(D): the summed weight of every set D with it, and of the sets holding each player.
    everyone: dict[int, int] = {}
    holding: list[dict[int, int]] = [{} for _ in range(players)]
    level: list[tuple[tuple[int, ...], int]] = [((), total_chips)]
    for size in range(places):
        weight = weights[size]
        if weight:
            for members, chips_outside in level:
                everyone[chips_outside] = everyone.get(chips_outside, 0) + weight
                for player in members:
                    own = holding[player]
                    own[chips_outside] = own.get(chips_outside, 0) + weight
        if size == places - 1:
            break
        level = [
            ((*members, player), chips_outside - chips[player])
            for members, chips_outside in level
            for player in range(members[-1] + 1 if members else 0, players)
        ]
    outside_values = sorted(everyone)
    tree = _product_tree(outside_values)
    numerators = []
    for player in range(players):
        own = holding[player]
        weights_by_value = [everyone[value] - own.get(value, 0) for value in outside_values]
        numerators.append(chips[player] * _tree_numerator(weights_by_value, tree))
    return numerators, tree[-1][0]


def _product_tree(values: list[int]) -> list[list[int]]:
    """Level by level, the products of pairs of the level below (the last level is the product of all values)."""
    tree = [values]
    while len(tree[-1]) > 1:
        below = tree[-1]
        tree.append([below[index] * below[index + 1] for index in range(0, len(below) - 1, 2)])
        if len(below) % 2:
            tree[-1].append(below[-1])
    return tree


def _tree_numerator(weights: list[int], tree: list[list[int]]) -> int:
    """Σ weights[i] / values[i] over the product of the values (the last level of ``tree``), as its numerator: the
    pairs are added up level by level (a/b + c/d = (ad + cb)/bd), so big numbers meet only near the top."""
    numerators = weights
    for below in tree[:-1]:
        numerators_above = [
            numerators[index] * below[index + 1] + numerators[index + 1] * below[index]
            for index in range(0, len(numerators) - 1, 2)
        ]
        if len(numerators) % 2:
            numerators_above.append(numerators[-1])
        numerators = numerators_above
    return numerators[0]


def _common_denominator(amounts: Sequence[Amount]) -> tuple[list[int], int]:
    denominator = math.lcm(*(Fraction(amount).denominator for amount in amounts))
    return [int(amount * denominator) for amount in amounts], denominator


def fixed_point_icm_equities(stacks: Sequence[int], prizes: Sequence[Amount]) -> IcmEquities:
    """Every player's Malmuth–Harville equity by the fixed-point sum over sets (module docstring): ``numerators[i] /
    denominator`` is at most the exact equity and less than a ``2^-64`` cent below it, ``bounds[i] / denominator``
    the proven room. Up to :data:`FIXED_POINT_TERM_LIMIT` terms (:func:`fixed_point_terms`); ValueError on bad input
    or more terms."""
    chips = checked_stacks(stacks)
    amounts = checked_prizes(prizes, len(chips))
    terms = fixed_point_terms(len(chips), len(amounts))
    if terms > FIXED_POINT_TERM_LIMIT:
        raise ValueError(
            f"{len(chips)} players paid {len(amounts)} places: the fixed-point method would compute {terms:,} terms,"
            f" more than the {FIXED_POINT_TERM_LIMIT:,} it takes (every field of up to 20 players, bigger ones paying"
            " few places); the exact method takes any size, however long"
        )
    numerators, bounds, denominator = _fixed_point_scaled(chips, amounts)
    return IcmEquities(IcmMethod.FIXED_POINT, tuple(numerators), denominator, bounds=tuple(bounds))


def _fixed_point_scaled(chips: list[int], prizes: list[Amount]) -> tuple[list[int], list[int], int]:
    """(lower numerators, bounds, denominator): the exact equity of player j lies in [lower_j, lower_j + bound_j]
    / denominator. Each term w(|D|) / R(D) is taken as ⌊w(|D|) × 2^shift / R(D)⌋, which is at most 1 below
    w(|D|) × 2^shift / R(D); player j's sum has N terms (the sets without j), so it is less than N below, and s_j × N
    over 2^shift × the prizes' denominator is less than 2^-64 cents by the choice of ``shift``."""
    players = len(chips)
    certain, prize_numerators, prize_denominator = _folded_prizes(prizes, players)
    if not prize_numerators:
        return [certain] * players, [0] * players, prize_denominator
    divisor = reduce(math.gcd, chips)
    scaled_chips = [stack // divisor for stack in chips]
    weights = _set_weights(players, prize_numerators)
    terms = sum(math.comb(players - 1, size) for size, weight in enumerate(weights) if weight)
    shift = max(scaled_chips).bit_length() + terms.bit_length() + _FIXED_POINT_MARGIN_BITS
    scaled_weights = [weight << shift for weight in weights]
    if 2**players <= fixed_point_terms(players, len(weights)):
        sums = _sums_over_sets_without_each_player(scaled_chips, scaled_weights)
    else:
        sums = _sums_over_sets_without_each_player_by_levels(scaled_chips, scaled_weights)
    numerators = [(certain << shift) + stack * own_sum for stack, own_sum in zip(scaled_chips, sums, strict=True)]
    return numerators, [stack * terms for stack in scaled_chips], prize_denominator << shift


def _sums_over_sets_without_each_player(chips: list[int], scaled_weights: list[int]) -> list[int]:
    """For each player j: Σ over sets D of players without j, |D| < len(scaled_weights), of
    ⌊scaled_weights[|D|] / R(D)⌋ (R(D): the chips outside D).

    Every set is a bit mask, and every list below has one entry per mask (2^n): the chips outside each set and each
    set's size are built by doubling (the sets with player k are the sets without k, plus k), the terms by one
    division each. The sums without each player are then read off by halving: the sets without the highest player
    are the lower half of the list, and for the players below, the two halves (with and without the highest player)
    are added entry by entry into a list half as long. Loops run in C (map, sum), not in Python per set.
    """
    players = len(chips)
    outside = [sum(chips)]
    sizes = b"\0"
    for stack in chips:
        outside += list(map(operator.sub, outside, repeat(stack)))
        sizes += sizes.translate(_ONE_MORE)
    # The set of everyone has R = 0; its weight is 0 (fewer places than players): divide by 1 instead.
    outside[-1] = 1
    weights_by_size = scaled_weights + [0] * (players + 1 - len(scaled_weights))
    terms = list(map(operator.floordiv, map(weights_by_size.__getitem__, sizes), outside))
    del outside, sizes
    sums = [0] * players
    half = len(terms)
    for player in reversed(range(players)):
        half //= 2
        sums[player] = sum(islice(terms, half))
        terms = list(map(operator.add, islice(terms, half), islice(terms, half, None)))
    return sums


def _sums_over_sets_without_each_player_by_levels(chips: list[int], scaled_weights: list[int]) -> list[int]:
    """:func:`_sums_over_sets_without_each_player` for big fields paying few places: for each player, the sets of the
    others by size (``itertools.combinations``, one C loop per size), without a list of every set."""
    total = sum(chips)
    sums = []
    for player in range(len(chips)):
        others = chips[:player] + chips[player + 1 :]
        own = 0
        for size, weight in enumerate(scaled_weights):
            if weight:
                outside = map(total.__sub__, map(sum, combinations(others, size)))
                own += sum(map(operator.floordiv, repeat(weight), outside))
        sums.append(own)
    return sums


def _fixed_point_cents(
    equities: IcmEquities, total: int, stacks: Sequence[int], seats: Sequence[int]
) -> tuple[int, ...] | None:
    """The cents of :func:`round_shares_to_cents` applied to the *exact* equities, read off fixed-point equities when
    their bounds decide them, else None.

    Decided when every exact share's whole cents are known (the share's room does not reach the next cent) and every
    player given a leftover cent is known to rank above every player not given one: the first's lowest possible
    remainder is above the second's highest, or both have the same stack — then their exact equities are equal (ICM
    is symmetric in the players), and so are the computed ones (each term depends on the size and the chips of its
    set only), and the tie goes as the cent rules say (larger stack, then the lower seat). Undecided cases need an
    exact tie (or a share or two remainders within 2^-64 cents of each other); they come with small stacks, where the
    exact fractions are quick.
    """
    assert equities.bounds is not None
    denominator = equities.denominator
    cents: list[int] = []
    lowest: list[int] = []
    highest: list[int] = []
    for numerator, bound in zip(equities.numerators, equities.bounds, strict=True):
        whole, remainder = divmod(numerator, denominator)
        if remainder + bound >= denominator:
            return None
        cents.append(whole)
        lowest.append(remainder)
        highest.append(remainder + bound)
    leftover = total - sum(cents)
    if not 0 <= leftover <= len(cents):
        return None
    by_claim = sorted(range(len(cents)), key=lambda position: (-lowest[position], -stacks[position], seats[position]))
    given, not_given = by_claim[:leftover], by_claim[leftover:]
    for above in given:
        for below in not_given:
            if stacks[above] != stacks[below] and lowest[above] <= highest[below]:
                return None
    for position in given:
        cents[position] += 1
    return tuple(cents)


def icm_equities_by_permutations(stacks: Sequence[int], prizes: Sequence[Amount]) -> tuple[Fraction, ...]:
    """The same equities by the textbook recursion over finishing orders (n!/(n−places)! orders).

    A slow, obviously correct reference for tests and the benchmark's peer; use :func:`icm_equities` otherwise.
    """
    chips = checked_stacks(stacks)
    amounts = checked_prizes(prizes, len(chips))
    equities = [Fraction(0)] * len(chips)

    def finish(still_in: tuple[int, ...], probability: Fraction, place: int) -> None:
        if place == len(amounts):
            return
        chips_in = sum(chips[player] for player in still_in)
        for player in still_in:
            reaching = probability * Fraction(chips[player], chips_in)
            equities[player] += reaching * amounts[place]
            finish(tuple(other for other in still_in if other != player), reaching, place + 1)

    finish(tuple(range(len(chips))), Fraction(1), 0)
    return tuple(equities)


def round_shares_to_cents(shares: Sequence[Fraction], stacks: Sequence[int], seats: Sequence[int]) -> tuple[int, ...]:
    """Whole cents for exact shares that add up to a whole number of cents (AMB-17, CXL-04, CXL-11).

    Each share is rounded down to the cent; the cents left over go one each to the largest remainders, ties to the
    larger stack, then to the lower seat number. The result adds up to ``sum(shares)``; no share moves by a cent or
    more. ValueError if a share is negative or the shares do not add up to whole cents.
    """
    denominator = math.lcm(*(share.denominator for share in shares))
    numerators = [share.numerator * (denominator // share.denominator) for share in shares]
    return round_scaled_shares_to_cents(numerators, denominator, stacks, seats)


def round_scaled_shares_to_cents(
    numerators: Sequence[int], denominator: int, stacks: Sequence[int], seats: Sequence[int]
) -> tuple[int, ...]:
    """:func:`round_shares_to_cents` for shares given as ``numerators[i] / denominator``: whole-number arithmetic
    only, so a thousand shares with denominators of thousands of digits round in milliseconds."""
    if not len(numerators) == len(stacks) == len(seats):
        raise ValueError("give one stack and one seat number per share")
    if any(numerator < 0 for numerator in numerators):
        raise ValueError("a share cannot be negative")
    total, remainder = divmod(sum(numerators), denominator)
    if remainder:
        raise ValueError(f"the shares add up to {Fraction(sum(numerators), denominator)}, not to whole cents")
    cents, remainders = zip(*(divmod(numerator, denominator) for numerator in numerators), strict=True)
    paid = list(cents)
    leftover = total - sum(paid)
    by_claim = sorted(
        range(len(paid)), key=lambda position: (-remainders[position], -stacks[position], seats[position])
    )
    for position in by_claim[:leftover]:
        paid[position] += 1
    return tuple(paid)


def approximate_icm_equities(
    stacks: Sequence[int], prizes: Sequence[Amount], *, samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED
) -> IcmEquities:
    """Malmuth–Harville equities estimated as described in the module docstring (places 1–2 exact, the rest sampled).

    ``samples`` finishing orders are drawn from ``random.Random(seed)``. ValueError on bad input.
    """
    chips = checked_stacks(stacks)
    amounts = checked_prizes(prizes, len(chips))
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 2:
        raise ValueError(f"samples is {samples!r}: at least 2 finishing orders are needed for a standard error")
    players = len(chips)
    prize_numerators, prize_denominator = _common_denominator(amounts)
    exact_numerators, exact_denominator = _first_two_places(chips, prize_numerators)
    sampled_sums, sampled_squares = _sample_lower_places(chips, prize_numerators, samples, random.Random(seed))
    sampled = _whole_units(
        [total / samples for total in sampled_sums], sum(prize_numerators[_EXACTLY_COMPUTED_PLACES:]) * _UNITS
    )
    # equity = (exact numerator / exact denominator + sampled units / units) / prize denominator
    numerators = tuple(
        exact_numerators[player] * _UNITS + sampled[player] * exact_denominator for player in range(players)
    )
    standard_errors = []
    for player in range(players):
        spread = sampled_squares[player] - sampled_sums[player] ** 2 / samples
        standard_errors.append(math.sqrt(max(spread, 0.0) / (samples - 1) / samples) / prize_denominator)
    return IcmEquities(
        IcmMethod.MONTE_CARLO,
        numerators,
        exact_denominator * _UNITS * prize_denominator,
        tuple(standard_errors),
        samples,
        seed,
    )


def _whole_units(means: list[float], total_units: int) -> list[int]:
    """The sampled means in millionths, made to add up to ``total_units`` exactly: the float sums miss the exact total
    by rounding only, and that difference (a few millionths) goes to the largest mean."""
    units = [round(mean * _UNITS) for mean in means]
    largest = max(range(len(units)), key=units.__getitem__)
    units[largest] += total_units - sum(units)
    return units


def _first_two_places(chips: list[int], prizes: list[int]) -> tuple[list[int], int]:
    """Σ over places 1 and 2 of P(place) × prize, exactly, in linear time: numerators over one common denominator.

    P(j first) = s_j / T; P(j second) = s_j / T × (A − s_j / (T − s_j)) with A = Σ_i s_i / (T − s_i), all over
    T × L with L = lcm(T − s_i).
    """
    total = sum(chips)
    if len(prizes) < 2 or prizes[1] == 0 or len(chips) < 2:
        return [prizes[0] * stack for stack in chips], total
    common = math.lcm(*(total - stack for stack in chips))
    scaled = [stack * (common // (total - stack)) for stack in chips]
    sum_scaled = sum(scaled)
    numerators = [
        stack * (prizes[0] * common + prizes[1] * (sum_scaled - own)) for stack, own in zip(chips, scaled, strict=True)
    ]
    return numerators, total * common


def _sample_lower_places(
    chips: list[int], prizes: list[int], samples: int, generator: random.Random
) -> tuple[list[float], list[float]]:
    """Per player, the sum and the sum of squares over sampled orders of the credit for places 3 and below.

    Conditional Monte Carlo: in each sampled order, every player still in when place k is decided is credited
    prize_k × stack / chips still in — their chance of place k given the players above, whose expectation is exactly
    P(place k) × prize_k — instead of prize_k to the one sampled finisher. For big fields this spreads far less (a
    tenth of the standard error at 1,000 players). Players below the paid places are credited at the full rate; that
    common part is added in bulk after the loop, so a sample costs the draw plus work for the paid places only.
    """
    players = len(chips)
    sums = [0.0] * players
    squares = [0.0] * players
    depth = max((place + 1 for place, prize in enumerate(prizes) if prize), default=0)
    if depth <= _EXACTLY_COMPUTED_PLACES:
        return sums, squares
    lower_prizes = [float(prize) if place >= _EXACTLY_COMPUTED_PLACES else 0.0 for place, prize in enumerate(prizes)]
    lower_prizes = lower_prizes[:depth]
    total_chips = sum(chips)
    inverse_chips = [1.0 / stack for stack in chips]
    chip_squares = [float(stack) * stack for stack in chips]
    everyone = range(players)
    draw = generator.random
    log = math.log
    rate_sum = rate_square_sum = 0.0
    for _ in range(samples):
        # log(U) / s_j ≤ 0: the largest key finishes first (the exponential race, negated).
        keys = [log(1.0 - draw()) * inverse for inverse in inverse_chips]
        if depth * 8 < players:
            top = heapq.nlargest(depth, everyone, key=keys.__getitem__)
        else:
            top = sorted(everyone, key=keys.__getitem__, reverse=True)[:depth]
        # chips_in[k]: chips still in when place k + 1 is decided; rates[p]: Σ prize_k / chips_in over the places
        # a player finishing in place p + 1 was in for.
        chips_in = accumulate((chips[player] for player in top), operator.sub, initial=total_chips)
        rates = list(accumulate(map(operator.truediv, lower_prizes, chips_in)))
        rate = rates[-1]
        rate_sum += rate
        rate_square_sum += rate * rate
        for player, own_rate in zip(top, rates, strict=True):
            # The bulk step below credits every player stack × rate; the paid ones get their own rate instead.
            sums[player] += chips[player] * (own_rate - rate)
            squares[player] += chip_squares[player] * (own_rate * own_rate - rate * rate)
    for player, stack in enumerate(chips):
        sums[player] += stack * rate_sum
        squares[player] += stack * stack * rate_square_sum
    return sums, squares


@dataclass(frozen=True)
class IcmEquities:
    """Equities by one method, as ``numerators[i] / denominator`` (one common denominator, not reduced: reducing a
    thousand estimates with denominators of thousands of digits costs seconds). The Monte-Carlo method adds each
    estimate's standard error (cents) and the sampler's settings; the fixed-point method adds ``bounds``: player i's
    exact equity lies in [numerators[i], numerators[i] + bounds[i]] / denominator, less than 2^-64 cents wide."""

    method: IcmMethod
    numerators: tuple[int, ...]
    denominator: int
    standard_errors: tuple[float, ...] | None = None
    samples: int | None = None
    seed: int | None = None
    bounds: tuple[int, ...] | None = None

    @cached_property
    def equities(self) -> tuple[Fraction, ...]:
        """The equities as reduced fractions."""
        return tuple(Fraction(numerator, self.denominator) for numerator in self.numerators)


def chop_equities(
    stacks: Sequence[int],
    prizes: Sequence[Amount],
    *,
    method: IcmMethod | None = None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
) -> IcmEquities:
    """The equities of a chop by ``method``; None picks :func:`default_method`. ValueError on bad input (and for the
    fixed-point method, more than :data:`FIXED_POINT_PLAYER_LIMIT` players)."""
    chips = checked_stacks(stacks)
    amounts = checked_prizes(prizes, len(chips))
    if method is None:
        method = default_method(len(chips), len(amounts))
    if method is IcmMethod.EXACT:
        numerators, denominator = _exact_scaled(chips, amounts)
        return IcmEquities(method, tuple(numerators), denominator)
    if method is IcmMethod.FIXED_POINT:
        return fixed_point_icm_equities(chips, amounts)
    return approximate_icm_equities(chips, amounts, samples=samples, seed=seed)


def default_method(players: int, paid_places: int) -> IcmMethod:
    """Exact fractions while the exact method takes at most :data:`EXACT_STEP_LIMIT` steps, the fixed-point method
    (the cents of the exact shares) up to :data:`FIXED_POINT_TERM_LIMIT` terms, the approximation beyond."""
    if exact_steps(players, paid_places) <= EXACT_STEP_LIMIT:
        return IcmMethod.EXACT
    if fixed_point_terms(players, paid_places) <= FIXED_POINT_TERM_LIMIT:
        return IcmMethod.FIXED_POINT
    return IcmMethod.MONTE_CARLO


@dataclass(frozen=True)
class IcmChop:
    """A chop: the input, the equities (exact or estimated) and each player's whole cents after the cent rules."""

    stacks: tuple[int, ...]
    seats: tuple[int, ...]
    prizes: tuple[Amount, ...]
    equities: IcmEquities
    cents: tuple[int, ...]


def icm_chop(
    stacks: Sequence[int],
    prizes: Sequence[Amount],
    seats: Sequence[int] | None = None,
    *,
    method: IcmMethod | None = None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
) -> IcmChop:
    """Chop ``prizes`` (cents, first place first, adding up to whole cents) among ``stacks`` by ICM (CXL-11).

    ``method``, ``samples`` and ``seed`` as for :func:`chop_equities`. ``seats`` orders ties in the cent rules (lower
    first); default 1..n in the order of ``stacks``. The fixed-point method's cents are those of the exact shares:
    when its bounds do not decide them (a share within 2^-64 cents of a whole cent, two remainders as close), the
    chop is computed again by the exact method, and says so (method "exact"). ValueError on bad input.
    """
    chips = checked_stacks(stacks)
    amounts = checked_prizes(prizes, len(chips))
    seat_numbers = checked_seats(seats, len(chips))
    total = sum(amounts, Fraction(0))
    if total.denominator != 1:
        raise ValueError(f"the prizes add up to {total} cents: a chop pays whole cents")
    equities = chop_equities(chips, amounts, method=method, samples=samples, seed=seed)
    cents = None
    if equities.method is IcmMethod.FIXED_POINT:
        cents = _fixed_point_cents(equities, int(total), chips, seat_numbers)
        if cents is None:
            equities = chop_equities(chips, amounts, method=IcmMethod.EXACT)
    if cents is None:
        cents = round_scaled_shares_to_cents(equities.numerators, equities.denominator, chips, seat_numbers)
    return IcmChop(tuple(chips), tuple(seat_numbers), tuple(amounts), equities, cents)


def fraction_text(value: Fraction) -> str:
    """``"numerator/denominator"`` in decimal digits, also beyond Python's 4,300-digit ``str(int)`` limit."""
    return f"{_decimal_digits(value.numerator)}/{_decimal_digits(value.denominator)}"


_DIGITS_PER_PIECE: Final[int] = 4_000


def _decimal_digits(number: int) -> str:
    if number < 0:
        return "-" + _decimal_digits(-number)
    if number < 10**_DIGITS_PER_PIECE:
        return str(number)
    # Split around a power of ten of about half the digits; the low half keeps its leading zeros.
    half = int(number.bit_length() * math.log10(2)) // 2
    high, low = divmod(number, 10**half)
    return _decimal_digits(high) + _decimal_digits(low).rjust(half, "0")
