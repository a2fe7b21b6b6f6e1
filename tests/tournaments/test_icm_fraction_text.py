"""CXL-11: exact shares are written as "numerator/denominator" in full, also beyond Python's 4,300-digit limit for
``str(int)`` (a ten- or twelve-player chop paying every place has denominators of thousands of digits)."""

from __future__ import annotations

from fractions import Fraction

from tournaments.rules.icm import fraction_text


def digits_to_int(text: str) -> int:
    value = 0
    for start in range(0, len(text), 1_000):
        chunk = text[start : start + 1_000]
        value = value * 10 ** len(chunk) + int(chunk)
    return value


def test_cxl11_small_fractions_are_numerator_slash_denominator() -> None:
    assert fraction_text(Fraction(26_875, 7)) == "26875/7"
    assert fraction_text(Fraction(3_275)) == "3275/1"


def test_cxl11_fractions_beyond_the_digit_limit_are_written_in_full() -> None:
    huge = Fraction(10**9_000 + 7, 3**9_001)
    numerator, denominator = fraction_text(huge).split("/")
    assert numerator == "1" + "0" * 8_999 + "7"
    assert digits_to_int(denominator) == 3**9_001
    assert len(denominator) == 4_295


def test_cxl11_a_power_of_ten_boundary_keeps_its_inner_zeros() -> None:
    value = 10**8_000 * 123 + 45
    numerator, _ = fraction_text(Fraction(value)).split("/")
    assert digits_to_int(numerator) == value
