"""An amount with more whole-euro digits than the wallet takes ("99999999999999") is refused as too large, with the
words that say so, not as "not an amount in euros" (QA report i, finding 8)."""

from __future__ import annotations

import pytest

from wallet.errors import InvalidAmount
from wallet.services import parse_euros_to_cents


@pytest.mark.parametrize("text", ["99999999999999", "99999999999999.99", "123456789012345678901234567890"])
def test_a_too_large_amount_is_beyond_what_the_wallet_accepts(text: str) -> None:
    with pytest.raises(InvalidAmount, match="That amount is beyond what the wallet accepts"):
        parse_euros_to_cents(text)


def test_the_largest_amount_is_still_taken() -> None:
    assert parse_euros_to_cents("10000000000") == 10**12
