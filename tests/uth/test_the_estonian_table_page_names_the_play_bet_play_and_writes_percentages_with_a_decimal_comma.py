"""QA G finding 9 (Estonian): the rules give no Estonian word for the PLAY bet, so the UTH page calls it "PLAY"
everywhere (the help's limits, the bet spot, the decisions), never "Esita" ("submit", the replayer's Play button); and
the return-to-player percentages use the decimal comma the amounts use ("99,47%", like "424,00 €")."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_estonian_page_says_play_and_writes_99_47_percent_with_a_comma(table: Any, make_player: Any) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="et")
    client.cookies["django_language"] = "et"
    client.force_login(make_player("alice"))
    page = client.get(f"/uth/{table.pk}/").content.decode()
    page = re.sub(r'<script id="uth-snapshot".*?</script>', "", page, flags=re.S)  # the data, not the words
    assert 'lang="et"' in page
    assert "Esita" not in page
    limits = re.search(r'<tr><th scope="row">([^<]*)</th><td>4x', page)
    assert limits is not None
    assert limits[1] == "PLAY"
    assert "99,47%" in page
    assert "99.47%" not in page
    assert "96,50%" in page
