"""``{{ cents|euros }}`` on the UTH pages: money in the page's language ("€12.50" / "12,50 €"), the same text as the
site's ``|money`` filter and the pages' JavaScript (``Poker.money``)."""

from django import template
from django.utils.translation import get_language

from poker_site.core.templatetags.money import format_money

register = template.Library()


@register.filter
def euros(cents: object) -> str:
    try:
        return format_money(int(cents))  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return ""


@register.filter
def percent_text(value: object) -> str:
    """A percentage written by the server ("99.47%", as the snapshot's RTP) with the page language's decimal mark:
    "99,47%" in Estonian, like the amounts ("424,00 €")."""
    text = str(value)
    if (get_language() or "en").startswith("et"):
        return text.replace(".", ",")
    return text
