"""``{{ cents|money }}``: integer cents shown as money in the page's language (``€12.34`` / ``12,34 €``).

The JavaScript formatter in static/js/common.js (``Poker.money``) writes the same text, so a figure looks the same
whether the server rendered it or a live update replaced it.
"""

from __future__ import annotations

from django import template
from django.utils.translation import get_language

register = template.Library()

SYMBOLS = {"EUR": "€"}


def format_money(cents: int, currency: str = "EUR", language: str | None = None) -> str:
    """Exact integer formatting: English ``€1,234.56``, Estonian ``1 234,56 €`` (non-breaking spaces)."""
    cents = int(cents)
    sign = "-" if cents < 0 else ""
    whole, fraction = divmod(abs(cents), 100)
    symbol = SYMBOLS.get(currency, currency)
    if (language or get_language() or "en").startswith("et"):
        grouped = f"{whole:,}".replace(",", "\u00a0")
        return f"{sign}{grouped},{fraction:02d}\u00a0{symbol}"
    return f"{sign}{symbol}{whole:,}.{fraction:02d}"


@register.filter(name="money")
def money(cents: object, currency: str = "EUR") -> str:
    """Template filter; an empty or non-numeric value renders as an empty string rather than a wrong amount."""
    if cents is None or cents == "":
        return ""
    try:
        return format_money(int(cents), currency)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return ""
