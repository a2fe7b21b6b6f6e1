"""The cash lobby's Tournaments tab reads its list again from ``/tournaments/lists/upcoming/`` when the lobby socket
says a tournament changed (static/js/lobby.js, live_lists.js): that address answers the tab's own markup as it stands
now, never from a cache, the block the page swaps in by its id."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.tournaments.support import player, sit_and_go
from tournaments.services import tournament_register

pytestmark = pytest.mark.django_db

BLOCK = re.compile(r'<div id="lobby-tournaments".*?\n</div>', re.S)


def test_the_list_shows_a_registration_made_after_the_page_was_served(client: Client) -> None:
    table = sit_and_go(seats=3)
    client.get("/")
    tournament_register(player(cash=100_000), table)
    answer = client.get("/tournaments/lists/upcoming/")
    assert answer.status_code == 200
    assert f'data-tournament-id="{table.pk}" data-entrants="1"' in answer.content.decode()
    assert "no-cache" in answer["Cache-Control"]


def test_the_list_is_the_block_the_lobby_page_shows(client: Client) -> None:
    sit_and_go(seats=3)
    page = BLOCK.search(client.get("/").content.decode())
    answer = BLOCK.search(client.get("/tournaments/lists/upcoming/").content.decode())
    assert page is not None
    assert answer is not None
    assert answer.group(0) == page.group(0)
