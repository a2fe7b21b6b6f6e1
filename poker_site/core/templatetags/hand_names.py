"""``{{ name|hand_name }}``: a poker hand's name in the page's language.

The engine names hands in English (``games.engine.evaluation.strength_name``: "Two Pair, Kings and Sixes",
``HandCategory.display_name``: "Full House"); the engine stays free of Django, so the names are translated here, by
the same patterns as ``Poker.handName`` in static/js/common.js. A name that fits no pattern is shown as it is.
"""

from __future__ import annotations

import re
from typing import Final

from django import template
from django.utils.translation import gettext, gettext_noop

register = template.Library()

RANKS: Final[dict[str, str]] = {
    name: name
    for name in (
        gettext_noop("Ace"),
        gettext_noop("King"),
        gettext_noop("Queen"),
        gettext_noop("Jack"),
        gettext_noop("Ten"),
        gettext_noop("Nine"),
        gettext_noop("Eight"),
        gettext_noop("Seven"),
        gettext_noop("Six"),
        gettext_noop("Five"),
        gettext_noop("Four"),
        gettext_noop("Three"),
        gettext_noop("Two"),
    )
}
RANKS_PLURAL: Final[dict[str, str]] = {
    name: name
    for name in (
        gettext_noop("Aces"),
        gettext_noop("Kings"),
        gettext_noop("Queens"),
        gettext_noop("Jacks"),
        gettext_noop("Tens"),
        gettext_noop("Nines"),
        gettext_noop("Eights"),
        gettext_noop("Sevens"),
        gettext_noop("Sixes"),
        gettext_noop("Fives"),
        gettext_noop("Fours"),
        gettext_noop("Threes"),
        gettext_noop("Twos"),
    )
}
CATEGORIES: Final[frozenset[str]] = frozenset(
    (
        gettext_noop("Royal Flush"),
        gettext_noop("Straight Flush"),
        gettext_noop("Four of a Kind"),
        gettext_noop("Full House"),
        gettext_noop("Flush"),
        gettext_noop("Straight"),
        gettext_noop("Three of a Kind"),
        gettext_noop("Two Pair"),
        gettext_noop("Pair"),
        gettext_noop("High Card"),
    )
)
PATTERNS: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (re.compile(r"^Straight Flush, (\w+) High$"), gettext_noop("Straight Flush, %(rank)s High")),
    (re.compile(r"^Four of a Kind, (\w+)$"), gettext_noop("Four of a Kind, %(ranks)s")),
    (re.compile(r"^Full House, (\w+) full of (\w+)$"), gettext_noop("Full House, %(ranks)s full of %(other)s")),
    (re.compile(r"^Flush, (\w+) High$"), gettext_noop("Flush, %(rank)s High")),
    (re.compile(r"^Straight, (\w+) High$"), gettext_noop("Straight, %(rank)s High")),
    (re.compile(r"^Three of a Kind, (\w+)$"), gettext_noop("Three of a Kind, %(ranks)s")),
    (re.compile(r"^Two Pair, (\w+) and (\w+)$"), gettext_noop("Two Pair, %(ranks)s and %(other)s")),
    (re.compile(r"^Pair of (\w+)$"), gettext_noop("Pair of %(ranks)s")),
    (re.compile(r"^High Card, (\w+)$"), gettext_noop("High Card, %(rank)s")),
)


def translated_hand_name(name: str) -> str:
    """``name`` (an engine hand name) in the active language."""
    if name in CATEGORIES:
        return gettext(name)
    for pattern, template_text in PATTERNS:
        match = pattern.match(name)
        if match is None:
            continue
        first = match.group(1)
        second = match.group(2) if pattern.groups > 1 else ""
        return gettext(template_text) % {
            "rank": gettext(RANKS[first]) if first in RANKS else first,
            "ranks": gettext(RANKS_PLURAL[first]) if first in RANKS_PLURAL else first,
            "other": gettext(RANKS_PLURAL[second]) if second in RANKS_PLURAL else second,
        }
    return name


@register.filter(name="hand_name")
def hand_name(name: object) -> str:
    return translated_hand_name(str(name)) if name else ""
