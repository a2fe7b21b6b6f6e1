"""``{{ cents|euros }}`` on the UTH pages: money in the page's language ("€12.50" / "12,50 €"), the same text as the
site's ``|money`` filter and the pages' JavaScript (``Poker.money``)."""

from django import template

from poker_site.core.templatetags.money import format_money

register = template.Library()


@register.filter
def euros(cents: object) -> str:
    try:
        return format_money(int(cents))  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return ""
