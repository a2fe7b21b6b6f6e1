"""AMB-17 / CXL-11: ICM is exact. The sum over sets of players gives exactly the earlier programme over the
probabilities of sets (itself checked against the recursion over finishing orders); 14 players paid every place — where
the Monte-Carlo estimate used to take over, off by up to €72 — are chopped by default by the fixed-point method, whose
proven bounds hold the exact shares and whose cents are the exact method's; beyond 20 players ``manage.py icm`` says
that its output is an estimate, with the error bound."""

from __future__ import annotations

import json
import math
import random
import sys
from fractions import Fraction
from io import StringIO

from django.core.management import call_command

from tournaments.rules.icm import (
    EXACT_STEP_LIMIT,
    FIXED_POINT_TERM_LIMIT,
    IcmMethod,
    exact_steps,
    fixed_point_terms,
    icm_chop,
    icm_equities,
)


def equities_by_set_probabilities(stacks: list[int], prizes: list[int]) -> tuple[Fraction, ...]:
    """The earlier exact method, as a reference: q(S), the probability that the players of S took the top |S|
    places, grows one place at a time (q(S ∪ {j}) = Σ q(S) × s_j / R(S)); player j takes place |S| + 1 with
    q(S) × s_j / R(S)."""
    players = len(stacks)
    total = sum(stacks)
    equities = [Fraction(0)] * players
    probability: dict[frozenset[int], Fraction] = {frozenset(): Fraction(1)}
    for prize in prizes:
        grown: dict[frozenset[int], Fraction] = {}
        for members, chance in probability.items():
            chips_outside = total - sum(stacks[player] for player in members)
            for player in range(players):
                if player in members:
                    continue
                step = chance * Fraction(stacks[player], chips_outside)
                equities[player] += step * prize
                grown[members | {player}] = grown.get(members | {player}, Fraction(0)) + step
        probability = grown
    return tuple(equities)


def test_amb_17_the_sum_over_sets_equals_the_earlier_set_probability_programme() -> None:
    generator = random.Random(17)
    for players in range(1, 10):
        for places in range(1, players + 1):
            stacks = [generator.randint(1, 60_000) for _ in range(players)]
            prizes = sorted((generator.randint(0, 500_000) for _ in range(places)), reverse=True)
            prizes[0] += 1
            assert icm_equities(stacks, prizes) == equities_by_set_probabilities(stacks, prizes), (stacks, prizes)


def test_amb_17_fourteen_players_paid_every_place_are_chopped_exactly_by_default() -> None:
    stacks = [3 * player + 1 for player in range(14)]  # small stacks keep the reference quick
    prizes = [100_000 // place for place in range(1, 15)]
    chop = icm_chop(stacks, prizes)
    assert chop.equities.method is IcmMethod.FIXED_POINT
    assert chop.equities.bounds is not None
    exact = equities_by_set_probabilities(stacks, prizes)
    denominator = chop.equities.denominator
    for numerator, bound, share in zip(chop.equities.numerators, chop.equities.bounds, exact, strict=True):
        assert Fraction(numerator, denominator) <= share <= Fraction(numerator + bound, denominator)
        assert Fraction(bound, denominator) < Fraction(1, 2**64)
    assert chop.cents == icm_chop(stacks, prizes, method=IcmMethod.EXACT).cents
    assert sum(chop.cents) == sum(prizes)
    assert all(math.floor(share) <= cents <= math.ceil(share) for share, cents in zip(exact, chop.cents, strict=True))


def test_amb_17_fourteen_real_stacks_paid_every_place_pay_the_exact_cents_by_default_in_the_command() -> None:
    generator = random.Random(14)
    stacks = [generator.randint(1_000, 60_000) for _ in range(14)]
    prizes = [1_000_000 // place for place in range(1, 15)]
    assert exact_steps(14, 14) > EXACT_STEP_LIMIT
    out = StringIO()
    call_command("icm", "--stacks", *map(str, stacks), "--prizes", *map(str, prizes), stdout=out)
    printed = json.loads(out.getvalue())
    assert printed["method"] == "fixed-point"
    assert "estimate" not in printed
    assert "exact cents" in printed["precision"]
    exact = icm_chop(stacks, prizes, method=IcmMethod.EXACT)
    assert [player["cents"] for player in printed["players"]] == list(exact.cents)
    for player, share in zip(printed["players"], exact.equities.equities, strict=True):
        assert abs(Fraction(player["share_decimal"]) - share) <= Fraction(1, 10**6)
    assert printed["total_cents"] == sum(prizes)


def test_amb_17_the_exact_method_still_prints_every_digit_when_asked() -> None:
    generator = random.Random(14)
    stacks = [generator.randint(1_000, 60_000) for _ in range(14)]
    prizes = [1_000_000 // place for place in range(1, 15)]
    out = StringIO()
    call_command("icm", "--exact", "--stacks", *map(str, stacks), "--prizes", *map(str, prizes), stdout=out)
    printed = json.loads(out.getvalue())
    assert printed["method"] == "exact"
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # the exact shares have thousands of digits
    try:
        shares = [Fraction(player["share"]) for player in printed["players"]]
    finally:
        sys.set_int_max_str_digits(limit)
    assert sum(shares) == sum(prizes)
    assert sum(player["cents"] for player in printed["players"]) == sum(prizes)


def test_amb_17_beyond_the_fixed_point_limit_the_command_says_estimate_with_the_error_bound() -> None:
    players = 21
    stacks = [1_000 + 37 * player for player in range(players)]
    prizes = [150_000 // place for place in range(1, players + 1)]
    assert exact_steps(players, players) > EXACT_STEP_LIMIT
    assert fixed_point_terms(players, players) > FIXED_POINT_TERM_LIMIT
    out = StringIO()
    call_command("icm", "--stacks", *map(str, stacks), "--prizes", *map(str, prizes), "--samples", "200", stdout=out)
    printed = json.loads(out.getvalue())
    assert printed["method"] == "monte-carlo"
    assert printed["estimate"].startswith("Monte-Carlo estimate, not the exact ICM share")
    assert "--exact" in printed["estimate"]
    assert f"more than the {FIXED_POINT_TERM_LIMIT:,} it takes" in printed["estimate"]
    assert "4 standard errors" in printed["error_bound"]
