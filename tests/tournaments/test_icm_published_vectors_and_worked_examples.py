"""ICM chop (CXL-11, AMB-17): the catalog's worked examples to the cent and the published vectors to 1e-4."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.rules.icm import IcmMethod, icm_chop, icm_equities

NINE_STACKS = (4000, 3000, 2500, 1500, 1000, 750, 500, 400, 350)


def test_cxl07_worked_example_exact_values_and_cents() -> None:
    """CXL-07: stacks 5,000/3,000/2,000, prizes €50/€30/€20 → €38.392857…/€32.75/€28.857142… → €38.39/€32.75/€28.86."""
    chop = icm_chop([5000, 3000, 2000], [5000, 3000, 2000])
    assert chop.equities.method is IcmMethod.EXACT
    assert chop.equities.equities == (Fraction(26875, 7), Fraction(3275), Fraction(20200, 7))
    assert chop.cents == (3839, 3275, 2886)
    assert sum(chop.cents) == 10000


def test_cxl09_icm_part_of_the_hexapro_example() -> None:
    """CXL-09: the €175 rest chopped with 80/12/8 (€140/€21/€14) over 700/500/300 chips → €75.25/€58.625/€41.125,
    paid €75.25/€58.63/€41.12: the two equal half-cent remainders go to the larger stack."""
    chop = icm_chop([700, 500, 300], [14000, 2100, 1400])
    assert chop.equities.equities == (Fraction(7525), Fraction(11725, 2), Fraction(8225, 2))
    assert chop.cents == (7525, 5863, 4112)


def test_published_three_player_vector_to_one_ten_thousandth() -> None:
    """CXL-11: stacks 50/30/20 with prizes 70/30 → 45.1786 / 32.2500 / 22.5714."""
    equities = icm_equities([50, 30, 20], [70, 30])
    assert [float(equity) for equity in equities] == pytest.approx([45.1786, 32.2500, 22.5714], abs=1e-4)
    assert sum(equities) == 100


def test_published_nine_player_vector_to_one_ten_thousandth() -> None:
    """CXL-11: nine stacks 4000 … 350 with prizes 50/30/20 → 25.2127, 20.6682, … 2.9162."""
    equities = icm_equities(NINE_STACKS, [50, 30, 20])
    expected = [25.2127, 20.6682, 17.9803, 11.6405, 8.0199, 6.1074, 4.1312, 3.3236, 2.9162]
    assert [float(equity) for equity in equities] == pytest.approx(expected, abs=1e-4)
    assert sum(equities) == 100


def test_the_first_place_probability_is_the_chip_share() -> None:
    """CXL-11: with one prize, each player's equity is prize × stack / total chips."""
    assert icm_equities([7, 2, 1], [1000]) == (Fraction(700), Fraction(200), Fraction(100))
