"""The UTH pages answer for visitors and players; every control is labelled (UTH-22, UTH-24..UTH-35)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from django.test import Client

from games.uth.models import UthTable
from poker_site.accounts.models import User

pytestmark = pytest.mark.django_db


def test_the_table_list_shows_open_tables_with_their_limits(client: Client, table: UthTable) -> None:
    UthTable.objects.create(name="Closed table", is_open=False)
    page = client.get("/uth/").content.decode()
    assert "Test UTH table" in page
    assert "€1.00 – €100.00" in page
    assert "€1.00 – €25.00" in page
    assert "Closed table" not in page
    assert f'href="/uth/{table.pk}/"' in page


def test_a_visitor_may_watch_but_gets_no_bet_controls(client: Client, table: UthTable) -> None:
    page = client.get(f"/uth/{table.pk}/").content.decode()
    assert "Log in to play" in page
    assert 'id="uth-spot-ante"' not in page
    snapshot = json.loads(re.search(r'<script id="uth-snapshot" type="application/json">(.*?)</script>', page, re.S)[1])
    assert snapshot["me"] is None
    assert snapshot["table"]["limits"]["ante_maximum"] == 10_000


def test_a_player_sees_labelled_bet_spots_chips_buttons_decisions_and_help(
    client: Client, table: UthTable, make_player: Callable[..., User]
) -> None:
    client.force_login(make_player("alice", 300))
    page = client.get(f"/uth/{table.pk}/").content.decode()
    for label in ("Ante: place the selected chip", "Trips side bet", "Blind, equal to the Ante", "Play bet"):
        assert label in page
    for button in ("REPEAT", "DOUBLE (x2)", "UNDO", "Take a seat", "PLAY 4x", "PLAY 3x", "PLAY 2x", "PLAY 1x"):
        assert button in page
    assert page.count('name="uth-chip"') == 3
    assert "Chip value (keys 1, 2, … select chips)" in page
    assert 'role="alert"' in page  # errors are announced
    assert "total main bet 99.47%, initial main bet 97.82%, Trips 96.50%" in page
    for odds in ("500:1", "1.5:1", "50:1", "40:1"):
        assert odds in page
    assert "/static/uth/table.js" in page
    snapshot = json.loads(re.search(r'<script id="uth-snapshot" type="application/json">(.*?)</script>', page, re.S)[1])
    assert snapshot["me"]["balance"] == 300
    assert snapshot["me"]["seated"] is False


def test_an_unknown_table_is_a_plain_404(client: Client) -> None:
    assert client.get("/uth/999999/").status_code == 404


def test_the_page_script_is_served(client: Client, table: UthTable) -> None:
    response = client.get("/static/uth/table.js")
    assert response.status_code == 200
