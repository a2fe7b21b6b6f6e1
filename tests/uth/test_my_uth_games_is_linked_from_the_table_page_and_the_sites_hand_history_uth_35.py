"""UTH-35 (QA G finding 8): the player's older UTH rounds are reachable: "My UTH games" is linked from the table page's
Game history and from the site's Hand history page."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_table_page_and_the_hand_history_link_to_my_uth_games(table: Any, make_player: Any) -> None:
    client = Client()
    client.force_login(make_player("alice"))
    assert 'href="/uth/history/"' in client.get(f"/uth/{table.pk}/").content.decode()
    assert 'href="/uth/history/"' in client.get("/games/hands/").content.decode()
