"""The HexaPro page with its confirmation dialogue, a player's games and the history in Estonian carry no English
sentence (HEX-03, HEX-10, GEN-09), by the measure of the tournament pages' test."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.browser.test_estonian_pages_have_no_english import ENGLISH, KEPT
from tests.tables.back_office import logged_in
from tests.tournaments.hexapro_support import register
from tests.tournaments.support import player
from tests.tournaments.test_tournament_pages_speak_estonian import english_lines

pytestmark = pytest.mark.django_db

PRODUCT_NAMES = re.compile(r"HexaPro Extreme|HexaPro|hexapro_extreme|hexapro|No-Limit Hold'em|Sit & Go")


def estonian(html: str) -> list[str]:
    """The page's English lines once the products' names (kept in every language) are set aside."""
    return [line for line in english_lines(html) if ENGLISH.search(KEPT.sub(" ", PRODUCT_NAMES.sub(" ", line)))]


def test_the_hexapro_pages_are_estonian() -> None:
    users = [player() for _ in range(3)]
    register(users[0], 500, games=2)
    register(users[1], 500)
    register(users[2], 500)
    client = logged_in(users[0])
    client.cookies["django_language"] = "et"
    page = client.get(reverse("tournaments:hexapro"), {"product": "hexapro", "buy_in": "500"}).content.decode()
    history = client.get(reverse("tournaments:hexapro_history")).content.decode()
    assert "Mängude arv" in page
    assert "Sinu HexaPro mängud" in page
    assert "Ootab vastaseid" in page
    assert "HexaPro ajalugu" in history
    assert estonian(page) == []
    assert estonian(history) == []
