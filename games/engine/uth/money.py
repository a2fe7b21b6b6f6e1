"""Money as text for player-facing messages. Amounts are integer euro cents everywhere (GEN-06)."""

from __future__ import annotations


def format_cents(amount: int) -> str:
    """ "€12.50", "€0.05", "-€3.00": euros with two decimals, from integer cents."""
    sign = "-" if amount < 0 else ""
    euros, cents = divmod(abs(amount), 100)
    return f"{sign}€{euros:,}.{cents:02d}"
