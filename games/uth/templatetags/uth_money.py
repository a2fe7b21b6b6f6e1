"""``{{ cents|euros }}`` → "€12.50" on the UTH pages."""

from django import template

from games.engine.uth.money import format_cents

register = template.Library()


@register.filter
def euros(cents: object) -> str:
    try:
        return format_cents(int(cents))  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return ""
