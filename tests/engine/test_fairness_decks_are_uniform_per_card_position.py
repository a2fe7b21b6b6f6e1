"""Provably fair decks (issue 29, CARD-02, GEN-08): 100,000 derived decks pass a chi-square test per card position.

Each of the 52 positions of the deck gets a goodness-of-fit test of its 52 card counts against the uniform
expectation (100,000 / 52 each, 51 degrees of freedom). The server seeds are fixed (SHA-256 of the deck's number), so
the test is reproducible; with 52 tests, the threshold 1e-4 keeps the chance that a fair derivation fails below 0.6 %.
A biased derivation (modulo instead of rejection, or an off-by-one Fisher-Yates) fails it by far.
"""

from __future__ import annotations

import hashlib

from games.engine.fairness import KeyedStream, derived_order, seed_material
from tournaments.rules.hexapro_audit import chi_square_survival

DECKS = 100_000
CARDS = 52
THRESHOLD = 1e-4


def position_statistics(decks: list[list[int]]) -> list[float]:
    counts = [0] * (CARDS * CARDS)
    for deck in decks:
        for position, card in enumerate(deck):
            counts[position * CARDS + card] += 1
    expected = len(decks) / CARDS
    return [
        sum((counts[position * CARDS + card] - expected) ** 2 / expected for card in range(CARDS))
        for position in range(CARDS)
    ]


def derived_decks(count: int) -> list[list[int]]:
    items = list(range(CARDS))
    return [
        derived_order(items, hashlib.sha256(number.to_bytes(8, "big")).digest(), {1: b"c"}, "deck/v1/table/1/hand/1")
        for number in range(count)
    ]


def test_100_000_derived_decks_pass_a_chi_square_test_at_every_card_position() -> None:
    statistics = position_statistics(derived_decks(DECKS))
    p_values = [chi_square_survival(statistic, CARDS - 1) for statistic in statistics]
    assert min(p_values) > THRESHOLD, sorted(p_values)[:3]
    # Together: the mean statistic is close to the degrees of freedom (51); sd of the mean about 10 / sqrt(52).
    assert abs(sum(statistics) / CARDS - (CARDS - 1)) < 6


def test_a_modulo_biased_shuffle_would_fail_the_same_test() -> None:
    """The test has teeth: the same stream with ``byte % (i + 1)`` and no rejection is caught in 20,000 decks."""

    def biased(number: int) -> list[int]:
        stream = KeyedStream(hashlib.sha256(number.to_bytes(8, "big")).digest(), seed_material("biased", {}))
        deck = list(range(CARDS))
        for i in range(CARDS - 1, 0, -1):
            j = stream.read(1)[0] % (i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    statistics = position_statistics([biased(number) for number in range(20_000)])
    assert min(chi_square_survival(statistic, CARDS - 1) for statistic in statistics) < THRESHOLD
