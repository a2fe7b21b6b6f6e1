"""The tournament lobby and a tournament's page in Estonian carry no English sentence (LOB-02, LOB-03, LOB-06), by
the same measure as the browser walk of the other pages (tests/browser/test_estonian_pages_have_no_english.py)."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from tests.browser.test_estonian_pages_have_no_english import ENGLISH, KEPT
from tests.tournaments.support import register_players, scheduled, sit_and_go

pytestmark = pytest.mark.django_db

TOURNAMENT_NAMES = re.compile(r"Scheduled|Sit & Go \d|Sit & Go|player\d+|Provisional")


def visible_text(html: str) -> str:
    body = html.split("<main", 1)[1].split("</main>", 1)[0]
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", body, flags=re.S)
    # What the page marks translate="no" is quoted as it is (TRN-30's English phrase, which seed 004 also keeps).
    body = re.sub(r"<(\w+)[^>]*translate=\"no\"[^>]*>.*?</\1>", " ", body, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", "\n", body))


def english_lines(html: str) -> list[str]:
    lines = [line.strip() for line in visible_text(html).splitlines() if line.strip()]
    return [line for line in lines if ENGLISH.search(KEPT.sub(" ", TOURNAMENT_NAMES.sub(" ", line)))]


def test_the_tournament_lobby_and_a_tournament_page_are_estonian() -> None:
    tournament = scheduled(synchronized_breaks=True, late_registration_levels=2)
    register_players(tournament, 3)
    sit_and_go(seats=5)
    client = Client(HTTP_ACCEPT_LANGUAGE="et")
    client.cookies["django_language"] = "et"
    lobby = client.get(reverse("tournaments:index")).content.decode()
    detail = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "Ajastatud turniirid" in lobby
    assert english_lines(lobby) == []
    assert english_lines(detail) == []
