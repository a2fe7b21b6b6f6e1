"""Filters of the HexaPro pages: ``{{ tenths|multiplier }}`` (``1.5x``), ``{{ share|fraction_percent }}`` (a Fraction
as ``6.853 %``) and ``{{ value|decimal_places:2 }}`` (a Fraction rounded half up)."""

from __future__ import annotations

from fractions import Fraction

from django import template

from tournaments.rules.hexapro import multiplier_text, percent_text

register = template.Library()


@register.filter(name="multiplier")
def multiplier(tenths: object) -> str:
    return multiplier_text(int(tenths)) if isinstance(tenths, int) and tenths > 0 else ""


@register.filter(name="fraction_percent")
def fraction_percent(value: object) -> str:
    return percent_text(Fraction(value)) if isinstance(value, Fraction | int) else "—"


@register.filter(name="decimal_places")
def decimal_places(value: object, places: int = 2) -> str:
    if not isinstance(value, Fraction | int):
        return ""
    scaled = (Fraction(value) * 10**places * 2 + 1) // 2
    units, decimals = divmod(scaled, 10**places)
    return f"{units}.{decimals:0{places}d}" if places else str(units)
