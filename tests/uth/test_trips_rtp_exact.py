"""The Trips return is computed exactly by counting every 7-card hand by class (UTH-19, UTH-21)."""

from __future__ import annotations

from fractions import Fraction
from math import comb

from games.engine.uth.paytables import HandClass
from games.engine.uth.rtp import PUBLISHED_TRIPS_RTP, seven_card_class_counts, trips_rtp_exact

# The standard table of 7-card poker hands by best five-card hand (133,784,560 in all).
KNOWN_SEVEN_CARD_COUNTS = {
    HandClass.ROYAL_FLUSH: 4_324,
    HandClass.STRAIGHT_FLUSH: 37_260,
    HandClass.FOUR_OF_A_KIND: 224_848,
    HandClass.FULL_HOUSE: 3_473_184,
    HandClass.FLUSH: 4_047_644,
    HandClass.STRAIGHT: 6_180_020,
    HandClass.THREE_OF_A_KIND: 6_461_620,
    HandClass.TWO_PAIR: 31_433_400,
    HandClass.PAIR: 58_627_800,
    HandClass.HIGH_CARD: 23_294_460,
}


def test_counting_by_structure_finds_every_seven_card_hand_in_its_class() -> None:
    counts = seven_card_class_counts()
    assert counts == KNOWN_SEVEN_CARD_COUNTS
    assert sum(counts.values()) == comb(52, 7)


def test_uth_21_the_exact_trips_return_is_the_published_96_50_percent() -> None:
    exact = trips_rtp_exact()
    assert exact == Fraction(129_104_860, 133_784_560)
    assert round(exact * 100, 2) == Fraction(9650, 100)
    assert round(exact, 4) == PUBLISHED_TRIPS_RTP
