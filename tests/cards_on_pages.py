"""Which cards a page shows, for the tests that no staff member sees a card still hidden in play."""

from __future__ import annotations

import re
from collections.abc import Iterable

from games.engine.cards import format_cards, parse_cards

ICONS = re.compile(r"<svg\b.*?</svg>", re.DOTALL)
"""The admin's inline icons: their path data has codes like ``2h`` that are no cards."""


def cards_shown(cards: Iterable[str], page: str) -> list[str]:
    """Those of ``cards`` (codes such as ``Kc``) that ``page`` shows in any form a page could show a card: its code
    on its own or with the suit symbol (``K♣``). The icons are taken out of the page once, not once per card."""
    text = ICONS.sub("", page)
    return [
        card
        for card in cards
        if re.search(rf"(?<![A-Za-z0-9]){re.escape(card)}(?![A-Za-z0-9])", text)
        or format_cards(parse_cards(card)) in text
    ]
