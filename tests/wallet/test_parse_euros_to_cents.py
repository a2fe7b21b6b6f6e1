"""Amounts typed by people are parsed strictly into integer cents: a decimal point or a decimal comma ("50,50"), at
most two decimals, nothing else."""

from __future__ import annotations

import pytest

from wallet.errors import InvalidAmount
from wallet.services import parse_euros_to_cents


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("12.34", 1234),
        ("12", 1200),
        ("12.3", 1230),
        ("0.5", 50),
        ("0.01", 1),
        ("  7.00 ", 700),
        ("5000", 500_000),
        ("10000000000", 1_000_000_000_000),
        ("50,50", 5050),  # a decimal comma, as Estonians write it
        ("12,3", 1230),
        ("0,05", 5),
    ],
)
def test_well_formed_euro_amounts_become_cents(text: str, cents: int) -> None:
    assert parse_euros_to_cents(text) == cents


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Enter an amount"),
        ("   ", "Enter an amount"),
        ("-5", "must be positive"),
        ("-0.01", "must be positive"),
        ("+5", "not an amount"),
        ("12.345", "at most two decimals"),
        ("1e3", "not an amount"),
        ("NaN", "not an amount"),
        ("nan", "not an amount"),
        ("Infinity", "not an amount"),
        ("1,000", "at most two decimals"),  # a comma is never a thousands separator
        ("1,000.50", "not an amount"),
        ("12,", "not an amount"),
        (",5", "not an amount"),
        ("1,2,3", "not an amount"),
        ("1 000", "not an amount"),
        ("12.", "not an amount"),
        (".5", "not an amount"),
        ("0012", "not an amount"),
        ("0x10", "not an amount"),
        ("١٢", "not an amount"),  # Arabic-Indic digits
        ("１２", "not an amount"),  # full-width digits
        ("0", "more than zero"),
        ("0.00", "more than zero"),
        ("10000000000.01", "beyond"),
        ("9" * 40, "too long"),
        ("€5", "not an amount"),
    ],
)
def test_malformed_amounts_are_refused_with_a_clear_message(text: str, message: str) -> None:
    with pytest.raises(InvalidAmount, match=message):
        parse_euros_to_cents(text)


@pytest.mark.parametrize("value", [12, 12.5, None, b"12"])
def test_only_text_is_parsed(value: object) -> None:
    with pytest.raises(InvalidAmount, match="as text"):
        parse_euros_to_cents(value)
