"""Strict parsing of amounts people type ("12.34" or "12,34" euros) into integer cents."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

from wallet.errors import InvalidAmount
from wallet.services.ledger import MAX_AMOUNT_CENTS

# Digits are ASCII only (``\d`` would accept Arabic-Indic and full-width digits); no sign, exponent, grouping or
# leading zeros; at most two decimals; the decimal separator — a point, or a comma as Estonians write it ("50,50") —
# must have digits on both sides. A comma is never a thousands separator: "1,000" has three decimals and is refused.
# Any number of whole-euro digits (the text is at most _MAX_TEXT_LENGTH long): a sum too large is refused by its size,
# with the words that say so, not as "not an amount".
_EUROS = re.compile(r"(0|[1-9][0-9]*)(?:[.,]([0-9]{1,2}))?")
_MAX_TEXT_LENGTH = 32


def parse_euros_to_cents(text: object) -> int:
    """``"12.34"`` → ``1234``; ``"50,50"`` → ``5050`` (a decimal comma); ``"5"`` → ``500``; ``"0.5"`` → ``50``.
    Surrounding spaces are ignored.

    Raises ``InvalidAmount`` with a message fit for the person who typed it for anything else: empty, zero,
    negative or signed, more than two decimals, exponents ("1e3"), "NaN"/"Infinity", thousands separators,
    non-ASCII digits, or more than ``MAX_AMOUNT_CENTS`` (however many digits: "99999999999999" is too large, not
    "not an amount"). The same rule as the pages' ``Poker.parseMoney``. The messages are in the active language.
    """
    if not isinstance(text, str):
        raise InvalidAmount(_("Enter the amount as text in euros, for example 12.34."))
    stripped = text.strip()
    if not stripped:
        raise InvalidAmount(_("Enter an amount in euros, for example 12.34."))
    if len(stripped) > _MAX_TEXT_LENGTH:
        raise InvalidAmount(_("That amount is too long to be a sum of money."))
    if stripped.startswith("-"):
        raise InvalidAmount(_("The amount must be positive."))
    match = _EUROS.fullmatch(stripped)
    if match is None:
        if re.fullmatch(r"[0-9]+[.,][0-9]{3,}", stripped):
            raise InvalidAmount(_("Use at most two decimals (whole cents), for example 12.34."))
        raise InvalidAmount(
            _("%(text)s is not an amount in euros; write it like 12.34 or 12,34.") % {"text": repr(stripped)}
        )
    whole, fraction = match.group(1), match.group(2) or ""
    cents = int(whole) * 100 + int(fraction.ljust(2, "0") or "0")
    if cents == 0:
        raise InvalidAmount(_("The amount must be more than zero."))
    if cents > MAX_AMOUNT_CENTS:
        raise InvalidAmount(_("That amount is beyond what the wallet accepts."))
    return cents
